// The outbox as the screens see it: the state mapping (pure), and the local writes on a real
// RxDB store (Dexie over fake-indexeddb), without a server.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { filter, firstValueFrom, Subject } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CampoDatabase, openCampoDb, wipe } from './database.ts';
import {
  createOutbox,
  type Outbox,
  OutboxError,
  opportunityRefusal,
  outboxEntries,
  outboxStateOf,
  ticketNeedsAttention,
  visitWaiting,
} from './outbox.ts';
import type { OrderDoc, VisitDoc } from './schemas.ts';
import { memoryVisitPhotos } from './visit-photos.ts';

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

  it('a refused card counts as needing attention; any local edit clears its refusal', async () => {
    const funil = db.collections.funil;
    const attention = () => firstValueFrom(outbox.attention$);
    const id = await outbox.createOpportunity({ nomeProspect: 'Bar do Tião', valor: 300 });
    const before = (await attention()).funil;
    // A refused edit: the server's card, with the values the device had sent.
    await (await funil?.findOne(id).exec())?.incrementalPatch({
      recusa: { code: 'VALIDATION', message: 'Informe o motivo da perda.', campos: { estagio: 'perdido' } },
    });
    const doc = (await funil?.findOne(id).exec())?.toJSON();
    expect(opportunityRefusal(doc as never)).toBe('edit');
    expect((await attention()).funil).toBe(before + 1);
    await outbox.moveOpportunity(id, 'proposta');
    expect((await funil?.findOne(id).exec())?.toJSON()).toMatchObject({ estagio: 'proposta', recusa: null });
    expect((await attention()).funil).toBe(before);
    // "Corrigir" saved with nothing changed still clears it.
    await (await funil?.findOne(id).exec())?.incrementalPatch({ recusa: { code: 'X', message: 'não', campos: {} } });
    await outbox.updateOpportunity(id, {});
    expect((await funil?.findOne(id).exec())?.recusa).toBeNull();
  });

  it('discarding a refused edit keeps the server card; discarding a refused creation deletes it', async () => {
    const funil = db.collections.funil;
    const edited = await outbox.createOpportunity({ nomeProspect: 'Quitanda Sol', valor: 100 });
    await (await funil?.findOne(edited).exec())?.incrementalPatch({
      recusa: { code: 'VALIDATION', message: 'Valor inválido.', campos: { valor: -5 } },
    });
    await outbox.discardOpportunityRefusal(edited);
    expect((await funil?.findOne(edited).exec())?.toJSON()).toMatchObject({ valor: 100, recusa: null });

    const created = await outbox.createOpportunity({ idCliente: 99 });
    await (await funil?.findOne(created).exec())?.incrementalPatch({
      recusa: { code: 'CLIENT_NOT_IN_PORTFOLIO', message: 'O cliente saiu da sua carteira.' },
    });
    expect(opportunityRefusal((await funil?.findOne(created).exec())?.toJSON() as never)).toBe('creation');
    await outbox.discardOpportunityRefusal(created);
    expect(await funil?.findOne(created).exec()).toBeNull();
    // Kept as a deletion for the replication to push.
    const [tombstone] = (await funil?.storageInstance.findDocumentsById([created], true)) ?? [];
    expect(tombstone?._deleted).toBe(true);
  });

  it('a refused reply is discarded alone; a ticket that could not be opened is fixed under its id or discarded', async () => {
    const chamados = db.collections.chamados;
    const attention = async () => (await firstValueFrom(outbox.attention$)).chamados;
    const before = await attention();
    const ticket = await outbox.createTicket({
      idPedido: 3,
      assunto: 'Troca',
      mensagem: 'Veio errado',
      autorNome: 'Ana',
    });
    await outbox.replyTicket(ticket, 'Mais um detalhe', 'Ana');
    const doc = await chamados?.findOne(ticket).exec();
    const reply = doc?.mensagens[1]?.id as string;
    await doc?.incrementalModify((t) => ({
      ...t,
      idChamado: 40,
      status: 'resolvido',
      mensagens: t.mensagens.map((m) =>
        m.id === reply ? { ...m, recusa: { code: 'TICKET_CLOSED', message: 'O chamado foi encerrado.' } } : m,
      ),
    }));
    expect(ticketNeedsAttention((await chamados?.findOne(ticket).exec())?.toJSON() as never)).toBe(true);
    expect(await attention()).toBe(before + 1);
    const first = (await chamados?.findOne(ticket).exec())?.mensagens[0]?.id as string;
    await expect(outbox.discardTicketMessage(ticket, first)).rejects.toBeInstanceOf(OutboxError);
    await outbox.discardTicketMessage(ticket, reply);
    expect((await chamados?.findOne(ticket).exec())?.mensagens.map((m) => m.texto)).toEqual(['Veio errado']);
    expect(await attention()).toBe(before);
    await expect(outbox.discardTicket(ticket)).rejects.toBeInstanceOf(OutboxError);

    const refused = await outbox.createTicket({
      numPedErp: 777,
      assunto: 'Boleto',
      mensagem: 'Segunda via',
      autorNome: 'Ana',
    });
    await (await chamados?.findOne(refused).exec())?.incrementalPatch({
      recusa: { code: 'ORDER_NOT_FOUND', message: 'Pedido 777 não encontrado no ERP.' },
    });
    expect(await attention()).toBe(before + 1);
    await outbox.fixTicket(refused, { numPedErp: 778, assunto: 'Boleto', mensagem: 'Segunda via, por favor' });
    const fixed = (await chamados?.findOne(refused).exec())?.toJSON();
    expect(fixed).toMatchObject({ id: refused, numPedErp: 778, idChamado: null, recusa: null });
    expect(fixed?.mensagens.map((m) => m.texto)).toEqual(['Segunda via, por favor']);
    expect(await attention()).toBe(before);
    await expect(outbox.fixTicket(refused, { numPedErp: 1, assunto: 'a', mensagem: 'b' })).rejects.toBeInstanceOf(
      OutboxError,
    );
    await outbox.discardTicket(refused);
    expect(await chamados?.findOne(refused).exec()).toBeNull();
  });

  it('wipe removes the local store of the user', async () => {
    outbox.close();
    await db.close();
    await wipe({ user, indexedDb });
    db = await openCampoDb({ user, indexedDb, multiInstance: false });
    expect(await db.collections.pedidos?.count().exec()).toBe(0);
  });
});

