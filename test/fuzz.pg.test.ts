// Bad input, generated from the OpenAPI document so no route is missed (docs/reliability.md):
// every operation gets random, oversized, malformed and non-LATIN1 bodies, query parameters,
// path parameters and Idempotency-Keys from fast-check, as every role. The server must answer
// below 500, with a problem body on every 4xx, and write nothing when it refuses.
// FUZZ_RUNS sets the runs per operation and role (default 4 in CI); a failure prints its seed.
import type { Session } from '@campo/shared';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../server/src/db/kysely.ts';
import { documentedCodes } from '../server/src/http/openapi.ts';
import { generateVapidKeys } from '../server/src/notifications/vapid.ts';
import { addUser } from '../server/src/users/service.ts';
import { testApp } from './support/app.ts';
import { provisionedErp } from './support/erp.ts';
import { useTestDatabase } from './support/pg.ts';

const db = useTestDatabase();
const RUNS = Number(process.env.FUZZ_RUNS ?? 4);
const PASSWORD = 'fuzz-password-1';

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  $ref?: string;
}
interface Operation {
  parameters?: { name: string; in: string; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

/** Values no contract expects: wrong types, huge, empty, outside LATIN1, lone surrogates. */
const wild: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constant('😀🚚€—“”'.repeat(500)),
  fc.constant('x'.repeat(70_000)),
  fc.constant(-1),
  fc.constant(Number.MAX_SAFE_INTEGER),
  fc.constant(2_147_483_648),
  fc.constant(''),
  fc.constant('2026-02-30'),
  fc.constant('../../etc/passwd'),
  fc.constant("'; drop table app.pedidos; --"),
);

/** Shaped like the schema (so validation gets past the first field) but mostly wrong inside. */
function shaped(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 3) return wild;
  const alternatives = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  if (alternatives.length) return fc.oneof(...alternatives.map((s) => shaped(s, depth + 1)), wild);
  if (schema.enum?.length) return fc.oneof(fc.constantFrom(...schema.enum), wild);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const props = Object.entries(schema.properties ?? {});
      const record = fc.record(Object.fromEntries(props.map(([k, s]) => [k, fc.oneof(shaped(s, depth + 1), wild)])), {
        requiredKeys: [],
      });
      return fc.oneof(
        record,
        record.map((r) => ({ ...r, id_empresa: 999, cod_vendedor: 1, situa: 2 })),
        wild,
      );
    }
    case 'array':
      return fc.oneof(fc.array(fc.oneof(shaped(schema.items, depth + 1), wild), { maxLength: 4 }), wild);
    case 'integer':
    case 'number':
      return fc.oneof(fc.integer({ min: -5, max: 2_000_000_000 }), fc.double(), wild);
    case 'boolean':
      return fc.oneof(fc.boolean(), wild);
    default:
      return fc.oneof(fc.string({ maxLength: 30 }), wild);
  }
}

const asText = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

/**
 * A parameter as a path segment. "." and ".." (encoded or not) are dot segments: URL parsing
 * removes them, so the request reaches another path (or none), not this route with that id;
 * no client can send them as a parameter, so they stand for an empty one.
 */
function pathSegment(value: string): string {
  const encoded = encodeURIComponent(value);
  return encoded === '' || encoded === '.' || encoded === '..' ? 'x' : encoded;
}

