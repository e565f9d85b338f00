// Scale-out: two server processes on one database, as behind a load balancer. Each has its own
// connection pool, LISTEN hub and push worker; nothing is shared but PostgreSQL. An order
// created through one is approved through the other, the change stream on each hears both
// changes, and every push is delivered exactly once although both workers drain at once.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../server/src/app.ts';
import { generateVapidKeys } from '../server/src/notifications/vapid.ts';
import { createPushDrainer } from '../server/src/notifications/worker.ts';
import { type ChangeHub, createChangeHub } from '../server/src/sync/stream.ts';
import { TEST_JWT_SECRET } from './support/app.ts';
import { postOrder } from './support/builders.ts';
import { orderableClient, provisionedErp } from './support/erp.ts';
import { asServerRole, useTestDatabase } from './support/pg.ts';
import { type LocalPushService, startLocalPushService } from './support/push-service.ts';
import { apiAs, logInAs } from './support/session.ts';
import { sse } from './support/sse.ts';

const db = useTestDatabase();
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const vapid = { ...generateVapidKeys(), subject: 'mailto:ti@distribuidora.test' };

interface Process {
  pool: pg.Pool;
  hub: ChangeHub;
  app: ReturnType<typeof createApp>;
  drain: () => Promise<{ claimed: number }>;
}

function startProcess(url: string, push: LocalPushService): Process {
  const pool = new pg.Pool({ connectionString: asServerRole(url), max: 4 });
  pool.on('error', () => undefined);
  const hub = createChangeHub({ connectionString: asServerRole(url), log: quiet, retryBaseMs: 50 });
  const app = createApp({
    pool,
    hub,
    config: {
      jwtSecret: TEST_JWT_SECRET,
      tokenTtlHours: 1,
      devLogin: false,
      push: { vapid, endpointHosts: ['127.0.0.1'] },
    },
  });
  const drainer = createPushDrainer({ pool, vapid, agent: push.agent, log: quiet });
  return { pool, hub, app, drain: () => drainer.drainOnce() };
}

describe('two server processes on one database', () => {
  let push: LocalPushService;
  let a: Process;
  let b: Process;
  const tokens: Record<'rep' | 'sup', string> = { rep: '', sup: '' };
  let order: { idCliente: number; idProduto: number };

  beforeAll(async () => {
    push = await startLocalPushService();
    const erp = await provisionedErp(db.pool);
    const rep = erp.reps[0];
    if (!rep) throw new Error('no representative in the fixture');
    a = startProcess(db.url, push);
    b = startProcess(db.url, push);
    tokens.rep = await logInAs(a.app, db.pool, {
      login: 'rep@scale.test',
      role: 'representative',
      idEmpresa: rep.idEmpresa,
      codVendedor: rep.codVendedor,
    });
    tokens.sup = await logInAs(b.app, db.pool, {
      login: 'sup@scale.test',
      role: 'supervisor',
      idEmpresa: rep.idEmpresa,
      codSupervisor: rep.codSupervisor,
    });
    order = await orderableClient(db.pool, rep);
  });

  afterAll(async () => {
    for (const p of [a, b]) {
      await p?.hub.close();
      await p?.pool.end();
    }
    await push?.close();
  });

  it('an order created through one is approved through the other; both streams hear it; push goes once', async () => {
    // A phone of each user, registered through different processes.
    const repPhone = push.newDevice(vapid.publicKey);
    const supPhone = push.newDevice(vapid.publicKey);
    expect((await apiAs(b.app, tokens.rep)('POST', '/notifications/subscriptions', repPhone.subscription)).status).toBe(
      201,
    );
    expect((await apiAs(a.app, tokens.sup)('POST', '/notifications/subscriptions', supPhone.subscription)).status).toBe(
      201,
    );
    // The representative listens on process B, the supervisor on process A.
    const stream = async (p: Process, token: string) => {
      const res = await p.app.request('/api/v1/sync/stream', { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      const s = sse(res);
      await s.until((e) => e.event === 'resync');
      return s;
    };
    const repStream = await stream(b, tokens.rep);
    const supStream = await stream(a, tokens.sup);
    const pedidos = (e: { event: string; data: string }) =>
      e.event === 'change' && (JSON.parse(e.data) as { colecao: string }).colecao === 'pedidos';
    try {
      const created = await postOrder(apiAs(a.app, tokens.rep), {
        idCliente: order.idCliente,
        itens: [{ idProduto: order.idProduto, quantidade: 2 }],
      });
      expect(created.status, await created.clone().text()).toBe(201);
      const { id } = (await created.json()) as { id: number };
      await repStream.until(pedidos);
      await supStream.until(pedidos);

      const approved = await apiAs(b.app, tokens.sup)('POST', `/orders/${id}/approve`);
      expect(approved.status, await approved.clone().text()).toBe(200);
      await repStream.until(pedidos);
      await supStream.until(pedidos);
      const erp = await db.pool.query(
        'select count(*)::int as n from pedidos_venda pv join app.pedidos p on p.erp_id_pedido = pv.id_pedido where p.id = $1',
        [id],
      );
      expect(erp.rows[0].n).toBe(1);

      // Both workers drain at the same time, several rounds: each message leaves once.
      for (let round = 0; round < 3; round++) await Promise.all([a.drain(), b.drain(), a.drain(), b.drain()]);
      const to = (endpoint: string) =>
        push.received.filter((r) => r.endpoint === endpoint).map((r) => (r.message as { type: string }).type);
      expect(to(supPhone.endpoint)).toEqual(['order.pending_approval']);
      expect(to(repPhone.endpoint)).toEqual(['order.approved']);
      expect(push.refused).toEqual([]);
    } finally {
      await repStream.close();
      await supStream.close();
    }
  });
});
