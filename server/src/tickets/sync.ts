// Collection chamados: a representative's SAC tickets with their threads. A device opens a
// ticket, replies and cancels offline, under ids it makes itself (UUIDs), so a push sent twice
// opens one ticket and appends each reply once. Messages are never edited, so the merge rule
// is a union: replies the server does not hold are appended in the device's order. A reply or
// a cancel that reaches a closed ticket is not taken: the device gets the master state back,
// where the reply is absent (docs/sync.md).
import {
  blankDocument,
  type SyncPushRow,
  type SyncRefusal,
  type SyncTicket,
  TICKET_MESSAGE_MAX,
  ZTicketCreate,
} from '@campo/shared';
import { assertOwner, authorize, type RepresentativeAuth, scopeOf } from '../auth/authorize.ts';
import { touchDocuments } from '../changelog/changelog.ts';
import { answerOf, validationRefusal } from '../changelog/push-answer.ts';
import { dropRefusals, keepRefusal } from '../changelog/refusals.ts';
import type { Db } from '../db/kysely.ts';
import { withScope } from '../db/scope.ts';
import { DomainError, notFound } from '../errors.ts';
import type { AuthContext } from '../http/env.ts';
import { loadTicketDocs } from './documents.ts';
import * as q from './queries.ts';
import { closeTicket, createTicket, replyTicket } from './service.ts';

async function ticketOfKey(db: Db, auth: AuthContext, key: string): Promise<number | null> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const found = await q.selectTicketByKey(tx, auth.idEmpresa, key);
    if (found) assertOwner(auth, found.cod_vendedor);
    return found?.id ?? null;
  });
}

async function master(db: Db, auth: AuthContext, id: number): Promise<SyncTicket> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const [doc] = await loadTicketDocs(tx, auth.idEmpresa, [String(id)]);
    if (!doc) throw notFound('Chamado');
    return doc.doc as SyncTicket;
  });
}

interface PushedMessage {
  id: string;
  autorTipo: string;
  autorNome: string;
  texto: string;
  criadoEm: string;
}

/** The device's messages, or the first reason one of them cannot be taken. */
function messagesOf(doc: Record<string, unknown>): PushedMessage[] | SyncRefusal {
  const list = Array.isArray(doc.mensagens) ? (doc.mensagens as unknown[]) : [];
  const messages: PushedMessage[] = [];
  for (const [i, m] of list.entries()) {
    const msg = (m ?? {}) as Record<string, unknown>;
    const id = typeof msg.id === 'string' ? msg.id : '';
    const texto = typeof msg.texto === 'string' ? msg.texto.trim() : '';
    if (id.length < 8 || id.length > 200 || texto.length === 0 || Array.from(texto).length > TICKET_MESSAGE_MAX) {
      return {
        code: 'VALIDATION',
        message: `A mensagem ${i + 1} é inválida: precisa de texto (até ${TICKET_MESSAGE_MAX} caracteres) e de um identificador.`,
      };
    }
    messages.push({
      id,
      autorTipo: String(msg.autorTipo ?? 'representante'),
      autorNome: typeof msg.autorNome === 'string' ? msg.autorNome : '',
      texto,
      criadoEm: typeof msg.criadoEm === 'string' ? msg.criadoEm : new Date().toISOString(),
    });
  }
  return messages;
}

/** Runs an action that a closed ticket refuses; false when it was refused. */
async function unlessClosed(action: () => Promise<unknown>): Promise<boolean> {
  try {
    await action();
    return true;
  } catch (err) {
    if (err instanceof DomainError && err.code === 'TICKET_CLOSED') return false;
    throw err;
  }
}

const CLOSED_REPLY: SyncRefusal = {
  code: 'TICKET_CLOSED',
  message:
    'O chamado foi encerrado antes de esta resposta chegar ao servidor, e ela não foi enviada. Abra um novo chamado com este texto se ainda precisar.',
};

/**
 * Nothing is left out of the comparison: the server writes its own time on every message and
 * on the ticket, which the device cannot know, so a reply is answered with the ticket as held.
 * Leaving the times to a later pull would not do: a pull that crossed the push in flight is
 * never repeated, and the device's RxDB would keep believing the master holds its own times.
 */
const STAMPS = [] as const;

/** The ticket as the device pushed it, limited to the contract's fields, with the refusal. */
function refusedTicket(next: Record<string, unknown>, recusa: SyncRefusal): SyncTicket {
  const blank = blankDocument('chamados', String(next.id)) as SyncTicket;
  const pushed = Object.fromEntries(
    Object.keys(blank).map((k) => [k, next[k] ?? (blank as Record<string, unknown>)[k]]),
  );
  return { ...(pushed as SyncTicket), idChamado: null, recusa, _deleted: false };
}

