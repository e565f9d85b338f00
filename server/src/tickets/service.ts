// SAC tickets. A representative opens a ticket about one of their orders (a Campo order or a
// historical ERP order) and exchanges messages with the company (managers and admins of the
// tenant), who reply and resolve. States and transitions are shared/src/tickets.ts's
// ticketTransition; every action locks the ticket row first, so two replies racing a
// resolve cannot both pass the state check. Each message tells the other side by push, in
// the same transaction. Subjects and messages are stored escaped (encodeLossless) so an
// emoji never fails a statement in the LATIN1 database and comes back exactly as typed.
import {
  decodeLossless,
  encodeLossless,
  type Ticket,
  type TicketAction,
  type TicketCreate,
  type TicketStatus,
  type TicketSummary,
  ticketTransition,
  toEncoding,
} from '@campo/shared';
import { assertOwner, authorize, representativeFor, scopeOf } from '../auth/authorize.ts';
import { touchDocuments } from '../changelog/changelog.ts';
import { erpEncoding } from '../db/encoding.ts';
import type { Db } from '../db/kysely.ts';
import { type Tx, withScope } from '../db/scope.ts';
import { DomainError, notFound } from '../errors.ts';
import type { AuthContext } from '../http/env.ts';
import { enqueuePush } from '../notifications/outbox.ts';
import { loadTicketDocs } from './documents.ts';
import * as q from './queries.ts';

type Side = 'representative' | 'company';

const iso = (d: Date | string) => new Date(d).toISOString();

/** Role check before any read: the representative side and the company side are disjoint. */
const assertSide = (auth: AuthContext, side: Side) =>
  authorize(auth, side === 'representative' ? 'tickets.representative' : 'tickets.company');

function summary(row: q.TicketRow): TicketSummary {
  return {
    id: row.id,
    codVendedor: row.cod_vendedor,
    idPedido: row.id_pedido,
    numPedSar: row.num_ped_sar,
    numPedErp: row.num_ped_erp,
    idCliente: row.id_cliente,
    nomeCliente: row.nome_cliente,
    assunto: decodeLossless(row.assunto),
    status: row.status as TicketStatus,
    criadoEm: iso(row.criado_em),
    atualizadoEm: iso(row.atualizado_em),
  };
}

async function loadTicket(tx: Tx, auth: AuthContext, id: number, side: Side): Promise<Ticket> {
  const row = await q.selectTicket(tx, auth.idEmpresa, id, side === 'representative' ? auth.codVendedor : null);
  if (!row) throw notFound('Chamado');
  const messages = await q.selectMessages(tx, auth.idEmpresa, id);
  return {
    ...summary(row),
    mensagens: messages.map((m) => ({
      id: m.id,
      autorTipo: m.autor_tipo as 'representante' | 'empresa',
      autorNome: decodeLossless(m.autor_nome),
      texto: decodeLossless(m.texto),
      criadoEm: iso(m.criado_em),
    })),
  };
}

function closed(status: TicketStatus): DomainError {
  return new DomainError(
    'TICKET_CLOSED',
    `O chamado está ${status} e não aceita mais mensagens nem mudanças de situação.`,
    { ticketStatus: status },
  );
}

/** Locks the ticket, checks the move and applies it; the ticket as it was. */
async function move(tx: Tx, auth: AuthContext, id: number, side: Side, action: TicketAction) {
  const row = await q.selectTicket(tx, auth.idEmpresa, id, side === 'representative' ? auth.codVendedor : null, true);
  if (!row) throw notFound('Chamado');
  const next = ticketTransition(row.status as TicketStatus, action);
  if (next === null) throw closed(row.status as TicketStatus);
  await q.updateStatus(tx, auth.idEmpresa, id, next);
  return row;
}

/** The other side hears of a new message: the tenant's managers, or the ticket's representative. */
async function notifyMessage(tx: Tx, auth: AuthContext, row: q.TicketRow, from: Side, text: string) {
  const subject = decodeLossless(row.assunto);
  await enqueuePush(tx, {
    idEmpresa: auth.idEmpresa,
    to: from === 'representative' ? { managers: true } : { representative: row.cod_vendedor },
    notification: {
      type: 'ticket.message',
      title:
        from === 'representative' ? `Chamado ${row.id}: nova mensagem de ${auth.name}` : `Chamado ${row.id} respondido`,
      body: `${subject}: ${text}`,
      url: `/chamados/${row.id}`,
      tag: `chamado-${row.id}`,
    },
  });
}

/** The devices of the ticket's representative get its new state, in the same transaction. */
async function touchTicket(tx: Tx, idEmpresa: number, id: number): Promise<void> {
  const docs = await loadTicketDocs(tx, idEmpresa, [String(id)]);
  await touchDocuments(tx, idEmpresa, 'chamados', docs[0]?.escopo ?? null, docs);
}

/** Keys made by a device for a ticket opened offline and its first message: a push sent twice opens one ticket. */
export interface DeviceKeys {
  ticket: string;
  message: string;
}

