// Collection chamados: a representative's SAC tickets with their threads. A device opens a
// ticket, replies and cancels offline, under ids it makes itself (UUIDs), so a push sent twice
// opens one ticket and appends each reply once. Messages are never edited, so the merge rule
// is a union: replies the server does not hold are appended in the device's order. A reply or
// a cancel that reaches a closed ticket is not taken: the device gets the master state back,
// where the reply is absent (docs/sync.md).
import {
  decodeLossless,
  type SyncPushRow,
  type SyncTicket,
  TICKET_MESSAGE_MAX,
  type TicketStatus,
  ZTicketCreate,
} from '@campo/shared';
import type { AuthContext } from '../auth/claims.ts';
import type { Db } from '../db/kysely.ts';
import { scopeOf, type Tx, withScope } from '../db/scope.ts';
import { fieldErrors, HttpProblem, problems, validationProblem } from '../http/problem.ts';
import type { SyncDoc } from '../sync/changelog.ts';
import * as q from './queries.ts';
import { closeTicket, createTicket, replyTicket } from './service.ts';

const iso = (d: Date | string) => new Date(d).toISOString();

export async function loadTicketDocs(tx: Tx, idEmpresa: number, chaves: string[] | null): Promise<SyncDoc[]> {
  const ids = chaves === null ? null : chaves.map(Number).filter(Number.isSafeInteger);
  const tickets = await q.selectTenantTickets(tx, idEmpresa, ids);
  const messages = await q.selectTenantMessages(
    tx,
    idEmpresa,
    tickets.map((t) => t.id),
  );
  const byTicket = new Map<number, SyncTicket['mensagens']>();
  for (const m of messages) {
    const list = byTicket.get(m.id_chamado) ?? [];
    list.push({
      id: m.chave ?? `msg-${m.id}`,
      autorTipo: m.autor_tipo as 'representante' | 'empresa',
      autorNome: m.autor_nome,
      texto: decodeLossless(m.texto),
      criadoEm: iso(m.criado_em),
    });
    byTicket.set(m.id_chamado, list);
  }
  return tickets.map((t) => {
    const doc: SyncTicket = {
      id: t.chave ?? `chamado-${t.id}`,
      idChamado: t.id,
      idPedido: t.id_pedido,
      numPedSar: t.num_ped_sar,
      numPedErp: t.num_ped_erp,
      idCliente: t.id_cliente,
      nomeCliente: t.nome_cliente,
      assunto: decodeLossless(t.assunto),
      status: t.status as TicketStatus,
      mensagens: byTicket.get(t.id) ?? [],
      criadoEm: iso(t.criado_em),
      atualizadoEm: iso(t.atualizado_em),
      _deleted: false,
    };
    return { chave: String(t.id), escopo: t.cod_vendedor, documento: doc.id, doc };
  });
}

async function ticketOfKey(db: Db, auth: AuthContext, key: string): Promise<number | null> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const found = await q.selectTicketByKey(tx, auth.idEmpresa, key);
    if (found && found.cod_vendedor !== auth.codVendedor) {
      throw problems.forbidden('Este documento pertence a outro representante.');
    }
    return found?.id ?? null;
  });
}

async function master(db: Db, auth: AuthContext, id: number): Promise<SyncTicket> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const [doc] = await loadTicketDocs(tx, auth.idEmpresa, [String(id)]);
    if (!doc) throw problems.notFound('Chamado');
    return doc.doc as SyncTicket;
  });
}

interface PushedMessage {
  id: string;
  autorTipo: string;
  texto: string;
}

function messagesOf(doc: Record<string, unknown>, ticketKey: string): PushedMessage[] {
  const list = Array.isArray(doc.mensagens) ? (doc.mensagens as unknown[]) : [];
  return list.map((m, i) => {
    const msg = (m ?? {}) as Record<string, unknown>;
    const id = typeof msg.id === 'string' ? msg.id : '';
    const texto = typeof msg.texto === 'string' ? msg.texto.trim() : '';
    if (id.length < 8 || id.length > 200 || texto.length === 0 || Array.from(texto).length > TICKET_MESSAGE_MAX) {
      throw validationProblem([{ path: `body.${ticketKey}.mensagens.${i}`, message: 'mensagem inválida' }]);
    }
    return { id, autorTipo: String(msg.autorTipo ?? 'representante'), texto };
  });
}

/** Runs an action that a closed ticket refuses; the refusal leaves the master state as it is. */
async function unlessClosed(action: () => Promise<unknown>): Promise<boolean> {
  try {
    await action();
    return true;
  } catch (err) {
    if (err instanceof HttpProblem && err.code === 'TICKET_CLOSED') return false;
    throw err;
  }
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

async function pushOne(db: Db, auth: AuthContext, row: SyncPushRow): Promise<SyncTicket> {
  const next = row.newDocumentState as Record<string, unknown>;
  const key = row.newDocumentState.id;
  const pushed = messagesOf(next, key).filter((m) => m.autorTipo === 'representante');
  let id = await ticketOfKey(db, auth, key);
  if (id === null) {
    const first = pushed.shift();
    const input = ZTicketCreate.safeParse({
      ...(typeof next.idPedido === 'number' ? { idPedido: next.idPedido } : {}),
      ...(typeof next.numPedErp === 'number' ? { numPedErp: next.numPedErp } : {}),
      assunto: next.assunto,
      mensagem: first?.texto,
    });
    if (!input.success || !first) {
      throw validationProblem(input.success ? [] : fieldErrors(input.error, `body.${key}`));
    }
    try {
      id = (await createTicket(db, auth, input.data, { ticket: key, message: first.id })).id;
    } catch (err) {
      if (!isSameKeyRace(err, 'chamados_chave_key')) throw err;
      id = await ticketOfKey(db, auth, key);
      if (id === null) throw err;
    }
  }
  const ticketId = id;
  const held = new Set((await master(db, auth, ticketId)).mensagens.map((m) => m.id));
  for (const m of pushed) {
    if (held.has(m.id)) continue;
    const reply = async () => {
      try {
        await replyTicket(db, auth, 'representative', ticketId, m.texto, m.id);
      } catch (err) {
        if (!isSameKeyRace(err, 'chamado_mensagens_chave_key')) throw err;
      }
    };
    if (!(await unlessClosed(reply))) break;
  }
  if (next.status === 'cancelado') {
    await unlessClosed(() => closeTicket(db, auth, 'representative', ticketId));
  }
  return master(db, auth, ticketId);
}

export async function pushTickets(db: Db, auth: AuthContext, rows: SyncPushRow[]) {
  const masters: SyncTicket[] = [];
  for (const row of rows) masters.push(await pushOne(db, auth, row));
  return masters;
}
