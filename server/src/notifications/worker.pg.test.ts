// The push outbox and its worker against a real LATIN1 PostgreSQL and a local push service
// that checks VAPID and decrypts every message with the device's own keys. Messages are
// enqueued the way the order service does (inside a tenant-scoped transaction, as the
// server's role) and drained by the worker on the server's role too, so row-level security
// binds both. Assertions are on what the push service decrypted.
import { createECDH } from 'node:crypto';
import type { PushMessage } from '@campo/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { type ErpPeople, provisionedErp } from '../../../test/support/erp.ts';
import { serverRolePool, useTestDatabase } from '../../../test/support/pg.ts';
import { type LocalPushService, type PushDevice, startLocalPushService } from '../../../test/support/push-service.ts';
import { apiAs, logInAs } from '../../../test/support/session.ts';
import { createDb, type Db } from '../db/kysely.ts';
import { type Tx, withScope } from '../db/scope.ts';
import { notifyOrderDecided, notifyOrderPendingApproval, type OrderForPush } from './order-events.ts';
import { type EnqueuePushInput, enqueuePush, type PushNotification } from './outbox.ts';
import { insertOutbox } from './queries.ts';
import { generateVapidKeys } from './vapid.ts';
import { createPushDrainer, type PushDrainOptions } from './worker.ts';

const db = useTestDatabase();
const quiet = { info() {}, warn() {}, error() {} };

interface OutboxState {
  id: number;
  usuario: string;
  tentativas: number;
  entregas: number;
  proxima_tentativa_em: Date;
  enviado_em: Date | null;
  falhou_em: Date | null;
  ultimo_erro: string | null;
  payload: Buffer;
  endpoints_pendentes: string[] | null;
}

