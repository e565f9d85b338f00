// `pnpm bench [name ...] [--devices N] [--history]`: runs the named benchmarks (all when none is named),
// prints their figures and rewrites their sections of docs/benchmarks.md. Not part of
// `pnpm test`: these take minutes and measure speed, which tests must not assert.
import { parseArgs } from 'node:util';
import { benchBrowserSync } from './browser-sync.ts';
import { benchBundle } from './bundle.ts';
import { benchBurst } from './burst.ts';
import { benchCheapPhone } from './cheap-phone.ts';
import { benchDashboards } from './dashboards.ts';
import { benchHotPaths } from './hot-paths.ts';
import { benchOrders } from './orders.ts';
import { benchOrdersHistory } from './orders-history.ts';
import { benchProvisioning } from './provisioning.ts';
import { benchPull } from './pull.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { devices: { type: 'string' }, history: { type: 'boolean' } },
});
const devices = values.devices === undefined ? undefined : Number(values.devices);
if (devices !== undefined && !(Number.isInteger(devices) && devices > 0)) {
  process.stderr.write('--devices takes a positive integer\n');
  process.exit(2);
}

const BENCHMARKS: Record<string, () => Promise<void>> = {
  bundle: benchBundle,
  'browser-sync': benchBrowserSync,
  burst: () => benchBurst({ ...(devices ? { devices } : {}) }),
  'cheap-phone': benchCheapPhone,
  dashboards: benchDashboards,
  // The other hot paths against their true limits (issue #51).
  'hot-paths': benchHotPaths,
  // --history: how an order's cost moves with the open orders and the orders in the database (issue #51).
  orders: values.history ? benchOrdersHistory : benchOrders,
  provisioning: benchProvisioning,
  pull: benchPull,
};

const unknown = positionals.filter((n) => !(n in BENCHMARKS));
if (unknown.length) {
  process.stderr.write(`unknown benchmark ${unknown.join(', ')}; known: ${Object.keys(BENCHMARKS).join(', ')}\n`);
  process.exit(2);
}
for (const name of positionals.length ? positionals : Object.keys(BENCHMARKS)) {
  process.stderr.write(`== ${name}\n`);
  await BENCHMARKS[name]?.();
}
