// Every SQL statement of the notifications domain. Request-side statements run inside
// withScope (tenant set, row-level security in force); the worker's run in its own
// transaction, which sets the tenant of each outbox row before touching that row's data.
import { type RawBuilder, sql } from 'kysely';
import { PREPARED } from '../db/prepared.ts';
import type { Tx } from '../db/scope.ts';
import { currentRequestId } from '../log.ts';

/** How many devices one login may keep registered; the oldest registration goes first. */
export const DEVICES_PER_USER_MAX = 10;

// Subscriptions --------------------------------------------------------------------------

/** Removes the endpoint's registration in other tenants (see app.push_liberar_endpoint). */
export async function releaseEndpointElsewhere(tx: Tx, endpoint: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select app.push_liberar_endpoint(${endpoint}) as n`.execute(tx);
  return rows[0]?.n ?? 0;
}

export async function upsertSubscription(
  tx: Tx,
  s: { idEmpresa: number; login: string; endpoint: string; p256dh: string; auth: string; userAgent: string | null },
): Promise<{ criadoEm: Date; inserted: boolean }> {
  // criado_em is when the device last (re)registered: the device cap keeps the most recent.
  return tx
    .insertInto('app.push_inscricoes')
    .values({
      id_empresa: s.idEmpresa,
      usuario: s.login,
      endpoint: s.endpoint,
      p256dh: s.p256dh,
      auth: s.auth,
      user_agent: s.userAgent,
    })
    .onConflict((oc) =>
      oc.column('endpoint').doUpdateSet((eb) => ({
        usuario: eb.ref('excluded.usuario'),
        p256dh: eb.ref('excluded.p256dh'),
        auth: eb.ref('excluded.auth'),
        user_agent: eb.ref('excluded.user_agent'),
        criado_em: sql`now()`,
      })),
    )
    .returning(['criado_em as criadoEm', sql<boolean>`(xmax = 0)`.as('inserted')])
    .executeTakeFirstOrThrow();
}

/** Drops the login's oldest registrations beyond the cap. */
export async function trimDevices(tx: Tx, idEmpresa: number, login: string, keep: number): Promise<number> {
  const result = await tx
    .deleteFrom('app.push_inscricoes')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('app.push_inscricoes')
        .select('id')
        .where('id_empresa', '=', idEmpresa)
        .where('usuario', '=', login)
        .orderBy('criado_em', 'desc')
        .orderBy('id', 'desc')
        .offset(keep),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteOwnSubscription(
  tx: Tx,
  idEmpresa: number,
  login: string,
  endpoint: string,
): Promise<number> {
  const result = await tx
    .deleteFrom('app.push_inscricoes')
    .where('id_empresa', '=', idEmpresa)
    .where('usuario', '=', login)
    .where('endpoint', '=', endpoint)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

// The pending-approval badge ----------------------------------------------------------------

/**
 * Orders awaiting approval (situa 1) of the tenant, or of one supervisor's representatives.
 * Every approver's app polls it: prepared, as planning the team view cost more than counting.
 */
export async function countPendingOrders(tx: Tx, idEmpresa: number, codSupervisor: number | null): Promise<number> {
  let query = tx
    .selectFrom('app.pedidos as p')
    .modifyFront(sql.raw(PREPARED))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('p.id_empresa', '=', idEmpresa)
    .where('p.situa', '=', 1);
  if (codSupervisor !== null) {
    query = query.where('p.cod_vendedor', 'in', (eb) =>
      eb
        .selectFrom('app.vw_vendedores as v')
        .select('v.cod_vendedor')
        .where('v.id_empresa', '=', idEmpresa)
        .where('v.cod_supervisor', '=', codSupervisor),
    );
  }
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

// Recipients --------------------------------------------------------------------------------

/** Active supervisor logins of the tenant who supervise the representative (in any of its ERP companies). */
export async function supervisorLoginsOf(tx: Tx, idEmpresa: number, codVendedor: number): Promise<string[]> {
  const rows = await tx
    .selectFrom('app.usuarios as u')
    .select('u.login')
    .where('u.id_empresa', '=', idEmpresa)
    .where('u.papel', '=', 'supervisor')
    .where('u.ativo', '=', true)
    .where('u.cod_supervisor', 'in', (eb) =>
      eb
        .selectFrom('app.vw_vendedores as v')
        .select('v.cod_supervisor')
        .where('v.id_empresa', '=', idEmpresa)
        .where('v.cod_vendedor', '=', codVendedor)
        .where('v.cod_supervisor', 'is not', null),
    )
    .orderBy('u.login')
    .execute();
  return rows.map((r) => r.login);
}

export async function managerLogins(tx: Tx, idEmpresa: number): Promise<string[]> {
  const rows = await tx
    .selectFrom('app.usuarios')
    .select('login')
    .where('id_empresa', '=', idEmpresa)
    .where('papel', '=', 'manager')
    .where('ativo', '=', true)
    .orderBy('login')
    .execute();
  return rows.map((r) => r.login);
}

export async function representativeLogins(tx: Tx, idEmpresa: number, codVendedor: number): Promise<string[]> {
  const rows = await tx
    .selectFrom('app.usuarios')
    .select('login')
    .where('id_empresa', '=', idEmpresa)
    .where('papel', '=', 'representative')
    .where('cod_vendedor', '=', codVendedor)
    .where('ativo', '=', true)
    .orderBy('login')
    .execute();
  return rows.map((r) => r.login);
}

/**
 * Who hears of a new order, as select-list items (`nome_vendedor`, `aprovadores`) the
 * order's context statement reads with the rest (one round trip less on every order): the
 * representative's name, and the approvers (approverLogins: the representative's
 * supervisors, then the tenant's managers) that have at least one registered device.
 */
export function pendingApprovalAudienceItems(idEmpresa: number, codVendedor: number) {
  return sql<PendingApprovalAudience>`
    (select v.nome from app.vw_vendedores v
      where v.id_empresa = ${idEmpresa} and v.cod_vendedor = ${codVendedor}
      order by v.id_filial limit 1) as nome_vendedor,
    array(select u.login
            from app.usuarios u
           where u.id_empresa = ${idEmpresa} and u.ativo
             and (u.papel = 'manager'
                  or (u.papel = 'supervisor'
                      and u.cod_supervisor in (select v.cod_supervisor from app.vw_vendedores v
                                                where v.id_empresa = ${idEmpresa}
                                                  and v.cod_vendedor = ${codVendedor})))
             and exists (select 1 from app.push_inscricoes i
                          where i.id_empresa = ${idEmpresa} and i.usuario = u.login)
           order by u.papel = 'manager', u.login) as aprovadores`;
}

export interface PendingApprovalAudience {
  nome_vendedor: string | null;
  aprovadores: string[];
}

/** pendingApprovalAudienceItems in a prepared statement of its own. */
export async function selectPendingApprovalAudience(
  tx: Tx,
  idEmpresa: number,
  codVendedor: number,
): Promise<PendingApprovalAudience> {
  const { rows } = await sql<PendingApprovalAudience>`${sql.raw(PREPARED)}
    select ${pendingApprovalAudienceItems(idEmpresa, codVendedor)}`.execute(tx);
  return rows[0] ?? { nome_vendedor: null, aprovadores: [] };
}

/** The given logins that have at least one registered device in the tenant. */
export async function loginsWithDevices(tx: Tx, idEmpresa: number, logins: string[]): Promise<string[]> {
  if (logins.length === 0) return [];
  const rows = await tx
    .selectFrom('app.push_inscricoes')
    .select('usuario')
    .distinct()
    .where('id_empresa', '=', idEmpresa)
    .where('usuario', 'in', logins)
    .execute();
  return rows.map((r) => r.usuario);
}

// The outbox --------------------------------------------------------------------------------

/** RFC 8030 Urgency: how soon the push service should wake the device. */
export type PushUrgency = 'very-low' | 'low' | 'normal' | 'high';

export interface OutboxInsert {
  idEmpresa: number;
  login: string;
  payload: Buffer;
  topic: string | null;
  urgency: PushUrgency;
  ttl: number;
}

/**
 * insertOutbox as a statement to run inside another one (a CTE of the order's last
 * statement), every row with the same message: `payload`, an expression of that statement.
 * Rows must not be empty.
 */
export function outboxInsertSql(
  rows: readonly Omit<OutboxInsert, 'payload'>[],
  payload: RawBuilder<Buffer>,
): RawBuilder<{ id: number }> {
  const col = <K extends keyof Omit<OutboxInsert, 'payload'>>(k: K) => rows.map((r) => r[k]);
  return sql<{ id: number }>`
    insert into app.push_outbox (id_empresa, usuario, payload, topico, urgencia, ttl, id_requisicao)
    select o.id_empresa, o.usuario, ${payload}, o.topico, o.urgencia, o.ttl, ${currentRequestId() ?? null}
      from unnest(${col('idEmpresa')}::integer[], ${col('login')}::text[], ${col('topic')}::text[],
                  ${col('urgency')}::text[], ${col('ttl')}::integer[])
           as o(id_empresa, usuario, topico, urgencia, ttl)
    returning id`;
}

export async function insertOutbox(tx: Tx, rows: OutboxInsert[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const inserted = await tx
    .insertInto('app.push_outbox')
    .values(
      rows.map((r) => ({
        id_empresa: r.idEmpresa,
        usuario: r.login,
        payload: r.payload,
        topico: r.topic,
        urgencia: r.urgency,
        ttl: r.ttl,
        // The worker's lines about this message name the request that caused it.
        id_requisicao: currentRequestId() ?? null,
      })),
    )
    .returning('id')
    .execute();
  return inserted.map((r) => r.id);
}

export type OutboxRow = {
  id: number;
  id_empresa: number;
  usuario: string;
  payload: Buffer;
  topico: string | null;
  urgencia: PushUrgency;
  ttl: number;
  tentativas: number;
  endpoints_pendentes: string[] | null;
  entregas: number;
  criado_em: Date;
  id_requisicao: string | null;
};

/** Locks and returns up to `limit` due rows of every tenant, for this transaction (app.push_outbox_reservar). */
export async function claimDue(tx: Tx, limit: number): Promise<OutboxRow[]> {
  const { rows } = await sql<OutboxRow>`
    select id, id_empresa, usuario, payload, topico, urgencia, ttl, tentativas, endpoints_pendentes, entregas, criado_em,
           id_requisicao
      from app.push_outbox_reservar(${limit})`.execute(tx);
  return rows;
}

export interface DeviceRow {
  id: number;
  usuario: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** The registered devices of some logins of the tenant set on the transaction. */
export async function devicesOf(tx: Tx, idEmpresa: number, logins: string[]): Promise<DeviceRow[]> {
  if (logins.length === 0) return [];
  return tx
    .selectFrom('app.push_inscricoes')
    .select(['id', 'usuario', 'endpoint', 'p256dh', 'auth'])
    .where('id_empresa', '=', idEmpresa)
    .where('usuario', 'in', logins)
    .orderBy('id')
    .execute();
}

/** Forgets a device its push service says is gone (404/410), whoever holds it now. */
export async function deleteDevice(tx: Tx, idEmpresa: number, endpoint: string): Promise<void> {
  await tx
    .deleteFrom('app.push_inscricoes')
    .where('id_empresa', '=', idEmpresa)
    .where('endpoint', '=', endpoint)
    .execute();
}

export type OutboxOutcome =
  | { kind: 'sent'; delivered: number; error: string | null }
  | { kind: 'retry'; delivered: number; error: string; pending: string[]; at: Date }
  | { kind: 'failed'; delivered: number; error: string };

export async function recordOutcome(tx: Tx, id: number, outcome: OutboxOutcome): Promise<void> {
  const base = {
    tentativas: sql<number>`tentativas + 1`,
    entregas: sql<number>`entregas + ${outcome.delivered}`,
    ultimo_erro: outcome.error,
  };
  const set =
    outcome.kind === 'sent'
      ? { ...base, enviado_em: sql<Date>`now()`, endpoints_pendentes: null }
      : outcome.kind === 'failed'
        ? { ...base, falhou_em: sql<Date>`now()` }
        : { ...base, proxima_tentativa_em: outcome.at, endpoints_pendentes: outcome.pending };
  await tx.updateTable('app.push_outbox').set(set).where('id', '=', id).execute();
}

/** Deletes finished rows older than `days`, in every tenant (app.push_outbox_limpar). */
export async function purgeFinished(tx: Tx, days: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`select app.push_outbox_limpar(${days}) as n`.execute(tx);
  return rows[0]?.n ?? 0;
}
