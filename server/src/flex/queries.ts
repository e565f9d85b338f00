import type { FlexMove } from '@campo/shared';
import { type RawBuilder, sql } from 'kysely';
import { collectionLockKey } from '../changelog/changelog.ts';
import { PREPARED } from '../db/prepared.ts';
import type { Tx } from '../db/scope.ts';

// Every statement here is PREPARED: an order that spends flex runs the reservation's, and the
// order's path must not plan per call (docs/orders.md, "Cost"); the others are few and cheap to
// keep so too. Their texts are fixed (a list is one array parameter).

/**
 * Queues the transaction behind every other move of this balance until it ends. The row lock of
 * the conditional update alone keeps the balance at or above zero, but its waiters do not go in
 * the order they came (each chases the row's newest version); this lock's queue does, so of
 * orders that arrive together the first to arrive spends first.
 */
export async function lockBalance(tx: Tx, idEmpresa: number, codVendedor: number): Promise<void> {
  await sql`${sql.raw(PREPARED)}select ${balanceLock(idEmpresa, codVendedor)}`.execute(tx);
}

function balanceLock(idEmpresa: number, codVendedor: number) {
  return sql`pg_advisory_xact_lock(hashtextextended(${`campo.flex:${idEmpresa}:${codVendedor}`}, 0))`;
}

/**
 * lockBalance for a new order's reservation, sent in the order's pipeline, and after it the
 * shared lock of the change log's collection ajustes, which the order's last statement writes
 * the representative's document in (the change log's rule for a touch, touchDocuments): in
 * this order, as every move of a balance takes them.
 */
export const lockOrderBalanceSql = (idEmpresa: number, codVendedor: number) =>
  sql`${sql.raw(PREPARED)}select ${balanceLock(idEmpresa, codVendedor)},
                                 pg_advisory_xact_lock_shared(hashtext(${collectionLockKey('ajustes')}), ${idEmpresa})`;

/**
 * Adds to a balance, creating its row when the representative has none yet: one statement, so
 * two credits at once both count.
 */
export async function creditBalance(tx: Tx, idEmpresa: number, codVendedor: number, valor: number): Promise<number> {
  const { rows } = await sql<{ saldo: number }>`${sql.raw(PREPARED)}
    insert into app.flex_saldos as s (id_empresa, cod_vendedor, saldo)
    values (${idEmpresa}, ${codVendedor}, ${valor})
    on conflict (id_empresa, cod_vendedor)
      do update set saldo = s.saldo + excluded.saldo, atualizado_em = now()
    returning s.saldo`.execute(tx);
  return rows[0]?.saldo as number;
}

/**
 * Takes from a balance only while it covers the amount: one conditional update, which waits for
 * a concurrent move of the same balance and then judges the balance that move left, so no
 * interleaving takes it below zero. Null when it did not cover (or there is no balance yet).
 */
export async function debitBalance(
  tx: Tx,
  idEmpresa: number,
  codVendedor: number,
  valor: number,
): Promise<number | null> {
  const { rows } = await sql<{ saldo: number }>`${sql.raw(PREPARED)}
    update app.flex_saldos
       set saldo = saldo - ${valor}, atualizado_em = now()
     where id_empresa = ${idEmpresa} and cod_vendedor = ${codVendedor} and saldo >= ${valor}
    returning saldo`.execute(tx);
  return rows[0]?.saldo ?? null;
}

/** The balance now; 0 for a representative who never had a move. */
export async function selectBalance(tx: Tx, idEmpresa: number, codVendedor: number): Promise<number> {
  const row = await tx
    .selectFrom('app.flex_saldos')
    .modifyFront(sql.raw(PREPARED))
    .select('saldo')
    .where('id_empresa', '=', idEmpresa)
    .where('cod_vendedor', '=', codVendedor)
    .executeTakeFirst();
  return row?.saldo ?? 0;
}

export interface MoveRow {
  idEmpresa: number;
  codVendedor: number;
  tipo: FlexMove;
  valor: number;
  idPedido: number | null;
  /** Stored lossless-escaped (docs/data-model.md). */
  motivo: string | null;
  criadoPor: string;
}

/**
 * Writes a ledger entry. An order's move of a kind it already made inserts nothing (the unique
 * index of migration 0017; a concurrent twin waits for the first and then inserts nothing): null.
 */
export async function insertMove(tx: Tx, m: MoveRow): Promise<{ id: number; criado_em: Date } | null> {
  const { rows } = await sql<{ id: number; criado_em: Date }>`${sql.raw(PREPARED)}
    insert into app.flex_lancamentos (id_empresa, cod_vendedor, tipo, valor, id_pedido, motivo, criado_por)
    values (${m.idEmpresa}, ${m.codVendedor}, ${m.tipo}, ${m.valor}, ${m.idPedido}, ${m.motivo}, ${m.criadoPor})
    on conflict (id_empresa, id_pedido, tipo) where id_pedido is not null do nothing
    returning id, criado_em`.execute(tx);
  return rows[0] ?? null;
}

