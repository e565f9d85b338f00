// Every text input of every route, from the OpenAPI document (docs/security.md): characters
// LATIN1 cannot hold (curly quotes, emoji, €), a lone surrogate and NUL go into each string
// query and path parameter and each string field of each body, as a representative and as an
// admin. The server may refuse (400, 404, 422...) but never answers 5xx: Campo-only text keeps
// what was typed, ERP-bound text is transliterated, searches are folded, NUL is refused.
import { randomUUID } from 'node:crypto';
import type { Session } from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../server/src/db/kysely.ts';
import { generateVapidKeys } from '../server/src/notifications/vapid.ts';
import { addUser } from '../server/src/users/service.ts';
import { testApp } from './support/app.ts';
import { provisionedErp } from './support/erp.ts';
import { useTestDatabase } from './support/pg.ts';

const db = useTestDatabase();
const PASSWORD = 'text-password-1';
const BAD = ['Ana D’Ávila', '😀 pedido 🚚', '€ 10 — “ok”', 'a\u0000b', 'x\ud800y'];

interface Schema {
  type?: string | string[];
  format?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  minimum?: number;
}
interface Operation {
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

const typeOf = (s: Schema | undefined) => {
  const alt = s?.anyOf?.[0] ?? s?.oneOf?.[0];
  if (alt && !s?.type) return typeOf(alt);
  return Array.isArray(s?.type) ? s.type.find((t) => t !== 'null') : s?.type;
};

/** A plausible value for the schema, so that a bad string reaches past validation where it can. */
function sample(s: Schema | undefined, depth = 0): unknown {
  if (!s || depth > 4) return null;
  if (s.enum?.length) return s.enum[0];
  switch (typeOf(s)) {
    case 'object':
      return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, sample(v, depth + 1)]));
    case 'array':
      return [sample(s.items, depth + 1)];
    case 'integer':
    case 'number':
      return Math.max(1, s.minimum ?? 1);
    case 'boolean':
      return true;
    default:
      if (s.format === 'uuid') return randomUUID();
      if (s.format === 'date') return '2026-01-15';
      if (s.format === 'date-time') return '2026-01-15T12:00:00.000Z';
      if (s.format === 'email') return 'alguem@texto.test';
      return 'Texto de teste';
  }
}

/** Paths to every string field of a body: ['nome'], ['itens', 0, 'obs'], ... */
function stringPaths(s: Schema | undefined, prefix: (string | number)[] = [], depth = 0): (string | number)[][] {
  if (!s || depth > 4) return [];
  const alt = !s.type ? (s.anyOf?.[0] ?? s.oneOf?.[0]) : undefined;
  if (alt) return stringPaths(alt, prefix, depth);
  const t = typeOf(s);
  if (t === 'string' && !s.enum) return [prefix];
  if (t === 'object')
    return Object.entries(s.properties ?? {}).flatMap(([k, v]) => stringPaths(v, [...prefix, k], depth + 1));
  if (t === 'array') return stringPaths(s.items, [...prefix, 0], depth + 1);
  return [];
}

/** encodeURIComponent, but a lone surrogate (which it refuses) goes as its raw UTF-8-style bytes. */
const enc = (v: string) =>
  v
    .split(/([\ud800-\udfff])/u)
    .map((part, i) => (i % 2 ? '%ED%A0%80' : encodeURIComponent(part)))
    .join('');

function setAt(obj: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(obj) as Record<string | number, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path.at(-1) as string | number] = value;
  return copy;
}

describe('text outside LATIN1, lone surrogates and NUL in every text input', () => {
  let app: ReturnType<typeof testApp>;
  const tokens: string[] = [];
  let doc: { paths: Record<string, Record<string, Operation>> };

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const [t1] = erp.tenants;
    const rep = erp.reps.find((r) => r.idEmpresa === t1);
    if (!t1 || !rep) throw new Error('no tenant');
    // Push enabled, so the notification routes answer as in production rather than 503.
    app = testApp(db.pool, {
      push: { vapid: { ...generateVapidKeys(), subject: 'mailto:ti@texto.test' }, endpointHosts: ['127.0.0.1'] },
    });
    const kdb = createDb(db.pool);
    for (const u of [
      { login: 'rep@texto.test', role: 'representative', codVendedor: rep.codVendedor, codSupervisor: null },
      { login: 'adm@texto.test', role: 'admin', codVendedor: null, codSupervisor: null },
    ] as const) {
      await addUser(kdb, { ...u, idEmpresa: t1, name: u.login, password: PASSWORD });
      const res = await app.request('/api/v1/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: u.login, password: PASSWORD }),
      });
      tokens.push(((await res.json()) as Session).token);
    }
    doc = (await (await app.request('/api/v1/openapi.json')).json()) as typeof doc;
  });

  it('answers below 500 for each bad text in each string parameter and body field of every route', async () => {
    const failures: string[] = [];
    let sent = 0;
    const call = async (method: string, url: string, body: unknown, token: string) => {
      const res = await app.request(`/api/v1${url}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          'idempotency-key': randomUUID(),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      sent++;
      const text = await res.text();
      if (res.status >= 500)
        failures.push(`${method} ${url} ${JSON.stringify(body)?.slice(0, 120)} → ${res.status} ${text.slice(0, 160)}`);
    };
    for (const [path, methods] of Object.entries(doc.paths)) {
      if (path === '/sync/stream') continue;
      for (const [m, op] of Object.entries(methods)) {
        const method = m.toUpperCase();
        const params = op.parameters ?? [];
        const bodySchema = op.requestBody?.content?.['application/json']?.schema;
        const body = bodySchema ? sample(bodySchema) : undefined;
        const url = (pathValues: Record<string, string>, query: Record<string, string>) => {
          const p = path.replace(/\{(\w+)\}/g, (_, name: string) => enc(pathValues[name] ?? '1'));
          const q = Object.entries(query)
            .map(([k, v]) => `${enc(k)}=${enc(v)}`)
            .join('&');
          return q ? `${p}?${q}` : p;
        };
        for (const token of tokens) {
          for (const bad of BAD) {
            for (const p of params) {
              if (typeOf(p.schema) !== 'string' && p.in !== 'path') continue;
              if (p.in === 'path') await call(method, url({ [p.name]: bad }, {}), body, token);
              if (p.in === 'query') await call(method, url({}, { [p.name]: bad }), body, token);
            }
            for (const at of stringPaths(bodySchema)) await call(method, url({}, {}), setAt(body, at, bad), token);
          }
        }
      }
    }
    console.log(`text inputs: ${sent} requests`);
    expect(sent).toBeGreaterThan(500);
    expect(failures).toEqual([]);
  }, 600_000);
});
