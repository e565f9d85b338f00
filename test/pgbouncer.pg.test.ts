// Campo behind PgBouncer in transaction mode (docs/deployment.md, "PgBouncer"): the API's pool
// goes through the pooler, which hands each transaction whichever of its two server
// connections is free, and the change hub's LISTEN goes straight to PostgreSQL (what
// DATABASE_DIRECT_URL is for). Login, an order (advisory transaction locks, the idempotency
// key, the hot paths' statements), a pull (COPY inside a transaction, the horizon read off
// pg_locks) and the change stream all work; orders and pulls of several representatives of two
// tenants at once, sharing those two sessions, never see each other's rows, since the settings
// row-level security reads are transaction-local. `campo serve` itself is run the same way
// through its environment (DATABASE_URL, DATABASE_DIRECT_URL). With PgBouncer 1.21 or later the hot paths'
// named prepared statements are kept (max_prepared_statements); with an older one (Debian 12
// ships 1.18) the pool sends them unnamed (DATABASE_PREPARED_STATEMENTS=0).
import { randomUUID } from 'node:crypto';
import type { SyncPull } from '@campo/shared';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../server/src/app.ts';
import { createPool } from '../server/src/db/pool.ts';
import { type ChangeHub, createChangeHub, LISTENER_NAME } from '../server/src/sync/stream.ts';
import { TEST_JWT_SECRET } from './support/app.ts';
import { orderableClient, provisionedErp } from './support/erp.ts';
import { asServerRole, useTestDatabase } from './support/pg.ts';
import { findPgBouncer, keepsPreparedStatements, type PgBouncer, startPgBouncer } from './support/pgbouncer.ts';
import { serveProcess } from './support/serve.ts';
import { apiAs, logInAs, SESSION_PASSWORD } from './support/session.ts';
import { sse } from './support/sse.ts';

const installed = findPgBouncer();
if (!installed) {
  console.warn(
    'test/pgbouncer.pg.test.ts skipped: PgBouncer is not installed (apt-get install pgbouncer; .ci/run does)',
  );
}

const db = useTestDatabase();
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

interface Rep {
  idEmpresa: number;
  codVendedor: number;
  token: string;
  order: { idCliente: number; idProduto: number };
}

