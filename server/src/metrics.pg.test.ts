// GET /metrics against a real PostgreSQL: after real requests, orders, a stream, a refresh and
// a push drain, every series the runbook (docs/deployment.md) alerts on exists and moves.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../test/support/app.ts';
import { orderableClient, provisionedErp } from '../../test/support/erp.ts';
import { asServerRole, serverRolePool, useTestDatabase } from '../../test/support/pg.ts';
import { apiAs, logInAs } from '../../test/support/session.ts';
import { sse } from '../../test/support/sse.ts';
import { createDb } from './db/kysely.ts';
import { metricsApp, recordRefresh, watchOutboxDepth } from './metrics.ts';
import { generateVapidKeys } from './notifications/vapid.ts';
import { createPushDrainer } from './notifications/worker.ts';
import { refreshEveryTenant } from './sync/schedule.ts';
import { type ChangeHub, createChangeHub } from './sync/stream.ts';

const db = useTestDatabase();
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

async function scrape(): Promise<string> {
  const res = await metricsApp().request('/metrics');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text();
}

/** The value of one series (name and labels exactly as printed), or undefined when absent. */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  let app: ReturnType<typeof testApp>;
  let hub: ChangeHub;
  let rep: string;
  let sup: string;
  let idEmpresa: number;
  let order: { idCliente: number; idProduto: number };

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const r = erp.reps[0];
    if (!r) throw new Error('the tiny fixture has no representative');
    idEmpresa = r.idEmpresa;
    order = await orderableClient(db.pool, r);
    hub = createChangeHub({ connectionString: asServerRole(db.url), log: quiet });
    app = testApp(db.pool, {}, { hub });
    rep = await logInAs(app, db.pool, {
      login: 'rep@m.test',
      role: 'representative',
      idEmpresa,
      codVendedor: r.codVendedor,
    });
    sup = await logInAs(app, db.pool, {
      login: 'sup@m.test',
      role: 'supervisor',
      idEmpresa,
      codSupervisor: r.codSupervisor,
    });
  });
  afterAll(() => hub.close());

  const post = (token: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    apiAs(app, token)('POST', path, body, headers);

  it('times requests by route pattern and status, and counts pool acquisitions', async () => {
    const before = await scrape();
    const series = 'campo_http_request_duration_seconds_count{method="GET",route="/api/v1/orders/:id",status="404"}';
    const acquired = value(before, 'campo_db_pool_acquire_seconds_count') ?? 0;
    for (const id of [999_991, 999_992]) {
      const res = await apiAs(app, rep)('GET', `/orders/${id}`);
      expect(res.status).toBe(404);
    }
    const after = await scrape();
    expect(value(after, series)).toBe((value(before, series) ?? 0) + 2);
    // A raw path never becomes a label: one series per pattern.
    expect(after).not.toContain('/api/v1/orders/999991');
    expect(value(after, 'campo_db_pool_acquire_seconds_count')).toBeGreaterThan(acquired);
    expect(value(after, 'campo_db_pool_waiting')).toBe(0);
    expect(value(after, 'campo_db_pool_connections')).toBeGreaterThan(0);
    // The default process metrics come along.
    expect(after).toMatch(/^process_cpu_seconds_total /m);
    expect(after).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  it('counts orders created, refused and approved; the outbox depth and give-ups follow the push', async () => {
    // A device of the supervisor, with keys that cannot encrypt: the push service refuses for good.
    await db.pool.query(
      "insert into app.push_inscricoes (id_empresa, usuario, endpoint, p256dh, auth) values ($1, 'sup@m.test', 'https://127.0.0.1:1/push/x', 'bad', 'bad')",
      [idEmpresa],
    );
    watchOutboxDepth(serverRolePool(db.url));
    const before = await scrape();
    const count = (text: string, outcome: string) => value(text, `campo_orders_total{outcome="${outcome}"}`) ?? 0;

    const line = (descontoPercent: number) => ({
      idCliente: order.idCliente,
      itens: [{ idProduto: order.idProduto, quantidade: 1, descontoPercent }],
    });
    const created = await post(rep, '/orders', line(0), {
      'idempotency-key': randomUUID(),
      'x-request-id': 'order-request-0001',
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const refused = await post(rep, '/orders', line(99), { 'idempotency-key': randomUUID() });
    expect(refused.status).toBe(422);
    const { id } = (await created.json()) as { id: number };

    let after = await scrape();
    expect(count(after, 'created')).toBe(count(before, 'created') + 1);
    expect(count(after, 'refused')).toBe(count(before, 'refused') + 1);
    // The supervisor's notification waits in the outbox, stamped with the order's request.
    expect(value(after, 'campo_push_outbox_depth')).toBe(1);
    const queued = await db.pool.query('select id_requisicao from app.push_outbox');
    expect(queued.rows).toEqual([{ id_requisicao: 'order-request-0001' }]);

    const approved = await post(sup, `/orders/${id}/approve`, {});
    expect(approved.status, await approved.clone().text()).toBe(200);
    after = await scrape();
    expect(count(after, 'approved')).toBe(count(before, 'approved') + 1);

    const warned: Record<string, unknown>[] = [];
    const drainer = createPushDrainer({
      pool: serverRolePool(db.url),
      vapid: { ...generateVapidKeys(), subject: 'mailto:ti@distribuidora.test' },
      log: { ...quiet, warn: (_msg, fields) => warned.push(fields ?? {}) },
    });
    const givenUp = value(after, 'campo_push_given_up_total') ?? 0;
    const drained = await drainer.drainOnce();
    expect(drained.failed).toBeGreaterThanOrEqual(1);
    after = await scrape();
    expect(value(after, 'campo_push_given_up_total')).toBe(givenUp + drained.failed);
    expect(value(after, 'campo_push_outbox_depth')).toBe(0);
    // The worker's line names the request that queued the message.
    expect(warned).toContainEqual(expect.objectContaining({ requestId: 'order-request-0001' }));
  });

  it('counts the open event streams', async () => {
    const base = value(await scrape(), 'campo_sse_streams_open') ?? 0;
    const res = await app.request('/api/v1/sync/stream', { headers: { authorization: `Bearer ${rep}` } });
    const stream = sse(res);
    await stream.until((e) => e.event === 'resync');
    expect(value(await scrape(), 'campo_sse_streams_open')).toBe(base + 1);
    await stream.close();
    // The stream's handler ends once the abort reaches it; poll the gauge with a deadline.
    const deadline = Date.now() + 5000;
    while ((value(await scrape(), 'campo_sse_streams_open') ?? 0) !== base && Date.now() < deadline) {
      await new Promise((r) => setImmediate(r));
    }
    expect(value(await scrape(), 'campo_sse_streams_open')).toBe(base);
  });

  it('times the change-log refresh and reports its lag', async () => {
    const before = await scrape();
    const ok = 'campo_sync_refresh_duration_seconds_count{outcome="ok"}';
    await refreshEveryTenant(createDb(serverRolePool(db.url)), quiet, recordRefresh);
    const after = await scrape();
    expect(value(after, ok)).toBeGreaterThan(value(before, ok) ?? 0);
    const lag = value(after, 'campo_sync_refresh_lag_seconds');
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThan(value(before, 'campo_sync_refresh_lag_seconds') as number);
  });
});
