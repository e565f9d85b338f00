// What the screens write offline: orders (the outbox), funnel opportunities, tickets and visits. Every
// change is a local write; the replication pushes it when it can, and the server's answer (the
// master state) replaces the local document. Nothing queued is dropped: a queued order leaves
// the device only as a server-held order, or when the representative discards it.
import {
  businessDate,
  type FunnelStage,
  type OpportunityCreate,
  type OpportunityPatch,
  type OrderCreate,
  type Position,
  type SyncOrderReason,
  type SyncOrderState,
  type SyncRefusal,
  type TicketCreate,
  VISIT_NOTE_MAX,
  ZOpportunityCreate,
  ZOpportunityPatch,
  ZOrderCreate,
  ZPosition,
  ZTicketCreate,
  ZTicketReply,
} from '@campo/shared';
import { BehaviorSubject, combineLatest, map, type Observable, of } from 'rxjs';
import { type CampoDatabase, collectionOf } from './database.ts';
import type { OpportunityDoc, OrderDoc, RegistrationDoc, TicketDoc, VisitDoc } from './schemas.ts';
import { writeFirst } from './storage-pressure.ts';
import type { VisitPhotoStore } from './visit-photos.ts';

/** The outbox's four states (DESIGN.md "Product decisions"). */
export type OutboxState = 'queued' | 'sent' | 'accepted' | 'refused';

export interface OutboxEntry {
  id: string;
  state: OutboxState;
  /** The order's own status: pending_approval, approved, invoiced, rejected once accepted. */
  status: SyncOrderState;
  draft: OrderCreate | null;
  order: OrderDoc['order'];
  reasons: SyncOrderReason[];
  queuedAt: string;
  updatedAt: string;
}

/**
 * A queued order is "sent" while a push carrying it awaits the answer; once answered it is
 * whatever the server said. Anything else the server holds counts as accepted, including a
 * rejection by the supervisor: the order exists, it was decided.
 */
export function outboxStateOf(doc: Pick<OrderDoc, 'id' | 'status'>, inFlight: ReadonlySet<string>): OutboxState {
  if (doc.status === 'queued') return inFlight.has(doc.id) ? 'sent' : 'queued';
  if (doc.status === 'refused') return 'refused';
  return 'accepted';
}

/**
 * Outbox entries, newest first: every order of the representative, whether queued here or
 * made online. The server's master state does not keep the device's queuedAt, so an order it
 * holds is dated by its creation on the server.
 */
export function outboxEntries(docs: readonly OrderDoc[], inFlight: ReadonlySet<string>): OutboxEntry[] {
  return docs
    .map((d) => ({
      id: d.id,
      state: outboxStateOf(d, inFlight),
      status: d.status,
      draft: (d.draft as OrderCreate | null) ?? null,
      order: d.order ?? null,
      reasons: d.reasons ?? [],
      queuedAt: d.queuedAt ?? d.order?.criadoEm ?? d.updatedAt,
      updatedAt: d.updatedAt,
    }))
    .sort((a, b) => (a.queuedAt < b.queuedAt ? 1 : a.queuedAt > b.queuedAt ? -1 : a.id < b.id ? 1 : -1));
}

/**
 * What a refused card asks of the representative: a creation the server did not take (the
 * card is the one pushed) or an edit it did not take (the card is the server's; the values the
 * device sent are in `recusa.campos`). Null when the card is not refused.
 */
export function opportunityRefusal(doc: Pick<OpportunityDoc, 'recusa'>): 'creation' | 'edit' | null {
  const recusa = doc.recusa as SyncRefusal | null | undefined;
  if (!recusa) return null;
  return recusa.campos ? 'edit' : 'creation';
}

/** A ticket that needs the representative: not opened (refused), or with a refused reply. */
export function ticketNeedsAttention(doc: Pick<TicketDoc, 'recusa' | 'mensagens'>): boolean {
  return !!doc.recusa || doc.mensagens.some((m) => !!m.recusa);
}

/** Documents whose push the server refused, waiting for the representative to fix or discard. */
export interface Attention {
  funil: number;
  chamados: number;
  /** Visits with a refused check-in or check-out. */
  visitas: number;
}

export class OutboxError extends Error {
  override name = 'OutboxError';
}

export interface OutboxOptions {
  /** Ids in a push awaiting the answer (CampoReplication.inFlight$); none when not replicating. */
  inFlight$?: Observable<ReadonlySet<string>>;
  /** The device clock, replaceable in tests. */
  now?: () => Date;
  randomUUID?: () => string;
  /**
   * Frees room when a write finds the disk full (storage-pressure.ts, bulkDropper): the outbox's
   * write then goes first, before anything else takes the space back.
   */
  makeRoom?: () => Promise<unknown>;
  /** Where a visit's photo waits, out of the visit's document (visit-photos.ts). */
  visitPhotos?: VisitPhotoStore;
}