describe('a visit waiting to leave the phone', () => {
  const held = '2026-11-24T16:06:00.000Z';
  it('waits while its check-in, or a check-out made offline, has not reached the server', () => {
    // Checked in on the phone: the receipt is the epoch until the server answers.
    expect(visitWaiting({ entradaRecebidaEm: '1970-01-01T00:00:00.000Z', saidaEm: null, saidaRecebidaEm: null })).toBe(
      true,
    );
    expect(visitWaiting({ entradaRecebidaEm: held, saidaEm: null, saidaRecebidaEm: null })).toBe(false);
    // Closed offline: the server holds the check-in, not yet the check-out.
    expect(visitWaiting({ entradaRecebidaEm: held, saidaEm: '2026-11-24T17:00:00.000Z', saidaRecebidaEm: null })).toBe(
      true,
    );
    expect(visitWaiting({ entradaRecebidaEm: held, saidaEm: '2026-11-24T17:00:00.000Z', saidaRecebidaEm: held })).toBe(
      false,
    );
  });
});

describe('visits on a local store', () => {
  let db: CampoDatabase;
  let outbox: Outbox;
  const photos = memoryVisitPhotos();
  const user = { id: 8, idEmpresa: 1, role: 'representative' as const };
  const indexedDb = { indexedDB: new IDBFactory(), IDBKeyRange };
  // 13:05 in São Paulo on 2026-11-24, as the device clock says.
  let clock = new Date('2026-11-24T16:05:00.000Z');
  const here = { latitude: -23.55, longitude: -46.63, precisao: 12 };
  const visit = async (id: string) => (await db.collections.visitas?.findOne(id).exec())?.toJSON() as VisitDoc;

  beforeAll(async () => {
    db = await openCampoDb({ user, indexedDb, multiInstance: false });
    outbox = createOutbox(db, { now: () => clock, visitPhotos: photos });
  });

  afterAll(async () => {
    outbox?.close();
    await db?.close();
  });

  it('checks in once at a time and checks out with a reason and a photo kept out of the document', async () => {
    const id = await outbox.checkIn({ codVendedor: 3, idCliente: 10, nomeCliente: 'Boi Gordo', posicao: here });
    expect(await visit(id)).toMatchObject({
      id,
      idCliente: 10,
      data: '2026-11-24',
      estado: 'aberta',
      entradaEm: '2026-11-24T16:05:00.000Z',
      entradaRecebidaEm: null,
      saidaEm: null,
      posicao: here,
    });
    await expect(outbox.checkIn({ codVendedor: 3, idCliente: 11, nomeCliente: null, posicao: null })).rejects.toThrow(
      'Há uma visita em aberto em Boi Gordo: registre a saída antes.',
    );
    clock = new Date('2026-11-24T16:25:00.000Z');
    const photo = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xd9])], { type: 'image/jpeg' });
    await outbox.checkOut(id, {
      posicao: null,
      motivo: { id: 4, descricao: 'Preço' },
      observacao: ' volta sexta ',
      foto: photo,
    });
    expect(await visit(id)).toMatchObject({
      saidaEm: '2026-11-24T16:25:00.000Z',
      idMotivo: 4,
      motivo: 'Preço',
      observacao: 'volta sexta',
      estado: 'sem_pedido',
      foto: true,
    });
    expect(await photos.get(id)).toBe(photo);
    await expect(outbox.checkOut(id, { posicao: null, motivo: null })).rejects.toThrow('Esta visita já foi encerrada.');
  });

  it('lets a check-in the server refused be tried again or discarded, never one it holds', async () => {
    const refused = await outbox.checkIn({ codVendedor: 3, idCliente: 12, nomeCliente: null, posicao: null });
    await (await db.collections.visitas?.findOne(refused).exec())?.incrementalPatch({
      recusa: { code: 'CLIENT_NOT_IN_PORTFOLIO', message: 'O cliente não é da sua carteira.' },
    });
    // It never opened on the server: another check-in may go ahead.
    const other = await outbox.checkIn({ codVendedor: 3, idCliente: 13, nomeCliente: null, posicao: null });
    await outbox.retryVisit(refused);
    expect((await visit(refused)).recusa).toBeNull();
    await (await db.collections.visitas?.findOne(refused).exec())?.incrementalPatch({
      recusa: { code: 'CLIENT_NOT_IN_PORTFOLIO', message: 'O cliente não é da sua carteira.' },
    });
    await outbox.discardVisit(refused);
    expect(await db.collections.visitas?.findOne(refused).exec()).toBeNull();
    await (await db.collections.visitas?.findOne(other).exec())?.incrementalPatch({
      entradaRecebidaEm: '2026-11-24T16:30:00.000Z',
    });
    await expect(outbox.discardVisit(other)).rejects.toThrow(OutboxError);
  });
});
