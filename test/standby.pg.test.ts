// Pulls served from a hot standby (DATABASE_REPLICA_URL; docs/deployment.md, "Scaling past one
// machine", 3). A second PostgreSQL streams the test database's WAL; the API writes on the
// primary and reads its pull pages on the standby once the standby has replayed past the mark
// the primary gives (the horizon, then the WAL position). A device gets every row a
// primary-only server would give, right after a write; and while the standby's replay is
// paused the pull reads the primary instead and still misses nothing.
import { randomUUID } from 'node:crypto';
import type { SyncPull } from '@campo/shared';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp } from '../server/src/app.ts';
import { createPool } from '../server/src/db/pool.ts';
import type { PullReplica } from '../server/src/sync/service.ts';
import { TEST_JWT_SECRET } from './support/app.ts';
import { orderableClient, provisionedErp } from './support/erp.ts';
import { asServerRole, serverRolePool, useTestDatabase } from './support/pg.ts';
import { apiAs, logInAs } from './support/session.ts';
import { type Standby, startStandby } from './support/standby.ts';

const db = useTestDatabase();

type Doc = SyncPull['documents'][number];

describe('pulls from a hot standby', () => {
  let standby: Standby | null = null;
  let skipped = '';
  let replicaPool: pg.Pool;
  let standbyAdmin: pg.Pool;
  const sources: ('replica' | 'primary')[] = [];
  // The wait is long on purpose: on a loaded CI machine the standby replayed an order past 5 s
  // (2026-11-28); replay can be held up to max_standby_streaming_delay (30 s by default).
  const REPLAY_WAIT_MS = 30_000;
  // The standby replays the whole test cluster's WAL, every other test file's included: a test
  // waits for its replay, and may wait more than once.
  const REPLAY_TEST_TIMEOUT_MS = 180_000;
  const replica: PullReplica = {
    pool: undefined as unknown as pg.Pool,
    waitMs: REPLAY_WAIT_MS,
    onPage: (s) => sources.push(s),
  };
  let withReplica: ReturnType<typeof createApp>;
  let primaryOnly: ReturnType<typeof createApp>;
  let token = '';
  let order: { idCliente: number; idProduto: number };

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const rep = erp.reps[0];
    if (!rep) throw new Error('no representative in the fixture');
    order = await orderableClient(db.pool, rep);
    const started = await startStandby(inject('adminDatabaseUrl'));
    if (typeof started === 'string') {
      skipped = started;
      console.warn(`test/standby.pg.test.ts skipped: ${started}`);
      return;
    }
    standby = started;
    replicaPool = createPool(asServerRole(standby.url(db.name)), 4);
    standbyAdmin = new pg.Pool({ connectionString: standby.url(db.name), max: 1 });
    // As createPool does: the standby ends its sessions when it stops (57P01) or replays a
    // conflicting change; an idle connection ended so must not end the test run.
    standbyAdmin.on('error', () => undefined);
    standbyAdmin.on('connect', (client) => client.on('error', () => undefined));
    replica.pool = replicaPool;
    const config = { jwtSecret: TEST_JWT_SECRET, tokenTtlHours: 1, devLogin: false };
    const pool = serverRolePool(db.url);
    withReplica = createApp({ pool, pullReplica: replica, config });
    primaryOnly = createApp({ pool, config });
    token = await logInAs(withReplica, db.pool, {
      login: 'rep@standby.test',
      role: 'representative',
      idEmpresa: rep.idEmpresa,
      codVendedor: rep.codVendedor,
    });
  });

  afterAll(async () => {
    await replicaPool?.end();
    await standbyAdmin?.end();
    await standby?.stop();
  });

  /** Every document from `checkpoint` on, in pages of `limit`, and the last checkpoint. */
  async function pullAll(app: ReturnType<typeof createApp>, collection: string, checkpoint?: string, limit = 50) {
    const documents: Doc[] = [];
    let cp = checkpoint;
    for (;;) {
      const query = new URLSearchParams({ limit: String(limit), ...(cp ? { checkpoint: cp } : {}) });
      const res = await apiAs(app, token)('GET', `/sync/${collection}/pull?${query}`);
      expect(res.status, await res.clone().text()).toBe(200);
      const page = (await res.json()) as SyncPull;
      documents.push(...page.documents);
      cp = page.checkpoint;
      if (page.documents.length < limit) return { documents, checkpoint: cp as string };
    }
  }

  const placeOrder = async () => {
    const key = randomUUID();
    const res = await withReplica.request('/api/v1/orders', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ idCliente: order.idCliente, itens: [{ idProduto: order.idProduto, quantidade: 1 }] }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return key;
  };

  it(
    'serves pages from the standby with every row the primary has, right after a write',
    async ({ skip }) => {
      if (!standby) return skip(skipped);
      // The first pulls fill the change log on the primary; the standby answers once it replayed it.
      sources.length = 0;
      const catalog = await pullAll(withReplica, 'produtos');
      expect(catalog.documents.length).toBeGreaterThan(50);
      expect(sources.length).toBeGreaterThan(1);
      expect(new Set(sources)).toEqual(new Set(['replica']));
      expect(catalog.documents).toEqual((await pullAll(primaryOnly, 'produtos')).documents);

      const before = await pullAll(withReplica, 'pedidos');
      const key = await placeOrder();
      // Pulled at once: the page waits for the standby to replay the order, or reads the primary.
      sources.length = 0;
      const after = await pullAll(withReplica, 'pedidos', before.checkpoint);
      expect(after.documents.map((d) => d.id)).toEqual([key]);
      expect(sources).toEqual(['replica']);
    },
    REPLAY_TEST_TIMEOUT_MS,
  );

  it(
    'reads the primary while the standby lags, and misses nothing',
    async ({ skip }) => {
      if (!standby) return skip(skipped);
      const before = await pullAll(withReplica, 'pedidos');
      await standbyAdmin.query('select pg_wal_replay_pause()');
      try {
        // Pausing takes effect at the next record the standby replays: the order's own.
        const key = await placeOrder();
        const onStandby = await standbyAdmin.query('select count(*)::int as n from app.pedidos');
        const onPrimary = await db.pool.query('select count(*)::int as n from app.pedidos');
        expect(onStandby.rows[0].n).toBeLessThan(onPrimary.rows[0].n);

        replica.waitMs = 50;
        sources.length = 0;
        const after = await pullAll(withReplica, 'pedidos', before.checkpoint);
        expect(after.documents.map((d) => d.id)).toEqual([key]);
        expect(sources).toEqual(['primary']);
      } finally {
        replica.waitMs = REPLAY_WAIT_MS;
        await standbyAdmin.query('select pg_wal_replay_resume()');
      }
      // Caught up, the standby answers the same page again.
      await standby.caughtUp();
      sources.length = 0;
      const again = await pullAll(withReplica, 'pedidos', before.checkpoint);
      expect(again.documents.map((d) => d.id)).toHaveLength(1);
      expect(sources).toEqual(['replica']);
    },
    REPLAY_TEST_TIMEOUT_MS,
  );
});