/** "Saí": how the visit ends. Without an order, a reason of the manager's list. */
export interface VisitCheckOut {
  posicao: Position | null;
  /** Null when the client has an order today: the server links it and asks no reason. */
  motivo: { id: number; descricao: string } | null;
  observacao?: string | null;
  /** The photo the reason asks for, already resized (at most 768 KiB). */
  foto?: Blob | null;
}

/**
 * Whether the server holds the visit: it has stamped its receipt of the check-in. Null until the
 * push's answer or a pull brings the stamp; the answer to a refused check-in is the pushed
 * visit filled in from the blank document (blankDocument in shared), whose stamp is the epoch.
 */
export function visitHeld(v: Pick<VisitDoc, 'entradaRecebidaEm'>): boolean {
  return v.entradaRecebidaEm !== null && v.entradaRecebidaEm >= '1970-01-02';
}

/**
 * A visit the server does not hold entirely yet: its check-in not received, or its check-out
 * made on the phone (offline, say) and not received yet. Its card says "aguardando envio".
 */
export function visitWaiting(v: Pick<VisitDoc, 'entradaRecebidaEm' | 'saidaEm' | 'saidaRecebidaEm'>): boolean {
  return !visitHeld(v) || (v.saidaEm !== null && v.saidaRecebidaEm === null);
}

/** A check-in the server refused: it never opened there, and waits for a new try or "Descartar". */
export function checkInRefused(v: Pick<VisitDoc, 'recusa' | 'entradaRecebidaEm'>): boolean {
  return !!v.recusa && !visitHeld(v);
}

/** A visit not closed here yet (checked out on the phone or not): at most one at a time. */
export function visitIsOpen(v: Pick<VisitDoc, 'saidaEm' | 'recusa' | 'entradaRecebidaEm'>): boolean {
  return !checkInRefused(v) && v.saidaEm === null;
}

