// A representative's device writing offline: orders through the outbox, the funnel and
// tickets, pushed to a real server over HTTP on a real LATIN1 PostgreSQL. What the server holds
// is read from app tables by this test; the device is the real client store on fake-indexeddb.
import type { SyncOpportunity, SyncOrder, SyncTicket } from '@campo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../../client/src/db/index.ts';
import { ordersOf } from '../support/builders.ts';
import { orderableClient, provisionedErp } from '../support/erp.ts';
import { useTestDatabase } from '../support/pg.ts';
import {
  type Device,
  eventually,
  openDevice,
  openWorkerDevice,
  servedApp,
  type WorkerDevice,
} from '../support/replication.ts';
import { logInAs } from '../support/session.ts';

const db = useTestDatabase();

describe('client replication: push', () => {
  let served: Awaited<ReturnType<typeof servedApp>>;
  let t1: number;
  let rep: number;
  let token: string;
  let idCliente: number;
  let idProduto: number;
  let device: Device;
  let lostAnswers = 0;
  /** An order the server holds, for tickets to be about. */
  let idPedido: number;
  const user = () => ({ id: 1, idEmpresa: t1, role: 'representative' as const });

  const ordersOfRep = () => ordersOf(db.pool, t1, rep);
  const entry = async (id: string): Promise<OutboxEntry | undefined> =>
    (await device.outbox?.listOutbox())?.find((e) => e.id === id);
  const settled = (id: string, state: OutboxEntry['state']) =>
    eventually(`order ${id} to be ${state}`, async () => {
      const e = await entry(id);
      return e?.state === state ? e : undefined;
    }).catch(async (err: Error) => {
      // Say what the device saw: the order as it stands and the replication's error.
      const seen = {
        entry: await entry(id),
        doc: (await device.db.collections.pedidos?.findOne(id).exec())?.toJSON(),
        sync: device.replication.syncState.get().collections.pedidos,
      };
      throw new Error(`${err.message}; ${JSON.stringify(seen)}`);
    });

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    [t1] = erp.tenants as [number];
    const first = erp.reps.find((r) => r.idEmpresa === t1);
    if (!first) throw new Error('no representative in the fixture');
    rep = first.codVendedor;
    ({ idCliente, idProduto } = await orderableClient(db.pool, { idEmpresa: t1, codVendedor: rep }));
    served = await servedApp(db);
    token = await logInAs(served.app, db.pool, {
      login: 'rep@push.test',
      role: 'representative',
      idEmpresa: t1,
      codVendedor: rep,
    });
    // Loses the answer of the push whose body holds a marked order: the server did the work,
    // the device never hears of it.
    const losing: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (String(input).endsWith('/pedidos/push') && String(init?.body).includes('"observacao":"perder resposta"')) {
        if (lostAnswers++ === 0) {
          await res.body?.cancel();
          throw new TypeError('fetch failed');
        }
      }
      return res;
    };
    device = await openDevice({ user: user(), baseUrl: served.server.url, token, fetch: losing });
    await device.replication.awaitInitialSync();
  });

  afterAll(async () => {
    await device?.close();
    await served?.close();
  });

  const draft = (descontoPercent = 0, observacao?: string) => ({
    idCliente,
    itens: [{ idProduto, quantidade: 2, descontoPercent }],
    ...(observacao ? { observacao } : {}),
  });

  it('an order queued while the server is down waits in the outbox and is created once it is back', async () => {
    const before = await ordersOfRep();
    await served.server.stop();
    const id = await device.outbox?.queueOrder(draft(0, 'pedido offline'));
    if (!id) throw new Error('no outbox');
    await eventually('the device to notice it is offline', () => device.replication.syncState.get().online === false);
    expect(device.replication.syncState.get().error?.message).toBe('Sem conexão com o servidor.');
    expect((await entry(id))?.state).toBe('queued');
    expect(await ordersOfRep()).toBe(before);

    await served.server.start();
    const accepted = await settled(id, 'accepted');
    expect(accepted.status).toBe('pending_approval');
    expect(accepted.order?.idCliente).toBe(idCliente);
    idPedido = accepted.order?.id as number;
    expect(await ordersOfRep()).toBe(before + 1);
  });

  it('a refused order comes back with its reason, is fixed and resent under the same id, and is accepted', async () => {
    const before = await ordersOfRep();
    const id = (await device.outbox?.queueOrder(draft(95))) as string;
    const refused = await settled(id, 'refused');
    expect(refused.reasons.map((r) => r.code)).toContain('DISCOUNT_ABOVE_CEILING');
    const reason = refused.reasons.find((r) => r.code === 'DISCOUNT_ABOVE_CEILING');
    expect(reason?.message).toMatch(/\S/);
    expect(reason?.line).toBe(1);
    expect(await ordersOfRep()).toBe(before);

    await device.outbox?.resend(id, draft(0));
    const accepted = await settled(id, 'accepted');
    expect(accepted.status).toBe('pending_approval');
    expect(accepted.reasons).toEqual([]);
    expect(await ordersOfRep()).toBe(before + 1);
  });

  it('a refused order can be discarded: it leaves the device and the server holds no order for it', async () => {
    const before = await ordersOfRep();
    const id = (await device.outbox?.queueOrder(draft(96))) as string;
    await settled(id, 'refused');
    await device.outbox?.discard(id);
    await device.replication.syncNow();
    expect(await entry(id)).toBeUndefined();
    // Pulling again does not bring it back.
    await device.replication.syncNow();
    expect(await entry(id)).toBeUndefined();
    expect(await ordersOfRep()).toBe(before);
  });

  it('a push whose answer is lost is retried and creates exactly one order', async () => {
    const before = await ordersOfRep();
    const id = (await device.outbox?.queueOrder(draft(0, 'perder resposta'))) as string;
    const accepted = await settled(id, 'accepted');
    expect(lostAnswers).toBeGreaterThanOrEqual(2);
    expect(accepted.status).toBe('pending_approval');
    expect(await ordersOfRep()).toBe(before + 1);
    const key = await db.pool.query('select id_pedido from app.chaves_idempotencia where chave = $1', [id]);
    expect(key.rows).toHaveLength(1);
  });

  it('funnel and ticket changes made offline reach the server', async () => {
    const outbox = device.outbox;
    if (!outbox) throw new Error('no outbox');
    await served.server.stop();
    const opp = await outbox.createOpportunity({ idCliente, valor: 1200 });
    await outbox.moveOpportunity(opp, 'negociacao');
    const ticket = await outbox.createTicket({
      idPedido,
      assunto: 'Troca 🔁',
      mensagem: 'Veio avariado 📦',
      autorNome: 'Rep',
    });
    await outbox.replyTicket(ticket, 'Foto em anexo', 'Rep');
    expect((await outbox.listOutbox()).length).toBeGreaterThan(0);
    await served.server.start();
    await device.replication.syncNow();
    const saved = await db.pool.query<{ estagio: string }>(
      'select estagio from app.oportunidades where id::text = $1',
      [opp],
    );
    expect(saved.rows[0]?.estagio).toBe('negociacao');
    // The server's answer gives the ticket its server id; the thread keeps the emoji as typed.
    const held = await eventually('the ticket to be held by the server', async () => {
      const t = (await device.db.collections.chamados?.findOne(ticket).exec())?.toJSON();
      return t?.idChamado ? t : undefined;
    });
    expect(held.mensagens.map((m) => m.texto)).toEqual(['Veio avariado 📦', 'Foto em anexo']);
    const messages = await db.pool.query('select 1 from app.chamado_mensagens where id_chamado = $1', [held.idChamado]);
    expect(messages.rows).toHaveLength(2);
  });

  describe('two devices of one representative', () => {
    let other: WorkerDevice;
    beforeAll(async () => {
      // The second phone runs in a worker thread: 14 collections would not open in one realm.
      other = await openWorkerDevice({ user: user(), baseUrl: served.server.url, token });
      await other.call('awaitInitialSync');
    });
    afterAll(async () => other?.close());

    it('converge: orders, opportunities and ticket replies made on one appear on the other', async () => {
      const outbox = device.outbox;
      if (!outbox) throw new Error('no outbox');
      const orderId = await outbox.queueOrder(draft(0, 'do primeiro aparelho'));
      await settled(orderId, 'accepted');
      const fromOther = await other.call<string>('createOpportunity', { input: { nomeProspect: 'Mercado Bom Preço' } });
      const ticket = await outbox.createTicket({
        idPedido,
        assunto: 'Atraso',
        mensagem: 'Não chegou',
        autorNome: 'Rep',
      });
      await device.replication.syncNow();

      await eventually('the order on the second device', async () => {
        const docs = await other.call<SyncOrder[]>('docs', { collection: 'pedidos' });
        return docs.find((d) => d.id === orderId)?.status === 'pending_approval';
      });
      await eventually(
        'the opportunity on the first device',
        async () =>
          (await device.db.collections.funil?.findOne(fromOther).exec())?.nomeProspect === 'Mercado Bom Preço',
      );
      await eventually('the ticket on the second device', async () => {
        const docs = await other.call<SyncTicket[]>('docs', { collection: 'chamados' });
        return docs.some((d) => d.id === ticket);
      });
      await other.call('replyTicket', { id: ticket, texto: 'Pode verificar?', autorNome: 'Rep' });
      await eventually('the reply on the first device', async () => {
        const t = await device.db.collections.chamados?.findOne(ticket).exec();
        return t?.mensagens.map((m) => m.texto).join('|') === 'Não chegou|Pode verificar?';
      });

      // Both end with the same documents.
      await other.call('syncNow');
      await device.replication.syncNow();
      for (const collection of ['pedidos', 'funil', 'chamados'] as const) {
        const mine = (await device.db.collections[collection]?.find().exec())?.map((d) => d.id).sort();
        const theirs = (await other.call<(SyncOrder | SyncOpportunity | SyncTicket)[]>('docs', { collection }))
          .map((d) => d.id)
          .sort();
        expect(theirs, collection).toEqual(mine);
      }
    });
  });
});