/** Takes back an entry this transaction wrote, when the balance it claimed did not cover it. */
export async function deleteMove(tx: Tx, id: number): Promise<void> {
  await sql`${sql.raw(PREPARED)}delete from app.flex_lancamentos where id = ${id}`.execute(tx);
}

/** The order's move of this kind, if it made one. */
export function selectOrderMove(tx: Tx, idEmpresa: number, idPedido: number, tipo: FlexMove) {
  return tx
    .selectFrom('app.flex_lancamentos')
    .modifyFront(sql.raw(PREPARED))
    .select(['cod_vendedor', 'valor'])
    .where('id_empresa', '=', idEmpresa)
    .where('id_pedido', '=', idPedido)
    .where('tipo', '=', tipo)
    .executeTakeFirst();
}

/** Whose balances a list shows: one representative, one supervisor's team, or the tenant. */
export interface BalanceFilter {
  codVendedor?: number | undefined;
  codSupervisor?: number | undefined;
}

function balanceRows(tx: Tx, idEmpresa: number, f: BalanceFilter) {
  let q = tx
    .selectFrom('app.vw_vendedores as v')
    .leftJoin('app.flex_saldos as s', (j) =>
      j.onRef('s.id_empresa', '=', 'v.id_empresa').onRef('s.cod_vendedor', '=', 'v.cod_vendedor'),
    )
    .where('v.id_empresa', '=', idEmpresa)
    // An inactive representative leaves the list once nothing is left on their balance.
    .where((eb) => eb.or([eb('v.ativo', '=', true), eb('s.saldo', '>', 0)]));
  if (f.codVendedor !== undefined) q = q.where('v.cod_vendedor', '=', f.codVendedor);
  if (f.codSupervisor !== undefined) q = q.where('v.cod_supervisor', '=', f.codSupervisor);
  return q;
}

export async function selectBalances(
  tx: Tx,
  idEmpresa: number,
  f: BalanceFilter,
  page: { limit: number; offset: number },
) {
  const items = await balanceRows(tx, idEmpresa, f)
    .select([
      'v.cod_vendedor',
      'v.nome',
      'v.cod_supervisor',
      sql<number>`coalesce(s.saldo, 0)`.as('saldo'),
      // The ledger's index (id_empresa, cod_vendedor, criado_em desc) answers each one.
      sql<Date | null>`(select max(l.criado_em) from app.flex_lancamentos l
                         where l.id_empresa = v.id_empresa and l.cod_vendedor = v.cod_vendedor)`.as('ultimo'),
    ])
    .orderBy('v.nome')
    .orderBy('v.cod_vendedor')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const total = await balanceRows(tx, idEmpresa, f)
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  return { items, total: total.n };
}

