// GET /sync/stream against a real PostgreSQL: two hubs on one database stand for two server
// processes; a change committed through one app reaches a stream opened on the other.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { postOrder } from '../../../test/support/builders.ts';
import { orderableClient, provisionedErp } from '../../../test/support/erp.ts';
import { asServerRole, useTestDatabase } from '../../../test/support/pg.ts';
import { apiAs, logInAs } from '../../../test/support/session.ts';
import { type SseEvent, sse } from '../../../test/support/sse.ts';
import { announceCommitted, noticesSent, SYNC_CHANNEL } from '../changelog/notices.ts';
import { createDb } from '../db/kysely.ts';
import { type ChangeHub, createChangeHub, LISTENER_NAME } from './stream.ts';

const db = useTestDatabase();
const quiet = { info: () => undefined, warn: () => undefined };

const changeOf = (colecao: string) => (e: SseEvent) => e.event === 'change' && JSON.parse(e.data).colecao === colecao;
const changes = (events: SseEvent[]) =>
  events.filter((e) => e.event === 'change').map((e) => (JSON.parse(e.data) as { colecao: string }).colecao);

describe('sync change stream', () => {
  let hubA: ChangeHub;
  let hubB: ChangeHub;
  let appA: ReturnType<typeof testApp>;
  let appB: ReturnType<typeof testApp>;
  let t1: number;
  let t2: number;
  const tokens: Record<string, string> = {};
  const clientOf: Record<string, number> = {};
  let produto: Record<string, number>;
  const opened: { close: () => Promise<unknown> }[] = [];

  const open = async (app: ReturnType<typeof testApp>, who: string) => {
    const res = await app.request('/api/v1/sync/stream', { headers: { authorization: `Bearer ${tokens[who]}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    expect(res.headers.get('content-encoding')).toBeNull();
    const stream = sse(res);
    opened.push(stream);
    return stream;
  };

  const order = async (app: ReturnType<typeof testApp>, who: string) => {
    const res = await postOrder(apiAs(app, tokens[who] ?? null), {
      idCliente: clientOf[who] as number,
      itens: [{ idProduto: produto[who] as number, quantidade: 1, descontoPercent: 0 }],
    });
    expect(res.status, await res.clone().text()).toBe(201);
  };

  /** A change no route makes, to close a "nothing else arrived" window. */
  const marker = (idEmpresa: number, colecao: string) =>
    db.pool.query('select pg_notify($1, $2)', [
      SYNC_CHANNEL,
      JSON.stringify({ idEmpresa, colecao, codVendedor: null }),
    ]);

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    [t1, t2] = erp.tenants as [number, number];
    const reps = erp.reps.filter((r) => r.idEmpresa === t1);
    if (!reps[0] || !reps[1]) throw new Error('the tiny fixture lacks two representatives');
    const url = asServerRole(db.url);
    hubA = createChangeHub({ connectionString: url, log: quiet, retryBaseMs: 50 });
    hubB = createChangeHub({ connectionString: url, log: quiet, retryBaseMs: 50 });
    appA = testApp(db.pool, {}, { hub: hubA });
    appB = testApp(db.pool, {}, { hub: hubB });
    const users = {
      rep: { role: 'representative', idEmpresa: t1, codVendedor: reps[0].codVendedor },
      rep2: { role: 'representative', idEmpresa: t1, codVendedor: reps[1].codVendedor },
      manager: { role: 'manager', idEmpresa: t1 },
      foreign: { role: 'admin', idEmpresa: t2 },
    } as const;
    for (const [who, user] of Object.entries(users)) {
      tokens[who] = await logInAs(appA, db.pool, { ...user, login: `${who}@stream.test` });
    }
    produto = {};
    for (const who of ['rep', 'rep2'] as const) {
      const orderable = await orderableClient(db.pool, { idEmpresa: t1, codVendedor: users[who].codVendedor });
      clientOf[who] = orderable.idCliente;
      produto[who] = orderable.idProduto;
    }
  });

  afterAll(async () => {
    for (const s of opened) await s.close();
    await hubA?.close();
    await hubB?.close();
  });

  it('a stream on process B hears resync first, then an order created through process A', async () => {
    const stream = await open(appB, 'rep');
    const first = await stream.until(() => true);
    expect(first.map((e) => e.event)).toEqual(['resync']);
    await order(appA, 'rep');
    // The order, and its client's document, built whole after the order's commit: the client
    // has no logged document yet (no refresh ran). The order's notice goes out after its
    // answer (announceCommitted), so the two may arrive in either order.
    const heard = new Set<string>();
    const events = await stream.until((e) => {
      if (e.event === 'change') heard.add((JSON.parse(e.data) as { colecao: string }).colecao);
      return heard.has('pedidos') && heard.has('clientes');
    });
    expect(changes(events).sort()).toEqual(['clientes', 'pedidos']);
    await stream.close();
  });

  it("a representative does not hear another representative's order, nor another tenant's change", async () => {
    const rep = await open(appB, 'rep');
    const manager = await open(appB, 'manager');
    const foreign = await open(appA, 'foreign');
    for (const s of [rep, manager, foreign]) await s.until((e) => e.event === 'resync');
    await order(appA, 'rep2');
    await marker(t1, 'fim');
    await marker(t2, 'fim');
    // The order, and its client's last order date (collection clientes). The order's notice goes
    // out after its answer (announceCommitted), so it may come after the marker: the manager
    // hears the three in any order.
    const heard = new Set<string>();
    const managerHeard = await manager.until((e) => {
      if (e.event === 'change') heard.add((JSON.parse(e.data) as { colecao: string }).colecao);
      return ['pedidos', 'clientes', 'fim'].every((c) => heard.has(c));
    });
    expect(changes(managerHeard).sort()).toEqual(['clientes', 'fim', 'pedidos']);
    // Everything the order announces is out now; notifications arrive in commit order, so what
    // the others hear up to a second marker is all they would ever hear of it.
    await marker(t1, 'fim2');
    await marker(t2, 'fim2');
    expect(changes(await rep.until(changeOf('fim2')))).toEqual(['fim', 'fim2']);
    expect(changes(await foreign.until(changeOf('fim2')))).toEqual(['fim', 'fim2']);
  });

  it('a catalog refresh that changed something is announced tenant-wide', async () => {
    const rep = await open(appA, 'rep2');
    await rep.until((e) => e.event === 'resync');
    // The tenant's change log is still empty here: the refresh fills it, a change.
    const res = await appA.request('/api/v1/catalog/sync', {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.manager}` },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    await marker(t1, 'fim');
    expect(changes(await rep.until(changeOf('fim')))).toContain('produtos');
  });

  it('the hub reconnects when its LISTEN connection is killed, and the stream goes on', async () => {
    const stream = await open(appB, 'rep');
    await stream.until((e) => e.event === 'resync');
    const killed = await db.pool.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = $1',
      [LISTENER_NAME],
    );
    expect(killed.rowCount).toBeGreaterThan(0);
    // After reconnecting the hub tells its streams to resync (announcements may have been lost).
    await stream.until((e) => e.event === 'resync', 10_000);
    await order(appA, 'rep');
    await stream.until(changeOf('pedidos'), 5000);
  });

  it('announces the changes of orders of the same moment once per collection and representative', async () => {
    const listener = new pg.Client({ connectionString: db.url });
    await listener.connect();
    try {
      const heard: Record<string, unknown>[] = [];
      let markerHeard: () => void = () => undefined;
      const marked = new Promise<void>((resolve) => {
        markerHeard = resolve;
      });
      listener.on('notification', (n) => {
        const payload = JSON.parse(n.payload ?? '{}') as Record<string, unknown>;
        if (payload.colecao === 'marcador') markerHeard();
        else heard.push(payload);
      });
      await listener.query(`listen ${SYNC_CHANNEL}`);
      const appDb = createDb(db.pool);
      for (const requestId of ['r1', 'r2', 'r3']) {
        announceCommitted(appDb, { idEmpresa: t1, colecao: 'pedidos', codVendedor: 7, requestId });
        announceCommitted(appDb, { idEmpresa: t1, colecao: 'clientes', codVendedor: 7, requestId });
      }
      announceCommitted(appDb, { idEmpresa: t1, colecao: 'pedidos', codVendedor: 8, requestId: 'r4' });
      await noticesSent(db.pool);
      // Notifications arrive in commit order: once the marker is heard, the notices were.
      await marker(t1, 'marcador');
      await marked;
      expect(heard).toEqual([
        { idEmpresa: t1, colecao: 'pedidos', codVendedor: 7, requestId: 'r1', requests: 3 },
        { idEmpresa: t1, colecao: 'clientes', codVendedor: 7, requestId: 'r1', requests: 3 },
        { idEmpresa: t1, colecao: 'pedidos', codVendedor: 8, requestId: 'r4' },
      ]);
    } finally {
      await listener.end();
    }
  });

  it('sends heartbeats, and answers 503 without a hub and 401 without a token', async () => {
    const hb = testApp(db.pool, { syncHeartbeatMs: 50 }, { hub: hubA });
    const res = await hb.request('/api/v1/sync/stream', { headers: { authorization: `Bearer ${tokens.rep}` } });
    const stream = sse(res);
    opened.push(stream);
    const events = await stream.until((e) => e.event === 'heartbeat', 3000);
    expect(events.some((e) => e.event === 'heartbeat')).toBe(true);
    await stream.close();

    const noHub = testApp(db.pool);
    const disabled = await noHub.request('/api/v1/sync/stream', { headers: { authorization: `Bearer ${tokens.rep}` } });
    expect(disabled.status).toBe(503);
    expect(((await disabled.json()) as { code: string }).code).toBe('SYNC_STREAM_DISABLED');
    expect((await appA.request('/api/v1/sync/stream')).status).toBe(401);
  });
});
