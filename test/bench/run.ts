// `pnpm bench [name ...]`: runs the named benchmarks (all when none is named), prints their
// figures and rewrites their sections of docs/benchmarks.md. Not part of `pnpm test`: these
// take minutes and measure speed, which tests must not assert.
import { benchBrowserSync } from './browser-sync.ts';
import { benchBundle } from './bundle.ts';
import { benchDashboards } from './dashboards.ts';
import { benchOrders } from './orders.ts';
import { benchProvisioning } from './provisioning.ts';
import { benchPull } from './pull.ts';

const BENCHMARKS: Record<string, () => Promise<void>> = {
  bundle: benchBundle,
  'browser-sync': benchBrowserSync,
  dashboards: benchDashboards,
  orders: benchOrders,
  provisioning: benchProvisioning,
  pull: benchPull,
};

const asked = process.argv.slice(2);
const unknown = asked.filter((n) => !(n in BENCHMARKS));
if (unknown.length) {
  process.stderr.write(`unknown benchmark ${unknown.join(', ')}; known: ${Object.keys(BENCHMARKS).join(', ')}\n`);
  process.exit(2);
}
for (const name of asked.length ? asked : Object.keys(BENCHMARKS)) {
  process.stderr.write(`== ${name}\n`);
  await BENCHMARKS[name]?.();
}
