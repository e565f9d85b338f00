// `pnpm lint:openapi`: builds the served OpenAPI document in-process (no database, no network)
// and lints it with the OWASP API Security ruleset (test/openapi/ruleset.ts). It fails on any
// error in a request, the accepted exceptions aside; findings elsewhere (responses, rate-limit
// headers) are counted, not failed: requests are what an attacker controls.
import { Document, Spectral } from '@stoplight/spectral-core';
import * as Parsers from '@stoplight/spectral-parsers';
import pg from 'pg';
import { createApp } from '../../server/src/app.ts';
import { EXCEPTIONS, inRequest, ruleset } from './ruleset.ts';

// The package is CommonJS: its named exports come through `default` under ESM.
const Json = (Parsers as unknown as { default?: typeof Parsers }).default?.Json ?? Parsers.Json;

export async function servedDocument(): Promise<string> {
  // The pool never connects: building the document touches no database.
  const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
  const app = createApp({ pool, config: { jwtSecret: 'x'.repeat(40), tokenTtlHours: 1, devLogin: false } });
  const res = await app.request('/api/v1/openapi.json');
  await pool.end();
  if (res.status !== 200) throw new Error(`GET /api/v1/openapi.json answered ${res.status}`);
  return res.text();
}

const ERROR = 0;

async function main() {
  const spectral = new Spectral();
  spectral.setRuleset(ruleset as never);
  const results = await spectral.run(new Document(await servedDocument(), Json, 'openapi.json'));
  const excepted = (code: string, where: string) => EXCEPTIONS.some((e) => e.rule === code && e.where.test(where));
  const failures = results.filter(
    (r) => r.severity === ERROR && inRequest(r.path) && !excepted(String(r.code), r.path.join('.')),
  );
  const elsewhere = results.filter((r) => r.severity === ERROR && !inRequest(r.path));
  const byRule = new Map<string, number>();
  for (const r of elsewhere) byRule.set(String(r.code), (byRule.get(String(r.code)) ?? 0) + 1);
  if (byRule.size > 0) {
    console.log(`OpenAPI lint: outside requests (not failed): ${[...byRule].map(([k, n]) => `${k} ${n}`).join(', ')}`);
  }
  for (const r of failures) console.error(`${r.code} ${r.path.join('.')}: ${r.message}`);
  if (failures.length > 0) {
    console.error(`OpenAPI lint: ${failures.length} error(s) in request parameters and bodies`);
    process.exit(1);
  }
  console.log('OpenAPI lint: no errors in request parameters and bodies (OWASP API Security Top 10 2023)');
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