/**
 * A unique violation on a device key (chamados_chave_key, chamado_mensagens_chave_key): the
 * same push sent twice at once (a proxy or a flaky network repeating the request), whose other
 * copy wrote the ticket or message between our "is this key known?" read and our insert. The
 * device asked for exactly what is now stored, so it is taken as done rather than a 500.
 */
function isSameKeyRace(err: unknown, constraint: string): boolean {
  const e = err as { code?: unknown; constraint?: unknown } | null;
  return typeof e === 'object' && e !== null && e.code === '23505' && e.constraint === constraint;
}

async function pushOne(db: Db, auth: RepresentativeAuth, row: SyncPushRow): Promise<SyncTicket | null> {
  const next = row.newDocumentState as Record<string, unknown>;
  const key = row.newDocumentState.id;
  let id = await ticketOfKey(db, auth, key);
  // The representative discarded a ticket the server never opened (refused): nothing to do.
  // Tickets the server holds are never deleted: the device gets it back.
  if (next._deleted === true) return id === null ? null : master(db, auth, id);
  const all = messagesOf(next);
  if (!Array.isArray(all))
    return id === null ? refusedTicket(next, all) : { ...(await master(db, auth, id)), recusa: all };
  const pushed = all.filter((m) => m.autorTipo === 'representante');
  if (id === null) {
    const first = pushed.shift();
    const input = ZTicketCreate.safeParse({
      ...(typeof next.idPedido === 'number' ? { idPedido: next.idPedido } : {}),
      ...(typeof next.numPedErp === 'number' ? { numPedErp: next.numPedErp } : {}),
      assunto: next.assunto,
      mensagem: first?.texto,
    });
    if (!input.success || !first) {
      return refusedTicket(
        next,
        input.success
          ? { code: 'VALIDATION', message: 'Escreva a primeira mensagem do chamado.' }
          : validationRefusal(input.error),
      );
    }
    try {
      id = (await createTicket(db, auth, input.data, { ticket: key, message: first.id })).id;
    } catch (err) {
      // An order that is not the representative's, or gone: the ticket cannot be opened.
      if (err instanceof DomainError && (err.status === 400 || err.status === 422 || err.code === 'NOT_FOUND')) {
        return refusedTicket(next, { code: err.code, message: err.detail });
      }
      if (!isSameKeyRace(err, 'chamados_chave_key')) throw err;
      id = await ticketOfKey(db, auth, key);
      if (id === null) throw err;
    }
  }
  const ticketId = id;
  const before = await master(db, auth, ticketId);
  const held = new Set(before.mensagens.map((m) => m.id));
  const notTaken: PushedMessage[] = [];
  for (const m of pushed) {
    if (held.has(m.id)) continue;
    if (notTaken.length > 0) {
      notTaken.push(m);
      continue;
    }
    const reply = async () => {
      try {
        await replyTicket(db, auth, 'representative', ticketId, m.texto, m.id);
      } catch (err) {
        if (!isSameKeyRace(err, 'chamado_mensagens_chave_key')) throw err;
      }
    };
    if (!(await unlessClosed(reply))) notTaken.push(m);
  }
  if (next.status === 'cancelado') {
    await unlessClosed(() => closeTicket(db, auth, 'representative', ticketId));
  }
  // A refused reply the device no longer holds was discarded by the representative.
  const pushedIds = new Set(all.map((m) => m.id));
  const discarded = before.mensagens.filter((m) => m.recusa && !pushedIds.has(m.id)).map((m) => m.id);
  if (notTaken.length > 0 || discarded.length > 0) {
    await withScope(db, scopeOf(auth), async (tx) => {
      // A reply that reached a ticket closed meanwhile is kept with the reason, in the thread
      // every pull answers, until the representative discards it: never silently dropped.
      for (const m of notTaken) {
        const dados = { ...m, autorTipo: 'representante', recusa: CLOSED_REPLY };
        await keepRefusal(tx, auth.idEmpresa, 'chamados', auth.codVendedor, {
          chave: String(ticketId),
          item: m.id,
          dados,
        });
      }
      await dropRefusals(tx, auth.idEmpresa, 'chamados', String(ticketId), discarded);
      const docs = await loadTicketDocs(tx, auth.idEmpresa, [String(ticketId)]);
      await touchDocuments(tx, auth.idEmpresa, 'chamados', auth.codVendedor, docs);
    });
  }
  return master(db, auth, ticketId);
}

/**
 * Each ticket on its own: one that cannot be opened, or a reply that cannot be taken, comes
 * back with its reason and the rest of the batch is applied. Only a ticket of another
 * representative refuses the whole push (403: scope).
 */
export async function pushTickets(db: Db, auth: AuthContext, rows: SyncPushRow[]) {
  // Passed already by the sync layer (sync.representative, the same roles): typed here.
  const rep = authorize(auth, 'tickets.representative');
  const masters: (SyncTicket | null)[] = [];
  for (const row of rows) masters.push(await pushOne(db, rep, row));
  return answerOf(rows, masters, STAMPS);
}