describe('push outbox and worker', () => {
  const vapid = { ...generateVapidKeys(), subject: 'mailto:ti@distribuidora.test' };
  let push: LocalPushService;
  let app: ReturnType<typeof testApp>;
  let serverDb: Db;
  let erp: ErpPeople;
  let t1: number;
  let t2: number;
  let repA: ErpPeople['reps'][number];
  let repB: ErpPeople['reps'][number];
  const tokens = new Map<string, string>();

  const L = {
    rep: 'rep@push.test',
    supervisor: 'sup@push.test',
    otherSupervisor: 'sup2@push.test',
    manager: 'ger@push.test',
    admin: 'adm@push.test',
    repB: 'repb@push.test',
    foreign: 'rep@outra-push.test',
  };

  /** A new device of the login, registered through the API as the app does. */
  async function device(login: string): Promise<PushDevice> {
    const d = push.newDevice(vapid.publicKey);
    const token = tokens.get(login);
    if (!token) throw new Error(`no session for ${login}`);
    const res = await apiAs(app, token)('POST', '/notifications/subscriptions', d.subscription);
    expect(res.status).toBe(201);
    return d;
  }

  const drainer = (options: Partial<PushDrainOptions> = {}) =>
    createPushDrainer({ pool: serverRolePool(db.url), vapid, agent: push.agent, log: quiet, ...options });

  /** Enqueues in a tenant-scoped transaction, as the order service does. */
  const inTenant = <T>(idEmpresa: number, fn: (tx: Tx) => Promise<T>) =>
    withScope(serverDb, { idEmpresa, codVendedor: null }, fn);

  const enqueue = (input: EnqueuePushInput) => inTenant(input.idEmpresa, (tx) => enqueuePush(tx, input));

  const outbox = async (id: number): Promise<OutboxState> => {
    const { rows } = await db.pool.query<OutboxState>('select * from app.push_outbox where id = $1', [id]);
    if (!rows[0]) throw new Error(`outbox row ${id} is gone`);
    return rows[0];
  };

  /** The passage of time: the row's retry becomes due now. */
  const makeDue = (id: number) =>
    db.pool.query('update app.push_outbox set proxima_tentativa_em = now() where id = $1', [id]);

  const messagesTo = (d: PushDevice) => push.received.filter((r) => r.endpoint === d.endpoint).map((r) => r.message);

  const notification = (over: Partial<PushNotification> = {}): PushNotification => ({
    type: 'order.approved',
    title: 'Pedido 123 aprovado',
    body: 'Mercearia São João · R$ 1.234,56',
    url: '/pedidos/123',
    tag: 'pedido-123',
    orderId: 123,
    ...over,
  });

  beforeAll(async () => {
    push = await startLocalPushService();
    erp = await provisionedErp(db.pool);
    [t1, t2] = erp.tenants as [number, number];
    const inT1 = erp.reps.filter((r) => r.idEmpresa === t1);
    repA = inT1[0] as typeof repA;
    repB = inT1.find((r) => r.codSupervisor !== repA.codSupervisor) as typeof repB;
    const foreignRep = erp.reps.find((r) => r.idEmpresa === t2);
    if (!repA || !repB || !foreignRep) throw new Error('the tiny fixture lacks two teams and two tenants');
    app = testApp(db.pool, { push: { vapid, endpointHosts: ['127.0.0.1'] } });
    serverDb = createDb(serverRolePool(db.url));
    const users = [
      { login: L.rep, role: 'representative', idEmpresa: t1, codVendedor: repA.codVendedor },
      { login: L.repB, role: 'representative', idEmpresa: t1, codVendedor: repB.codVendedor },
      { login: L.supervisor, role: 'supervisor', idEmpresa: t1, codSupervisor: repA.codSupervisor },
      { login: L.otherSupervisor, role: 'supervisor', idEmpresa: t1, codSupervisor: repB.codSupervisor },
      { login: L.manager, role: 'manager', idEmpresa: t1 },
      { login: L.admin, role: 'admin', idEmpresa: t1 },
      { login: L.foreign, role: 'representative', idEmpresa: t2, codVendedor: foreignRep.codVendedor },
    ] as const;
    for (const u of users) tokens.set(u.login, await logInAs(app, db.pool, u));
  });

  afterAll(async () => {
    await push?.close();
  });

  beforeEach(async () => {
    // Each test starts with nothing queued or registered, and a push service with no history.
    await db.pool.query('delete from app.push_outbox; delete from app.push_inscricoes');
    push.received.length = 0;
    push.refused.length = 0;
    push.requests.length = 0;
    push.clearFailures();
    push.setDelay(0);
  });

  it('delivers an enqueued message: VAPID verifies and the decrypted JSON is what was enqueued', async () => {
    const phone = await device(L.rep);
    const before = Date.now();
    const enqueued = await enqueue({
      idEmpresa: t1,
      to: { logins: [L.rep] },
      notification: notification(),
      urgency: 'high',
      ttlSeconds: 3600,
    });
    expect(enqueued.logins).toEqual([L.rep]);

    const result = await drainer().drainOnce();
    expect(result).toMatchObject({ claimed: 1, sent: 1, deliveries: 1, retried: 0, failed: 0 });
    expect(push.refused).toEqual([]);
    expect(push.received).toHaveLength(1);
    const got = push.received[0];
    expect(got?.endpoint).toBe(phone.endpoint);
    expect(got?.message).toEqual({
      type: 'order.approved',
      title: 'Pedido 123 aprovado',
      body: 'Mercearia São João · R$ 1.234,56',
      url: '/pedidos/123',
      tag: 'pedido-123',
      orderId: 123,
      createdAt: expect.any(String),
    });
    const createdAt = Date.parse((got?.message as PushMessage | undefined)?.createdAt ?? '');
    expect(createdAt).toBeGreaterThanOrEqual(before - 1000);
    expect(createdAt).toBeLessThanOrEqual(Date.now());
    expect(got?.vapid.sub).toBe(vapid.subject);
    expect(got?.vapid.aud).toBe(push.origin);
    expect(got?.urgency).toBe('high');
    expect(got?.topic).toBe('pedido-123');
    expect(got?.ttl).toBeGreaterThan(3590);
    expect(got?.ttl).toBeLessThanOrEqual(3600);

    const row = await outbox(enqueued.ids[0] as number);
    expect(row).toMatchObject({ tentativas: 1, entregas: 1, falhou_em: null, ultimo_erro: null });
    expect(row.enviado_em).toBeInstanceOf(Date);
    expect(JSON.parse(row.payload.toString('utf8'))).toEqual(got?.message);
    // Sent is sent: another drain finds nothing.
    expect((await drainer().drainOnce()).claimed).toBe(0);
  });

  it('keeps text LATIN1 cannot hold (emoji, long dash) byte for byte', async () => {
    await device(L.rep);
    const body = 'Cliente “Açaí & Cia” — motivo: preço acima da alçada 😕';
    await enqueue({ idEmpresa: t1, to: { logins: [L.rep] }, notification: notification({ body }) });
    await drainer().drainOnce();
    expect((push.received[0]?.message as PushMessage | undefined)?.body).toBe(body);
  });

  it('sends to every device of the recipient, and to nobody else', async () => {
    const [phone, tablet, other] = [await device(L.rep), await device(L.rep), await device(L.manager)];
    await enqueue({ idEmpresa: t1, to: { logins: [L.rep] }, notification: notification() });
    expect(await drainer().drainOnce()).toMatchObject({ claimed: 1, sent: 1, deliveries: 2 });
    expect(messagesTo(phone)).toHaveLength(1);
    expect(messagesTo(tablet)).toHaveLength(1);
    expect(messagesTo(other)).toHaveLength(0);
  });

  it('writes no row for a recipient without a device, and none at all for another tenant', async () => {
    await device(L.foreign);
    const none = await enqueue({ idEmpresa: t1, to: { logins: [L.rep, L.foreign] }, notification: notification() });
    expect(none).toEqual({ logins: [], ids: [] });
    // From a transaction of t1, t2's devices are invisible (row-level security), so nothing
    // is written for them; and the outbox itself refuses a row of another tenant.
    expect(
      await inTenant(t1, (tx) =>
        enqueuePush(tx, { idEmpresa: t2, to: { logins: [L.foreign] }, notification: notification() }),
      ),
    ).toEqual({ logins: [], ids: [] });
    await expect(
      inTenant(t1, (tx) =>
        insertOutbox(tx, [
          { idEmpresa: t2, login: L.foreign, payload: Buffer.from('{}'), topic: null, urgency: 'normal', ttl: 60 },
        ]),
      ),
    ).rejects.toThrow(/row-level security/);
    expect((await db.pool.query('select count(*)::int as n from app.push_outbox')).rows[0].n).toBe(0);
  });

  it('rolls back with the transaction that enqueued it', async () => {
    await device(L.rep);
    await expect(
      inTenant(t1, async (tx) => {
        await enqueuePush(tx, { idEmpresa: t1, to: { logins: [L.rep] }, notification: notification() });
        throw new Error('the order failed');
      }),
    ).rejects.toThrow('the order failed');
    expect((await db.pool.query('select count(*)::int as n from app.push_outbox')).rows[0].n).toBe(0);
  });

  describe('the order events', () => {
    const order = (): OrderForPush => ({
      idEmpresa: t1,
      id: 4321,
      numPedSar: 77,
      codVendedor: repA.codVendedor,
      nomeCliente: 'Padaria Pão de Mel',
      valorTotal: 1234.5,
    });

    it("a new pending order goes to the representative's supervisors and the managers", async () => {
      const d = {
        supervisor: await device(L.supervisor),
        otherSupervisor: await device(L.otherSupervisor),
        manager: await device(L.manager),
        admin: await device(L.admin),
        rep: await device(L.rep),
      };
      const queued = await inTenant(t1, (tx) => notifyOrderPendingApproval(tx, order()));
      expect([...queued.logins].sort()).toEqual([L.manager, L.supervisor].sort());
      await drainer().drainOnce();
      const { rows } = await db.pool.query<{ nome: string }>(
        'select nome from app.vw_vendedores where id_empresa = $1 and cod_vendedor = $2 order by id_filial limit 1',
        [t1, repA.codVendedor],
      );
      const expected = {
        type: 'order.pending_approval',
        title: 'Pedido 77 aguarda aprovação',
        body: `${rows[0]?.nome} · Padaria Pão de Mel · R$\u00a01.234,50`,
        url: '/pedidos/4321',
        tag: 'pedido-4321',
        orderId: 4321,
        createdAt: expect.any(String),
      };
      expect(messagesTo(d.supervisor)).toEqual([expected]);
      expect(messagesTo(d.manager)).toEqual([expected]);
      expect(messagesTo(d.otherSupervisor)).toEqual([]);
      expect(messagesTo(d.admin)).toEqual([]);
      expect(messagesTo(d.rep)).toEqual([]);
    });

    it('approval and rejection go to the representative alone', async () => {
      const rep = await device(L.rep);
      const supervisor = await device(L.supervisor);
      await inTenant(t1, (tx) => notifyOrderDecided(tx, order(), { status: 'approved' }));
      await inTenant(t1, (tx) =>
        notifyOrderDecided(tx, order(), { status: 'rejected', reason: 'Preço fora da política' }),
      );
      // Two rows for the same device in one batch: both are delivered, in order.
      await drainer().drainOnce();
      expect(messagesTo(rep)).toEqual([
        expect.objectContaining({ type: 'order.approved', title: 'Pedido 77 aprovado', url: '/pedidos/4321' }),
        expect.objectContaining({
          type: 'order.rejected',
          title: 'Pedido 77 rejeitado',
          body: 'Padaria Pão de Mel · Motivo: Preço fora da política',
        }),
      ]);
      expect(messagesTo(supervisor)).toEqual([]);
    });
  });

  it('forgets a device its push service says is gone (410), and one it does not know (404)', async () => {
    const gone = await device(L.rep);
    const unknown = await device(L.rep);
    const alive = await device(L.rep);
    push.unsubscribe(gone.endpoint);
    push.failWith(unknown.endpoint, 404);
    const { ids } = await enqueue({ idEmpresa: t1, to: { logins: [L.rep] }, notification: notification() });
    expect(await drainer().drainOnce()).toMatchObject({ sent: 1, deliveries: 1, removedDevices: 2 });
    const { rows } = await db.pool.query<{ endpoint: string }>('select endpoint from app.push_inscricoes');
    expect(rows.map((r) => r.endpoint)).toEqual([alive.endpoint]);
    const row = await outbox(ids[0] as number);
    expect(row.enviado_em).toBeInstanceOf(Date);
    expect(row.ultimo_erro).toMatch(/HTTP 410/);
    expect(row.ultimo_erro).toMatch(/HTTP 404/);
  });

  it.each([429, 500, 503] as const)(
    'retries %i later with backoff, then delivers when the service recovers',
    async (status) => {
      const phone = await device(L.rep);
      push.failWith(phone.endpoint, status, 1);
      const { ids } = await enqueue({ idEmpresa: t1, to: { logins: [L.rep] }, notification: notification() });
      const id = ids[0] as number;
      const start = Date.now();
      expect(await drainer({ retryBaseMs: 30_000 }).drainOnce()).toMatchObject({ retried: 1, deliveries: 0 });
      const waiting = await outbox(id);
      expect(waiting.tentativas).toBe(1);
      expect(waiting.enviado_em).toBeNull();
      expect(waiting.ultimo_erro).toMatch(new RegExp(`HTTP ${status}`));
      // 30 s ± 20 % jitter for the first retry.
      const delay = waiting.proxima_tentativa_em.getTime() - start;
      expect(delay).toBeGreaterThanOrEqual(24_000 - 1000);
      expect(delay).toBeLessThanOrEqual(36_000 + 1000);
      expect(push.received).toEqual([]);
      // Not due yet: another drain leaves it alone.
      expect((await drainer().drainOnce()).claimed).toBe(0);

      await makeDue(id);
      expect(await drainer().drainOnce()).toMatchObject({ sent: 1, deliveries: 1 });
      const done = await outbox(id);
      expect(done).toMatchObject({ tentativas: 2, entregas: 1 });
      expect(done.enviado_em).toBeInstanceOf(Date);
      expect(messagesTo(phone)).toHaveLength(1);
    },
  );

  it("waits at least what a 429's Retry-After asks", async () => {
    const phone = await device(L.rep);
    push.failWith(phone.endpoint, 429, 1, { 'retry-after': '600' });
    const { ids } = await enqueue({ idEmpresa: t1, to: { logins: [L.rep] }, notification: notification() });
    const start = Date.now();
    await drainer({ retryBaseMs: 1000 }).drainOnce();
    const delay = (await outbox(ids[0] as number)).proxima_tentativa_em.getTime() - start;
    expect(delay).toBeGreaterThanOrEqual(600_000 - 1000);
  });

  it('on a retry, sends only to the devices that did not get it yet', async () => {
    const phone = await device(L.rep);
    const tablet = await device(L.rep);
    push.failWith(tablet.endpoint, 500, 1);
    const { ids } = await enqueue({ idEmpresa: t1, to: { logins: [L.rep] }, notification: notification() });
    const id = ids[0] as number;
    expect(await drainer().drainOnce()).toMatchObject({ retried: 1, deliveries: 1 });
    expect((await outbox(id)).endpoints_pendentes).toEqual([tablet.endpoint]);
    await makeDue(id);
    await drainer().drainOnce();
    expect(messagesTo(phone)).toHaveLength(1);
    expect(messagesTo(tablet)).toHaveLength(1);
    expect(await outbox(id)).toMatchObject({ entregas: 2, tentativas: 2 });
  });

  it('gives up after the last attempt, keeping the error', async () => {
    const phone = await device(L.rep);
    push.failWith(phone.endpoint, 500);
    const { ids } = await enqueue({ idEmpresa: t1, to: { logins: [L.rep] }, notification: notification() });
    const id = ids[0] as number;
    const worker = drainer({ maxAttempts: 3 });
    for (let attempt = 1; attempt <= 3; attempt++) {
      await makeDue(id);
      await worker.drainOnce();
    }
    const row = await outbox(id);
    expect(row.tentativas).toBe(3);
    expect(row.falhou_em).toBeInstanceOf(Date);
    expect(row.enviado_em).toBeNull();
    expect(row.ultimo_erro).toMatch(/gave up after 3 attempts: HTTP 500/);
    await makeDue(id);
    expect((await worker.drainOnce()).claimed).toBe(0);
    expect(push.requests.filter((r) => r.endpoint === phone.endpoint)).toHaveLength(3);
  });

  it('does not send a message whose TTL ran out', async () => {
    await device(L.rep);
    const { ids } = await enqueue({
      idEmpresa: t1,
      to: { logins: [L.rep] },
      notification: notification(),
      ttlSeconds: 60,
    });
    await db.pool.query("update app.push_outbox set criado_em = now() - interval '2 minutes' where id = $1", [ids[0]]);
    expect(await drainer().drainOnce()).toMatchObject({ failed: 1, deliveries: 0 });
    expect((await outbox(ids[0] as number)).ultimo_erro).toMatch(/expired/);
    expect(push.requests).toEqual([]);
  });

  it('gives up at once when the push service refuses the VAPID signature (403)', async () => {
    // The device subscribed with another server's key: the push service answers 403 and the
    // message is given up at once (sending the same request again cannot succeed).
    const stranger = createECDH('prime256v1');
    stranger.generateKeys();
    const d = push.newDevice(stranger.getPublicKey().toString('base64url'));
    const res = await apiAs(app, tokens.get(L.rep) ?? '')('POST', '/notifications/subscriptions', d.subscription);
    expect(res.status).toBe(201);
    const { ids } = await enqueue({ idEmpresa: t1, to: { logins: [L.rep] }, notification: notification() });
    expect(await drainer().drainOnce()).toMatchObject({ failed: 1 });
    expect(push.refused.map((r) => r.status)).toEqual([403]);
    expect((await outbox(ids[0] as number)).ultimo_erro).toMatch(/HTTP 403/);
  });

  it('leaves the outbox alone while push is disabled', async () => {
    await device(L.rep);
    const { ids } = await enqueue({ idEmpresa: t1, to: { logins: [L.rep] }, notification: notification() });
    expect(await drainer({ vapid: null }).drainOnce()).toMatchObject({ claimed: 0 });
    expect((await outbox(ids[0] as number)).tentativas).toBe(0);
    expect(push.requests).toEqual([]);
  });

  it('delivers each message exactly once with two workers draining at the same time, across tenants', async () => {
    const phones = [await device(L.rep), await device(L.manager), await device(L.foreign)];
    const total = 36;
    for (let i = 0; i < total; i++) {
      const to = [L.rep, L.manager, L.foreign][i % 3] as string;
      await enqueue({
        idEmpresa: to === L.foreign ? t2 : t1,
        to: { logins: [to] },
        notification: notification({ tag: `msg-${i}`, title: `Mensagem ${i}` }),
      });
    }
    // Slow answers keep each worker's batch locked long enough for the other to skip it.
    push.setDelay(25);
    const drain = async () => {
      const worker = drainer({ batchSize: 4 });
      let claimed = 0;
      for (let r = await worker.drainOnce(); r.claimed > 0; r = await worker.drainOnce()) claimed += r.claimed;
      return claimed;
    };
    const [a, b] = await Promise.all([drain(), drain()]);
    expect(a + b).toBe(total);
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(0);
    const tags = push.received.map((r) => (r.message as PushMessage).tag);
    expect(tags).toHaveLength(total);
    expect(new Set(tags).size).toBe(total);
    for (const [i, phone] of phones.entries()) {
      expect(
        messagesTo(phone)
          .map((m) => (m as PushMessage).tag)
          .sort(),
      ).toEqual(Array.from({ length: total / 3 }, (_, k) => `msg-${k * 3 + i}`).sort());
    }
    const pending = await db.pool.query('select count(*)::int as n from app.push_outbox where enviado_em is null');
    expect(pending.rows[0].n).toBe(0);
  });
});
