// The outbox as the screens see it: the state mapping (pure), and the local writes on a real
// RxDB store (Dexie over fake-indexeddb), without a server.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { filter, firstValueFrom, Subject } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CampoDatabase, openCampoDb, wipe } from './database.ts';
import { createOutbox, type Outbox, OutboxError, outboxEntries, outboxStateOf } from './outbox.ts';
import type { OrderDoc } from './schemas.ts';

const order = (id: string, status: OrderDoc['status'], queuedAt: string | null = '2026-01-01T10:00:00.000Z') =>
  ({ id, status, draft: null, order: null, reasons: [], queuedAt, updatedAt: queuedAt ?? '2026-01-01' }) as OrderDoc;

describe('outbox state', () => {
  it('maps order status and in-flight pushes to queued, sent, accepted, refused', () => {
    const none = new Set<string>();
    expect(outboxStateOf(order('a', 'queued'), none)).toBe('queued');
    expect(outboxStateOf(order('a', 'queued'), new Set(['a']))).toBe('sent');
    expect(outboxStateOf(order('a', 'queued'), new Set(['b']))).toBe('queued');
    expect(outboxStateOf(order('a', 'refused'), new Set(['a']))).toBe('refused');
    for (const status of ['pending_approval', 'approved', 'invoiced', 'rejected'] as const) {
      expect(outboxStateOf(order('a', status), none), status).toBe('accepted');
    }
  });

  it('lists orders newest first, dating those the server holds by their creation there', () => {
    const entries = outboxEntries(
      [
        order('old', 'pending_approval', '2026-01-01T08:00:00.000Z'),
        { ...order('online', 'approved', null), order: { criadoEm: '2026-01-01T09:00:00.000Z' } } as OrderDoc,
        order('new', 'queued', '2026-01-02T08:00:00.000Z'),
        order('mid', 'refused', '2026-01-01T12:00:00.000Z'),
      ],
      new Set(['new']),
    );
    expect(entries.map((e) => [e.id, e.state])).toEqual([
      ['new', 'sent'],
      ['mid', 'refused'],
      ['online', 'accepted'],
      ['old', 'accepted'],
    ]);
  });
});

describe('outbox on a local store', () => {
  let db: CampoDatabase;
  let outbox: Outbox;
  const inFlight = new Subject<ReadonlySet<string>>();
  const user = { id: 7, idEmpresa: 1, role: 'representative' as const };
  const indexedDb = { indexedDB: new IDBFactory(), IDBKeyRange };
  const draft = { idCliente: 10, itens: [{ idProduto: 5, quantidade: 2, descontoPercent: 3 }] };

  beforeAll(async () => {
    db = await openCampoDb({ user, indexedDb, multiInstance: false });
    outbox = createOutbox(db, { inFlight$: inFlight });
  });

  afterAll(async () => {
    outbox?.close();
    await db?.close();
  });

  it('queues an order as the document the server expects, under a fresh UUID', async () => {
    const id = await outbox.queueOrder(draft);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const doc = (await db.collections.pedidos?.findOne(id).exec())?.toJSON();
    expect(doc).toMatchObject({ id, status: 'queued', draft, order: null, reasons: [] });
    expect(doc?.queuedAt).toBe(doc?.updatedAt);
    expect(await outbox.listOutbox()).toMatchObject([{ id, state: 'queued' }]);
  });

  it('refuses an invalid cart before it is queued', async () => {
    await expect(outbox.queueOrder({ idCliente: 10, itens: [] })).rejects.toThrow();
  });

  it('shows an order as sent while its push is in flight, and lets it be neither fixed nor discarded then', async () => {
    const [entry] = await outbox.listOutbox();
    const id = entry?.id as string;
    const sent = firstValueFrom(outbox.outbox$.pipe(filter((list) => list[0]?.state === 'sent')));
    inFlight.next(new Set([id]));
    expect((await sent)[0]?.id).toBe(id);
    await expect(outbox.discard(id)).rejects.toBeInstanceOf(OutboxError);
    await expect(outbox.resend(id, draft)).rejects.toBeInstanceOf(OutboxError);
    inFlight.next(new Set());
  });

  it('fixes a refused order under the same id, and discards another', async () => {
    const [entry] = await outbox.listOutbox();
    const id = entry?.id as string;
    const doc = await db.collections.pedidos?.findOne(id).exec();
    const reasons = [{ code: 'DISCOUNT_ABOVE_CEILING', message: 'desconto acima do teto', line: 1 }];
    await doc?.incrementalPatch({ status: 'refused', reasons });
    expect(await outbox.listOutbox()).toMatchObject([{ id, state: 'refused', reasons }]);

    const fixed = { ...draft, itens: [{ idProduto: 5, quantidade: 2, descontoPercent: 1 }] };
    await outbox.resend(id, fixed);
    expect(await outbox.listOutbox()).toMatchObject([{ id, state: 'queued', draft: fixed, reasons: [] }]);

    const other = await outbox.queueOrder(draft);
    await outbox.discard(other);
    expect((await outbox.listOutbox()).map((e) => e.id)).toEqual([id]);
    // The deletion stays as a tombstone so the replication can push it.
    const tombstone = await db.collections.pedidos?.storageInstance.findDocumentsById([other], true);
    expect(tombstone?.[0]?._deleted).toBe(true);
  });

  it('writes funnel and ticket changes offline', async () => {
    const opp = await outbox.createOpportunity({ nomeProspect: 'Padaria do Zé 🍞', valor: 1500 });
    await outbox.moveOpportunity(opp, 'proposta');
    await expect(outbox.moveOpportunity(opp, 'perdido')).rejects.toThrow();
    const saved = (await db.collections.funil?.findOne(opp).exec())?.toJSON();
    expect(saved).toMatchObject({ estagio: 'proposta', nomeProspect: 'Padaria do Zé 🍞', valor: 1500 });

    const ticket = await outbox.createTicket({
      idPedido: 3,
      assunto: 'Entrega',
      mensagem: 'Chegou errado',
      autorNome: 'Ana',
    });
    await outbox.replyTicket(ticket, 'Faltou uma caixa', 'Ana');
    await outbox.cancelTicket(ticket);
    const t = (await db.collections.chamados?.findOne(ticket).exec())?.toJSON();
    expect(t?.status).toBe('cancelado');
    expect(t?.mensagens.map((m) => [m.autorTipo, m.texto])).toEqual([
      ['representante', 'Chegou errado'],
      ['representante', 'Faltou uma caixa'],
    ]);
    await expect(outbox.replyTicket(ticket, 'mais uma', 'Ana')).rejects.toBeInstanceOf(OutboxError);
  });

  it('wipe removes the local store of the user', async () => {
    outbox.close();
    await db.close();
    await wipe({ user, indexedDb });
    db = await openCampoDb({ user, indexedDb, multiInstance: false });
    expect(await db.collections.pedidos?.count().exec()).toBe(0);
  });
});