/** A representative's ledger, newest first, with each order's number. */
export async function selectEntries(
  tx: Tx,
  idEmpresa: number,
  codVendedor: number,
  page: { limit: number; offset: number },
): Promise<{ items: EntryRow[]; total: number }> {
  const items = await tx
    .selectFrom('app.flex_lancamentos as l')
    .leftJoin('app.pedidos as p', (j) => j.onRef('p.id_empresa', '=', 'l.id_empresa').onRef('p.id', '=', 'l.id_pedido'))
    .select([
      'l.id',
      'l.cod_vendedor',
      'l.tipo',
      'l.valor',
      'l.id_pedido',
      'p.num_ped_sar',
      'l.motivo',
      'l.criado_por',
      'l.criado_em',
    ])
    .where('l.id_empresa', '=', idEmpresa)
    .where('l.cod_vendedor', '=', codVendedor)
    .orderBy('l.criado_em', 'desc')
    .orderBy('l.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const total = await tx
    .selectFrom('app.flex_lancamentos')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('id_empresa', '=', idEmpresa)
    .where('cod_vendedor', '=', codVendedor)
    .executeTakeFirstOrThrow();
  return { items, total: total.n };
}

/** A ledger entry with its order's number, as the ledger's page and the device's document show it. */
export interface EntryRow {
  id: number;
  cod_vendedor: number;
  tipo: string;
  valor: number;
  id_pedido: number | null;
  num_ped_sar: number | null;
  motivo: string | null;
  criado_por: string;
  criado_em: Date;
}

/**
 * The balance of every representative of the tenant (or of those given), 0 without a row:
 * one document each, as the ceilings have.
 */
export async function selectSyncBalances(tx: Tx, idEmpresa: number, codVendedores: number[] | null) {
  const { rows } = await sql<{ cod_vendedor: number; saldo: number }>`${sql.raw(PREPARED)}
    select v.cod_vendedor, coalesce(s.saldo, 0) as saldo
      from app.vw_vendedores v
      left join app.flex_saldos s on s.id_empresa = v.id_empresa and s.cod_vendedor = v.cod_vendedor
     where v.id_empresa = ${idEmpresa} and v.cod_vendedor is not null
       ${codVendedores === null ? sql`` : sql`and v.cod_vendedor = any(${codVendedores}::integer[])`}
     order by v.cod_vendedor`.execute(tx);
  return rows;
}

/**
 * The latest `perRep` entries of every representative with a balance row (every one with an
 * entry has one) or of those given, newest first per representative, in one statement: the
 * ledger's index (id_empresa, cod_vendedor, criado_em desc) serves each one's latest.
 */
export async function selectSyncEntries(
  tx: Tx,
  idEmpresa: number,
  codVendedores: number[] | null,
  perRep: number,
): Promise<EntryRow[]> {
  const { rows } = await sql<EntryRow>`${sql.raw(PREPARED)}
    select l.id, l.cod_vendedor, l.tipo, l.valor, l.id_pedido, p.num_ped_sar, l.motivo, l.criado_por, l.criado_em
      from app.flex_saldos s
     cross join lateral (
           select x.id, x.cod_vendedor, x.tipo, x.valor, x.id_pedido, x.motivo, x.criado_por, x.criado_em
             from app.flex_lancamentos x
            where x.id_empresa = s.id_empresa and x.cod_vendedor = s.cod_vendedor
            order by x.criado_em desc, x.id desc
            limit ${perRep}) l
      left join app.pedidos p on p.id_empresa = ${idEmpresa} and p.id = l.id_pedido
     where s.id_empresa = ${idEmpresa}
       ${codVendedores === null ? sql`` : sql`and s.cod_vendedor = any(${codVendedores}::integer[])`}
     order by l.cod_vendedor, l.criado_em desc, l.id desc`.execute(tx);
  return rows;
}

/**
 * What an order's reservation answers: one row per entry it read (each of the representative's
 * latest entries before its own), or one with the entry's columns null when there is none.
 */
export type OrderReservationRow = { [K in keyof EntryRow]: EntryRow[K] | null } & {
  /** The balance after the debit, or now when it did not cover. */
  saldo: number;
  /** The reservation's entry; null when the balance did not cover it (nothing moved). */
  novo_id: number | null;
  novo_em: Date | null;
  /** The representative's document as the change log holds it (its stored JSON); null: none logged. */
  documento: string | null;
};

/**
 * A new order's reservation in one statement, sent behind lockOrderBalanceSql: the conditional
 * debit, then its entry, written only when the debit passed, so one that does not cover moves
 * nothing; and, for the representative's document, the one the change log holds (`chave`), or,
 * when none is logged, their latest `perRep` entries before it with each order's number. Every
 * move writes the document in its transaction and the collection's shared lock is held, so the
 * logged one is the ledger's latest entries as the loader builds them: one row read instead of
 * fifty and their orders. The order's id is its own, drawn in its transaction, so no other
 * reservation can name it: the entry needs no claim before the debit (the generic path's
 * insertMove), and a repeat is a unique violation, never a silent second debit. Its own
 * statement after the lock's, not one with it: a statement reads from the snapshot it started
 * with, and would miss the entries of the move it waited for.
 */
export function reserveForOrderSql(m: {
  idEmpresa: number;
  codVendedor: number;
  idPedido: number;
  valor: number;
  criadoPor: string;
  /** The representative's document's key in the change log (collection ajustes). */
  chave: string;
  perRep: number;
}): RawBuilder<OrderReservationRow> {
  const empresa = sql`${m.idEmpresa}::integer`;
  const vendedor = sql`${m.codVendedor}::integer`;
  return sql<OrderReservationRow>`${sql.raw(PREPARED)}
    with debito as (
      update app.flex_saldos
         set saldo = saldo - ${m.valor}::numeric, atualizado_em = now()
       where id_empresa = ${empresa} and cod_vendedor = ${vendedor} and saldo >= ${m.valor}::numeric
      returning saldo),
    novo as (
      insert into app.flex_lancamentos (id_empresa, cod_vendedor, tipo, valor, id_pedido, motivo, criado_por)
      select ${empresa}, ${vendedor}, 'reserva', -${m.valor}::numeric, ${m.idPedido}::bigint, null, ${m.criadoPor}::text
        from debito
      returning id, criado_em)
    select coalesce((select d.saldo from debito d),
                    (select s.saldo from app.flex_saldos s where s.id_empresa = ${empresa} and s.cod_vendedor = ${vendedor}),
                    0) as saldo,
           n.id as novo_id, n.criado_em as novo_em, g.dados as documento,
           l.id, l.cod_vendedor, l.tipo, l.valor, l.id_pedido, p.num_ped_sar, l.motivo, l.criado_por, l.criado_em
      from (select 1) um
      left join novo n on true
      -- Read only when it moved: a refusal needs the balance alone.
      left join app.sync_alteracoes g
             on n.id is not null and g.id_empresa = ${empresa} and g.colecao = 'ajustes' and g.chave = ${m.chave}::text
            and not g.excluido and g.dados is not null
      left join lateral (
            select x.id, x.cod_vendedor, x.tipo, x.valor, x.id_pedido, x.motivo, x.criado_por, x.criado_em
              from app.flex_lancamentos x
             where n.id is not null and g.dados is null and x.id_empresa = ${empresa} and x.cod_vendedor = ${vendedor}
             order by x.criado_em desc, x.id desc
             limit ${m.perRep}::integer) l on true
      left join app.pedidos p on p.id_empresa = ${empresa} and p.id = l.id_pedido
     order by l.criado_em desc, l.id desc`;
}