export async function createTicket(db: Db, auth: AuthContext, input: TicketCreate, keys?: DeviceKeys): Promise<Ticket> {
  const codVendedor = representativeFor(auth, 'tickets.representative');
  return withScope(db, scopeOf(auth), async (tx) => {
    if (keys) {
      const existing = await q.selectTicketByKey(tx, auth.idEmpresa, keys.ticket);
      if (existing) {
        assertOwner(auth, existing.cod_vendedor, 'Este chamado');
        return loadTicket(tx, auth, existing.id, 'representative');
      }
    }
    let about: Pick<q.NewTicketRow, 'id_pedido' | 'num_ped_sar' | 'num_ped_erp' | 'id_cliente' | 'nome_cliente'>;
    if (input.idPedido !== undefined) {
      const order = await q.selectCampoOrder(tx, auth.idEmpresa, input.idPedido);
      // Another representative's order answers like a missing one: its existence is not the caller's business.
      if (!order || order.cod_vendedor !== codVendedor) {
        throw new DomainError('ORDER_NOT_FOUND', `O pedido ${input.idPedido} não existe entre os seus pedidos.`);
      }
      about = {
        id_pedido: order.id,
        num_ped_sar: order.num_ped_sar,
        num_ped_erp: null,
        id_cliente: order.id_cliente,
        nome_cliente: order.nome_cliente,
      };
    } else {
      const num = input.numPedErp as number;
      const order = await q.selectErpOrder(tx, auth.idEmpresa, codVendedor, num);
      if (!order) {
        throw new DomainError('ORDER_NOT_FOUND', `O pedido ${num} do ERP não existe entre os seus pedidos.`);
      }
      about = {
        id_pedido: null,
        num_ped_sar: null,
        num_ped_erp: num,
        id_cliente: order.id_corrent,
        // The copy must fit the database's encoding: a LATIN1 ERP's text is read as Windows-1252
        // (server/src/db/pool.ts) and may hold "€" or curly quotes that LATIN1 cannot store back.
        nome_cliente: toEncoding(order.nome_cliente ?? '', await erpEncoding(tx)),
      };
    }
    const id = await q.insertTicket(tx, {
      id_empresa: auth.idEmpresa,
      cod_vendedor: codVendedor,
      ...about,
      assunto: encodeLossless(input.assunto),
      chave: keys?.ticket ?? null,
    });
    await q.insertMessage(tx, {
      id_chamado: id,
      id_empresa: auth.idEmpresa,
      autor_tipo: 'representante',
      autor_nome: encodeLossless(auth.name),
      texto: encodeLossless(input.mensagem),
      chave: keys?.message ?? null,
    });
    const row = (await q.selectTicket(tx, auth.idEmpresa, id, codVendedor)) as q.TicketRow;
    await notifyMessage(tx, auth, row, 'representative', input.mensagem);
    await touchTicket(tx, auth.idEmpresa, id);
    return loadTicket(tx, auth, id, 'representative');
  });
}

export interface TicketListQuery {
  status?: TicketStatus[];
  codVendedor?: number;
  idCliente?: number;
  cliente?: string;
  dataInicio?: string;
  dataFim?: string;
  page: number;
  pageSize: number;
}

export async function listTickets(db: Db, auth: AuthContext, side: Side, query: TicketListQuery) {
  assertSide(auth, side);
  return withScope(db, scopeOf(auth), async (tx) => {
    // nome_cliente is ERP text in the database's encoding: the search is made to fit it, as the
    // copy was, so it matches and cannot fail the statement.
    const like =
      query.cliente === undefined
        ? undefined
        : `%${toEncoding(query.cliente, await erpEncoding(tx)).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const { items, total } = await q.selectTickets(tx, {
      idEmpresa: auth.idEmpresa,
      codVendedor: side === 'representative' ? representativeFor(auth, 'tickets.representative') : query.codVendedor,
      status: query.status,
      idCliente: query.idCliente,
      clienteLike: like,
      from: query.dataInicio,
      to: query.dataFim,
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    });
    return { items: items.map(summary), page: query.page, pageSize: query.pageSize, total };
  });
}

export async function getTicket(db: Db, auth: AuthContext, side: Side, id: number): Promise<Ticket> {
  assertSide(auth, side);
  return withScope(db, scopeOf(auth), (tx) => loadTicket(tx, auth, id, side));
}

/** messageKey: the device's id of a reply written offline; a reply pushed twice is appended once. */
export async function replyTicket(
  db: Db,
  auth: AuthContext,
  side: Side,
  id: number,
  texto: string,
  messageKey?: string,
): Promise<Ticket> {
  assertSide(auth, side);
  return withScope(db, scopeOf(auth), async (tx) => {
    if (messageKey !== undefined) {
      // Looked up under the ticket's lock: a copy of the same push that appended the reply and
      // then cancelled the ticket committed the reply first, so it is found here, never taken
      // for a reply refused by the closed ticket.
      await q.selectTicket(tx, auth.idEmpresa, id, side === 'representative' ? auth.codVendedor : null, true);
      if (await q.messageKeyExists(tx, auth.idEmpresa, messageKey)) return loadTicket(tx, auth, id, side);
    }
    const row = await move(tx, auth, id, side, side === 'representative' ? 'repReply' : 'companyReply');
    await q.insertMessage(tx, {
      id_chamado: id,
      id_empresa: auth.idEmpresa,
      autor_tipo: side === 'representative' ? 'representante' : 'empresa',
      autor_nome: encodeLossless(auth.name),
      texto: encodeLossless(texto),
      chave: messageKey ?? null,
    });
    await notifyMessage(tx, auth, row, side, texto);
    await touchTicket(tx, auth.idEmpresa, id);
    return loadTicket(tx, auth, id, side);
  });
}

/** Resolve (company) or cancel (representative). */
export async function closeTicket(db: Db, auth: AuthContext, side: Side, id: number): Promise<Ticket> {
  assertSide(auth, side);
  return withScope(db, scopeOf(auth), async (tx) => {
    await move(tx, auth, id, side, side === 'representative' ? 'cancel' : 'resolve');
    await touchTicket(tx, auth.idEmpresa, id);
    return loadTicket(tx, auth, id, side);
  });
}