describe.skipIf(!installed)('behind PgBouncer in transaction mode', () => {
  let bouncer: PgBouncer;
  let pool: pg.Pool;
  let hub: ChangeHub;
  let app: ReturnType<typeof createApp>;
  let reps: Rep[];
  const prepared = installed ? keepsPreparedStatements(installed.version) : false;

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const [t1, t2] = erp.tenants;
    const chosen = [
      ...erp.reps.filter((r) => r.idEmpresa === t1).slice(0, 2),
      ...erp.reps.filter((r) => r.idEmpresa === t2).slice(0, 2),
    ];
    if (chosen.length < 4 || t1 === undefined || t2 === undefined)
      throw new Error('the tiny fixture lacks two representatives in each of two tenants');
    bouncer = await startPgBouncer(asServerRole(db.url), { poolSize: 2 });
    // As campo serve makes them: DATABASE_URL through the pooler, the hub's own connection direct.
    pool = createPool(bouncer.url, 8, { prepared });
    hub = createChangeHub({ connectionString: asServerRole(db.url), log: quiet, retryBaseMs: 50 });
    app = createApp({ pool, hub, config: { jwtSecret: TEST_JWT_SECRET, tokenTtlHours: 1, devLogin: false } });
    reps = [];
    for (const [i, r] of chosen.entries()) {
      const token = await logInAs(app, db.pool, {
        login: `rep${i}@bouncer.test`,
        role: 'representative',
        idEmpresa: r.idEmpresa,
        codVendedor: r.codVendedor,
      });
      reps.push({ ...r, token, order: await orderableClient(db.pool, r) });
    }
  });

  afterAll(async () => {
    await hub?.close();
    await pool?.end();
    await bouncer?.stop();
  });

  const placeOrder = (rep: Rep, key: string) =>
    app.request('/api/v1/orders', {
      method: 'POST',
      headers: { authorization: `Bearer ${rep.token}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({
        idCliente: rep.order.idCliente,
        itens: [{ idProduto: rep.order.idProduto, quantidade: 1 }],
      }),
    });

  /** Every order document the representative pulls, from the start, by its id (the idempotency key). */
  async function pulledOrderKeys(rep: Rep): Promise<string[]> {
    const keys: string[] = [];
    let checkpoint: string | undefined;
    for (;;) {
      const query = new URLSearchParams({ limit: '5', ...(checkpoint ? { checkpoint } : {}) });
      const res = await apiAs(app, rep.token)('GET', `/sync/pedidos/pull?${query}`);
      expect(res.status, await res.clone().text()).toBe(200);
      const page = (await res.json()) as SyncPull;
      keys.push(...page.documents.map((d) => String(d.id)));
      checkpoint = page.checkpoint;
      if (page.documents.length < 5) return keys.sort();
    }
  }

  it('logs in, takes an order, pulls it, and the change stream hears it', async () => {
    const rep = reps[0] as Rep;
    const res = await app.request('/api/v1/sync/stream', { headers: { authorization: `Bearer ${rep.token}` } });
    expect(res.status).toBe(200);
    const stream = sse(res);
    try {
      await stream.until((e) => e.event === 'resync');
      const key = randomUUID();
      const created = await placeOrder(rep, key);
      expect(created.status, await created.clone().text()).toBe(201);
      await stream.until(
        (e) => e.event === 'change' && (JSON.parse(e.data) as { colecao: string }).colecao === 'pedidos',
      );
      expect(await pulledOrderKeys(rep)).toContain(key);
      // The same key again is a replay, found through the idempotency row and its lock.
      const replayed = await placeOrder(rep, key);
      expect(replayed.status).toBe(201);
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    } finally {
      await stream.close();
    }
  });

  it('orders and pulls of representatives of two tenants at once share two sessions and never mix', async () => {
    const keysOf = new Map<Rep, string[]>(reps.map((r) => [r, [randomUUID(), randomUUID(), randomUUID()]]));
    const before = new Map<Rep, string[]>();
    for (const rep of reps) before.set(rep, await pulledOrderKeys(rep));
    // Twelve orders at once from eight pool connections onto PgBouncer's two server sessions.
    const created = await Promise.all(
      reps.flatMap((rep) =>
        (keysOf.get(rep) ?? []).map(async (key) => {
          const res = await placeOrder(rep, key);
          expect(res.status, await res.clone().text()).toBe(201);
          return { rep, id: ((await res.json()) as { id: number }).id };
        }),
      ),
    );
    for (const { rep, id } of created) {
      const { rows } = await db.pool.query('select id_empresa, cod_vendedor from app.pedidos where id = $1', [id]);
      expect(rows[0]).toEqual({ id_empresa: rep.idEmpresa, cod_vendedor: rep.codVendedor });
    }
    // Every representative pulls at once, and gets their own orders, only theirs.
    const pulled = await Promise.all(reps.map((rep) => pulledOrderKeys(rep)));
    for (const [i, rep] of reps.entries()) {
      expect(pulled[i]).toEqual([...(before.get(rep) ?? []), ...(keysOf.get(rep) ?? [])].sort());
    }
    // The pool's eight connections really shared PgBouncer's two sessions (plus the hub's own).
    const backends = await db.pool.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity
        where datname = current_database() and usename = 'campo_app' and application_name <> $1`,
      [LISTENER_NAME],
    );
    expect(backends.rows[0]?.n).toBeLessThanOrEqual(bouncer.poolSize);
    expect(pool.totalCount).toBeGreaterThan(bouncer.poolSize);
  });
  it('campo serve runs with DATABASE_URL through PgBouncer and DATABASE_DIRECT_URL for its change hub', async () => {
    // Its start-up check of the schema already goes through the pooler.
    const {
      child,
      base: origin,
      exited,
    } = await serveProcess({
      DATABASE_URL: bouncer.url,
      DATABASE_DIRECT_URL: asServerRole(db.url),
      DATABASE_PREPARED_STATEMENTS: prepared ? '1' : '0',
    });
    try {
      const base = `${origin}/api/v1`;
      const login = await fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'rep1@bouncer.test', password: SESSION_PASSWORD }),
      });
      expect(login.status).toBe(200);
      const { token } = (await login.json()) as { token: string };
      const rep = reps[1] as Rep;
      const streamAnswer = await fetch(`${base}/sync/stream`, { headers: { authorization: `Bearer ${token}` } });
      expect(streamAnswer.status).toBe(200);
      const stream = sse(streamAnswer);
      try {
        await stream.until((e) => e.event === 'resync');
        const created = await fetch(`${base}/orders`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'idempotency-key': randomUUID(),
          },
          body: JSON.stringify({
            idCliente: rep.order.idCliente,
            itens: [{ idProduto: rep.order.idProduto, quantidade: 1 }],
          }),
        });
        expect(created.status, await created.clone().text()).toBe(201);
        await stream.until(
          (e) => e.event === 'change' && (JSON.parse(e.data) as { colecao: string }).colecao === 'pedidos',
        );
      } finally {
        await stream.close();
      }
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