describe('fuzzing every documented request', () => {
  let app: ReturnType<typeof testApp>;
  const tokens: string[] = [];
  let operations: { method: string; path: string; op: Operation }[] = [];
  let doc: unknown;

  /** Rows in Campo's tables, but failed logins (counted on purpose when a login is refused). */
  const appRows = async () => {
    const { rows } = await db.pool.query<{ table_name: string }>(
      `select table_name from information_schema.tables
        where table_schema = 'app' and table_type = 'BASE TABLE' and table_name <> 'tentativas_login'`,
    );
    const counts = await db.pool.query<{ n: number }>(
      rows.map((r) => `select count(*)::int as n from app.${r.table_name}`).join(' union all '),
    );
    return counts.rows.reduce((s, r) => s + r.n, 0);
  };

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const [t1] = erp.tenants;
    const rep = erp.reps.find((r) => r.idEmpresa === t1);
    if (!t1 || !rep) throw new Error('no tenant');
    // Push enabled, so the notification routes answer as in production rather than 503.
    app = testApp(db.pool, {
      push: { vapid: { ...generateVapidKeys(), subject: 'mailto:ti@fuzz.test' }, endpointHosts: ['127.0.0.1'] },
    });
    const kdb = createDb(db.pool);
    const users = [
      {
        login: 'rep@fuzz.test',
        role: 'representative',
        idEmpresa: t1,
        codVendedor: rep.codVendedor,
        codSupervisor: null,
      },
      {
        login: 'sup@fuzz.test',
        role: 'supervisor',
        idEmpresa: t1,
        codVendedor: null,
        codSupervisor: rep.codSupervisor,
      },
      { login: 'ger@fuzz.test', role: 'manager', idEmpresa: t1, codVendedor: null, codSupervisor: null },
      { login: 'adm@fuzz.test', role: 'admin', idEmpresa: t1, codVendedor: null, codSupervisor: null },
    ];
    for (const u of users) {
      await addUser(kdb, { ...u, name: u.login, password: PASSWORD });
      const res = await app.request('/api/v1/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: u.login, password: PASSWORD }),
      });
      tokens.push(((await res.json()) as Session).token);
    }
    const served = (await (await app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    doc = served;
    operations = Object.entries(served.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
    );
  });

  it(
    'answers every random request below 500, with a problem on 4xx, and writes nothing on a refusal',
    async () => {
      expect(operations.length).toBeGreaterThan(40);
      let tried = 0;
      const statuses = new Map<number, number>();
      for (const { method, path, op } of operations) {
        // The stream never ends by itself; it is tested in server/src/sync/stream.pg.test.ts.
        if (path === '/sync/stream') continue;
        const params = op.parameters ?? [];
        const body = op.requestBody?.content?.['application/json']?.schema;
        const request = fc.record({
          path: fc.record(
            Object.fromEntries(
              params.filter((p) => p.in === 'path').map((p) => [p.name, fc.oneof(shaped(p.schema), wild)]),
            ),
          ),
          query: fc.record(
            Object.fromEntries(
              params.filter((p) => p.in === 'query').map((p) => [p.name, fc.oneof(shaped(p.schema), wild)]),
            ),
            { requiredKeys: [] },
          ),
          key: fc.oneof(fc.uuid(), fc.string({ maxLength: 200 }), fc.constant('"chave com espaço"')),
          body: body ? shaped(body) : fc.constant(undefined),
          raw: fc.oneof(fc.constant(undefined), fc.constant('{"a":'), fc.constant('[]'), fc.constant('\u0000')),
          who: fc.nat({ max: tokens.length - 1 }),
        });
        await fc.assert(
          fc.asyncProperty(request, async (r) => {
            const url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
              pathSegment(asText(r.path[name]).slice(0, 300)),
            );
            const query = new URLSearchParams(
              Object.entries(r.query).map(([k, v]): [string, string] => [k, asText(v).slice(0, 3000)]),
            ).toString();
            const payload = r.raw ?? (r.body === undefined ? undefined : JSON.stringify(r.body));
            const before = await appRows();
            const res = await app.request(`/api/v1${url}${query ? `?${query}` : ''}`, {
              method,
              headers: {
                authorization: `Bearer ${tokens[r.who]}`,
                'idempotency-key': r.key.slice(0, 300).replace(/[^\t\x20-\x7e]/g, ''),
                ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
              },
              ...(payload !== undefined && method !== 'GET' ? { body: payload } : {}),
            });
            const text = await res.text();
            tried++;
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            if (res.status >= 500) throw new Error(`${method} ${path} → ${res.status} ${text.slice(0, 300)}`);
            if (res.status >= 400 && res.status < 500) {
              expect(res.headers.get('content-type'), `${method} ${path}`).toContain('application/problem+json');
              const problem = JSON.parse(text) as { code?: string; status?: unknown };
              // A code the document lists for this route and status (docs/errors.md).
              expect(documentedCodes(doc, path, method, res.status), `${method} ${path} ${res.status}`).toContain(
                problem.code,
              );
              // RFC 9457: the body's status is the HTTP status, never an extension's value.
              expect(problem.status, `${method} ${path}`).toBe(res.status);
              expect(await appRows(), `${method} ${path} wrote on a ${res.status}`).toBe(before);
            }
          }),
          // FUZZ_SEED replays the seed a failure printed.
          { numRuns: RUNS, verbose: true, ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}) },
        );
      }
      // The long mode's figures (docs/reliability.md).
      console.log(
        `fuzz: ${operations.length} operations, ${tried} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
      );
    },
    Math.max(60_000, RUNS * 25_000),
  );
});