export function createOutbox(db: CampoDatabase, options: OutboxOptions = {}) {
  const pedidos = collectionOf(db, 'pedidos');
  const funil = collectionOf(db, 'funil');
  const chamados = collectionOf(db, 'chamados');
  const cadastros = collectionOf(db, 'cadastros');
  const visitas = db.collections.visitas;
  const now = () => (options.now ?? (() => new Date()))().toISOString();
  const uuid = options.randomUUID ?? (() => crypto.randomUUID());
  const inFlight$ = options.inFlight$ ?? new BehaviorSubject<ReadonlySet<string>>(new Set());
  let inFlight: ReadonlySet<string> = new Set();
  const room = <T>(write: () => Promise<T>) => writeFirst(write, options.makeRoom);
  const tracking = inFlight$.subscribe((ids) => {
    inFlight = ids;
  });

  const docs$ = pedidos.find().$.pipe(map((docs) => docs.map((d) => d.toJSON() as OrderDoc)));

  const order = async (id: string) => {
    const doc = await pedidos.findOne(id).exec();
    if (!doc) throw new OutboxError('Pedido não encontrado neste aparelho.');
    return doc;
  };

  const opportunity = async (id: string) => {
    const doc = await funil.findOne(id).exec();
    if (!doc) throw new OutboxError('Oportunidade não encontrada neste aparelho.');
    return doc;
  };

  const ticket = async (id: string) => {
    const doc = await chamados.findOne(id).exec();
    if (!doc) throw new OutboxError('Chamado não encontrado neste aparelho.');
    return doc;
  };

  return {
    outbox$: combineLatest([docs$, inFlight$]).pipe(map(([docs, ids]) => outboxEntries(docs, ids))),

    async listOutbox(): Promise<OutboxEntry[]> {
      const docs = await pedidos.find().exec();
      return outboxEntries(
        docs.map((d) => d.toJSON() as OrderDoc),
        inFlight,
      );
    },

    /** Queues a new order; its id is the Idempotency-Key the server creates it under. */
    async queueOrder(draft: OrderCreate): Promise<string> {
      const body = ZOrderCreate.parse(draft);
      const id = uuid();
      const at = now();
      await room(() =>
        pedidos.insert({
          id,
          status: 'queued',
          draft: body,
          order: null,
          reasons: [],
          queuedAt: at,
          updatedAt: at,
        }),
      );
      return id;
    },

    /** Queues a refused order again with the fixed cart, under the same id. */
    async resend(id: string, fixedDraft: OrderCreate): Promise<void> {
      const body = ZOrderCreate.parse(fixedDraft);
      const doc = await order(id);
      if (doc.status !== 'refused') throw new OutboxError('Só um pedido recusado pode ser corrigido e reenviado.');
      await room(() => doc.incrementalPatch({ status: 'queued', draft: body, reasons: [], updatedAt: now() }));
    },

    /**
     * Drops a refused order, or a queued one that is not being sent. Should the server hold
     * the order after all (an answer lost on the way), it sends the order back: the deletion
     * never wins over a real order.
     */
    async discard(id: string): Promise<void> {
      const doc = await order(id);
      const state = outboxStateOf(doc, inFlight);
      if (state !== 'refused' && state !== 'queued')
        throw new OutboxError('Este pedido já foi recebido pelo servidor e não pode ser descartado.');
      await doc.incrementalRemove();
    },

    async createOpportunity(input: Omit<OpportunityCreate, 'id' | 'estagio'> & { estagio?: FunnelStage }) {
      const id = uuid();
      const body = ZOpportunityCreate.parse({ ...input, id });
      const at = now();
      const doc: OpportunityDoc = {
        id,
        estagio: body.estagio,
        idCliente: body.idCliente ?? null,
        // The server fills the client's name from the ERP.
        nomeCliente: null,
        nomeProspect: body.nomeProspect ?? null,
        empresaProspect: body.empresaProspect ?? null,
        idPedido: body.idPedido ?? null,
        valor: body.valor ?? null,
        previsaoFechamento: body.previsaoFechamento ?? null,
        observacoes: body.observacoes ?? null,
        motivoPerda: body.motivoPerda ?? null,
        criadoEm: at,
        atualizadoEm: at,
      };
      await room(() => funil.insert(doc));
      return id;
    },

    /**
     * Changes some fields; the server merges field by field (ZSyncOpportunity). Any local edit
     * clears the card's refusal: the representative has acted on it, and the server takes the
     * card again (a refused creation is retried, a refused edit is applied). An empty patch
     * only clears it ("Corrigir" saved with nothing changed).
     */
    async updateOpportunity(id: string, patch: Omit<OpportunityPatch, 'baseAtualizadoEm'>): Promise<void> {
      const fields = ZOpportunityPatch.parse(patch);
      const doc = await opportunity(id);
      const next = { ...doc.toJSON(), ...fields } as OpportunityDoc;
      if (next.estagio === 'perdido' && !next.motivoPerda) throw new OutboxError('Informe o motivo da perda.');
      const { baseAtualizadoEm: _, ...changes } = fields;
      await room(() => doc.incrementalPatch({ ...changes, recusa: null, atualizadoEm: now() }));
    },

    /**
     * "Descartar" on a refused card. A refused creation is deleted here, and the deletion is
     * pushed (the server never held the card). A refused edit drops the representative's
     * values: the card is already the server's, only the refusal goes.
     */
    async discardOpportunityRefusal(id: string): Promise<void> {
      const doc = await opportunity(id);
      const kind = opportunityRefusal(doc);
      if (kind === 'creation') await doc.incrementalRemove();
      else if (kind === 'edit') await doc.incrementalPatch({ recusa: null });
    },

    moveOpportunity(id: string, estagio: FunnelStage, motivoPerda?: string): Promise<void> {
      return this.updateOpportunity(id, { estagio, ...(motivoPerda !== undefined ? { motivoPerda } : {}) });
    },

    async deleteOpportunity(id: string): Promise<void> {
      await (await opportunity(id)).incrementalRemove();
    },

    async createTicket(input: TicketCreate & { autorNome: string }): Promise<string> {
      const body = ZTicketCreate.parse({
        assunto: input.assunto,
        mensagem: input.mensagem,
        ...(input.idPedido !== undefined ? { idPedido: input.idPedido } : {}),
        ...(input.numPedErp !== undefined ? { numPedErp: input.numPedErp } : {}),
      });
      const id = uuid();
      const at = now();
      const doc: TicketDoc = {
        id,
        idChamado: null,
        idPedido: body.idPedido ?? null,
        numPedSar: null,
        numPedErp: body.numPedErp ?? null,
        idCliente: null,
        nomeCliente: null,
        assunto: body.assunto,
        status: 'aberto',
        mensagens: [
          { id: uuid(), autorTipo: 'representante', autorNome: input.autorNome, texto: body.mensagem, criadoEm: at },
        ],
        criadoEm: at,
        atualizadoEm: at,
      };
      await room(() => chamados.insert(doc));
      return id;
    },

    async replyTicket(id: string, texto: string, autorNome: string): Promise<void> {
      const body = ZTicketReply.parse({ texto });
      const doc = await ticket(id);
      if (doc.status === 'resolvido' || doc.status === 'cancelado')
        throw new OutboxError('Este chamado está encerrado e não recebe novas mensagens.');
      const at = now();
      const messageId = uuid();
      await room(() =>
        doc.incrementalModify((t) => ({
          ...t,
          mensagens: [
            ...t.mensagens,
            { id: messageId, autorTipo: 'representante', autorNome, texto: body.texto, criadoEm: at },
          ],
          atualizadoEm: at,
        })),
      );
    },

    /**
     * "Corrigir" on a ticket the server could not open: the same ticket (same id, so a retry
     * never opens two) with the fixed subject, order and first message, pushed again.
     */
    async fixTicket(id: string, input: TicketCreate): Promise<void> {
      const body = ZTicketCreate.parse(input);
      const doc = await ticket(id);
      if (doc.idChamado !== null || !doc.recusa)
        throw new OutboxError('Só um chamado que não pôde ser aberto pode ser corrigido.');
      await doc.incrementalModify((t) => {
        const [first, ...rest] = t.mensagens;
        return {
          ...t,
          assunto: body.assunto,
          idPedido: body.idPedido ?? null,
          numPedErp: body.numPedErp ?? null,
          mensagens: first ? [{ ...first, texto: body.mensagem, recusa: null }, ...rest] : t.mensagens,
          recusa: null,
          atualizadoEm: now(),
        };
      });
    },

    /**
     * "Descartar" on a ticket the server could not open: deleted here, and the deletion is
     * pushed. A ticket the server holds is never deleted (cancel it instead).
     */
    async discardTicket(id: string): Promise<void> {
      const doc = await ticket(id);
      if (doc.idChamado !== null) throw new OutboxError('Este chamado já foi aberto; cancele-o em vez de descartar.');
      await doc.incrementalRemove();
    },

    /**
     * "Descartar" on a reply the server did not take (the ticket was closed meanwhile): the
     * message leaves the thread on this device. Only a refused message can be discarded.
     */
    async discardTicketMessage(id: string, messageId: string): Promise<void> {
      const doc = await ticket(id);
      const message = doc.mensagens.find((m) => m.id === messageId);
      if (!message?.recusa) throw new OutboxError('Só uma mensagem recusada pode ser descartada.');
      await doc.incrementalModify((t) => ({ ...t, mensagens: t.mensagens.filter((m) => m.id !== messageId) }));
    },

    /** Refused cards, tickets and visits, for the sync strip. */
    attention$: combineLatest([
      funil.find().$.pipe(map((docs) => docs.filter((d) => opportunityRefusal(d) !== null).length)),
      chamados.find().$.pipe(map((docs) => docs.filter((d) => ticketNeedsAttention(d)).length)),
      visitas ? visitas.find().$.pipe(map((docs) => docs.filter((d) => !!d.recusa).length)) : of(0),
    ]).pipe(map(([f, c, v]): Attention => ({ funil: f, chamados: c, visitas: v }))),

    async cancelTicket(id: string): Promise<void> {
      const doc = await ticket(id);
      if (doc.status === 'resolvido' || doc.status === 'cancelado') return;
      await room(() => doc.incrementalPatch({ status: 'cancelado', atualizadoEm: now() }));
    },

    /** Client registrations made in the field, newest first. */
    registrations$: cadastros
      .find()
      .$.pipe(
        map((docs) =>
          docs
            .map((d) => d.toJSON() as RegistrationDoc)
            .sort((a, b) => ((a.criadoEm ?? '') < (b.criadoEm ?? '') ? 1 : -1)),
        ),
      ),

    /**
     * Queues a client registration (the body of POST /clients); its id is the idempotency key.
     * The server validates it and answers created (the client then arrives in clientes) or
     * refused with a reason per field.
     */
    async queueRegistration(dados: Record<string, unknown>): Promise<string> {
      const id = uuid();
      const text = (k: string) => (typeof dados[k] === 'string' ? (dados[k] as string) : null);
      await room(() =>
        cadastros.insert({
          id,
          status: 'queued',
          dados,
          idCliente: null,
          razaoSocial: text('razaoSocial'),
          documento: text('documento') ?? text('cnpjCpf'),
          reasons: [],
          criadoEm: null,
        }),
      );
      return id;
    },

    async resendRegistration(id: string, dados: Record<string, unknown>): Promise<void> {
      const doc = await cadastros.findOne(id).exec();
      if (!doc) throw new OutboxError('Cadastro não encontrado neste aparelho.');
      if (doc.status !== 'refused') throw new OutboxError('Só um cadastro recusado pode ser corrigido e reenviado.');
      await room(() => doc.incrementalPatch({ status: 'queued', dados, reasons: [] }));
    },

    async discardRegistration(id: string): Promise<void> {
      const doc = await cadastros.findOne(id).exec();
      if (!doc) throw new OutboxError('Cadastro não encontrado neste aparelho.');
      if (doc.status === 'created') throw new OutboxError('Este cliente já foi cadastrado no ERP.');
      if (inFlight.has(id)) throw new OutboxError('Este cadastro está sendo enviado; tente de novo em instantes.');
      await doc.incrementalRemove();
    },

    /**
     * "Cheguei": a visit opens on the phone under a new UUID (the server checks in under it,
     * once, whatever the retries), with the device time and the position, or null when the
     * representative refused location or the phone could not get one.
     */
    async checkIn(input: {
      codVendedor: number;
      idCliente: number;
      nomeCliente: string | null;
      posicao: Position | null;
    }): Promise<string> {
      if (!visitas) throw new OutboxError('Visitas não disponíveis neste aparelho.');
      const posicao = input.posicao === null ? null : ZPosition.parse(input.posicao);
      const open = (await visitas.find().exec()).map((d) => d.toJSON() as VisitDoc).find(visitIsOpen);
      if (open) {
        throw new OutboxError(
          `Há uma visita em aberto${open.nomeCliente ? ` em ${open.nomeCliente}` : ''}: registre a saída antes.`,
        );
      }
      const id = uuid();
      const at = now();
      const doc: VisitDoc = {
        id,
        codVendedor: input.codVendedor,
        idCliente: input.idCliente,
        nomeCliente: input.nomeCliente,
        data: businessDate(at),
        estado: 'aberta',
        entradaEm: at,
        entradaRecebidaEm: null,
        saidaEm: null,
        saidaRecebidaEm: null,
        posicao,
        saidaPosicao: null,
        distanciaMetros: null,
        minutos: null,
        noRoteiro: false,
        idPedido: null,
        numPedSar: null,
        idMotivo: null,
        motivo: null,
        observacao: null,
        foto: false,
        recusa: null,
      };
      await room(() => visitas.insert(doc));
      return id;
    },

    /**
     * "Saí" (and "Corrigir" on a check-out the server refused): the photo is kept first, out of
     * the document, so the push that carries the check-out finds it to send before.
     */
    async checkOut(id: string, input: VisitCheckOut): Promise<void> {
      const doc = await visitas?.findOne(id).exec();
      if (!doc) throw new OutboxError('Visita não encontrada neste aparelho.');
      if (!visitIsOpen(doc.toJSON() as VisitDoc)) throw new OutboxError('Esta visita já foi encerrada.');
      const observacao = input.observacao?.trim() || null;
      if (observacao && Array.from(observacao).length > VISIT_NOTE_MAX)
        throw new OutboxError(`A observação tem no máximo ${VISIT_NOTE_MAX} caracteres.`);
      if (input.foto) {
        if (!options.visitPhotos) throw new OutboxError('Este aparelho não guarda fotos de visitas.');
        await room(() => options.visitPhotos?.put(id, input.foto as Blob) ?? Promise.resolve());
      }
      await room(() =>
        doc.incrementalPatch({
          saidaEm: now(),
          saidaPosicao: input.posicao === null ? null : ZPosition.parse(input.posicao),
          idMotivo: input.motivo?.id ?? null,
          motivo: input.motivo?.descricao ?? null,
          observacao,
          estado: input.motivo ? 'sem_pedido' : 'com_pedido',
          foto: doc.foto || !!input.foto,
          recusa: null,
        }),
      );
    },

    /** "Tentar de novo" on a check-in the server refused (another visit was open there). */
    async retryVisit(id: string): Promise<void> {
      const doc = await visitas?.findOne(id).exec();
      if (!doc?.recusa) return;
      await room(() => doc.incrementalPatch({ recusa: null }));
    },

    /**
     * "Descartar" on a check-in the server refused: deleted here, and the deletion pushed (the
     * server never held it). A visit the server holds is never discarded: it comes back.
     */
    async discardVisit(id: string): Promise<void> {
      const doc = await visitas?.findOne(id).exec();
      if (!doc) return;
      if (visitHeld(doc)) throw new OutboxError('Esta visita já foi recebida pelo servidor.');
      await options.visitPhotos?.delete(id);
      await doc.incrementalRemove();
    },

    close(): void {
      tracking.unsubscribe();
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
