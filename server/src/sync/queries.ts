// The pull's read of the change log. It names the tenant and, for a representative, their
// scope itself; the row-level security policies of app.sync_alteracoes are the second line.
// Prepared, like page.ts's short pages: most pulls read a few rows, and planning these
// statements on every pull cost more than running them.
import type { SyncServedCollection } from '@campo/shared';
import { sql } from 'kysely';
import { PREPARED } from '../db/prepared.ts';
import { type Tx, WRITER_LOCK_NS } from '../db/scope.ts';

/**
 * selectHorizon's value as a scalar subquery, for statements that read it with other things
 * (page.ts). pg_locks is read once: each reading copies PostgreSQL's whole lock table, the
 * costliest part of a pull that finds nothing new.
 */
export const HORIZON_SQL = `(with s as (select txid_snapshot_xmax(txid_current_snapshot()) as xmax),
    l as materialized (
      select pid, locktype, classid, objsubid, database, transactionid, granted
        from pg_locks where locktype in ('advisory', 'transactionid')),
    w as (
      select t.transactionid::text::bigint as x32
        from l r
        join l t on t.pid = r.pid and t.locktype = 'transactionid' and t.granted
       where r.locktype = 'advisory' and r.objsubid = 2 and r.classid = ${WRITER_LOCK_NS}::oid
         and r.database = (select oid from pg_database where datname = current_database()))
    select least(s.xmax, min(case when w.x32 <= (s.xmax & 4294967295) then ((s.xmax >> 32) << 32) | w.x32
                                  else (((s.xmax >> 32) - 1) << 32) | w.x32 end))
      from s left join w on true
     group by s.xmax)`;

/**
 * Below which transaction id the pull may answer, read in its own statement *before* the one
 * that reads the change log (so before that statement's snapshot): the oldest transaction id
 * still in progress among Campo's transactions (registered under WRITER_LOCK_NS by withScope;
 * a transaction that holds an xid holds a lock on it, which pg_locks shows to every role),
 * and at most the next id to be assigned. Every transaction below it had finished when it was
 * read, so the later snapshot sees all it committed; a transaction that takes an id afterwards
 * is at or above it and waits for the next pull. Extended to 64 bits like txid_current().
 */
export async function selectHorizon(tx: Tx): Promise<number> {
  const { rows } = await sql<{
    horizon: string;
  }>`${sql.raw(PREPARED)}select ${sql.raw(HORIZON_SQL)}::text as horizon`.execute(tx);
  return Number(rows[0]?.horizon);
}

export interface ChangeWindow {
  idEmpresa: number;
  colecao: SyncServedCollection;
  /** A representative reads the tenant-wide rows and their own; null: every row. */
  codVendedor: number | null;
  /** Only the tenant-wide rows (escopo null), whoever asks. */
  tenantWideOnly?: boolean;
  after: { xid: number; revisao: number };
  limit: number;
  /** From selectHorizon, read before. */
  horizon: number;
}

/**
 * Rows after the checkpoint written by transactions older than every Campo transaction still
 * in progress, in (xid, revisao) order.
 */
export function selectChanges(tx: Tx, w: ChangeWindow) {
  let query = tx
    .selectFrom('app.sync_alteracoes')
    .modifyFront(sql.raw(PREPARED))
    .select(['chave', 'documento', 'xid', 'revisao', 'excluido', 'dados'])
    .where('id_empresa', '=', w.idEmpresa)
    .where('colecao', '=', w.colecao)
    .where(sql<boolean>`(xid, revisao) > (${w.after.xid}::bigint, ${w.after.revisao}::bigint)`)
    .where('xid', '<', w.horizon);
  const codVendedor = w.codVendedor;
  if (w.tenantWideOnly) query = query.where('escopo', 'is', null);
  else if (codVendedor !== null)
    query = query.where((eb) => eb.or([eb('escopo', 'is', null), eb('escopo', '=', codVendedor)]));
  return query.orderBy('xid').orderBy('revisao').limit(w.limit).execute();
}

/**
 * Whether rows after the checkpoint are held back by a transaction still in progress: the
 * pull then waits for it rather than answer a short page that would tell the device it is up
 * to date.
 */
export async function changesHeldBack(tx: Tx, w: ChangeWindow): Promise<boolean> {
  let query = tx
    .selectFrom('app.sync_alteracoes')
    .modifyFront(sql.raw(PREPARED))
    .select('chave')
    .where('id_empresa', '=', w.idEmpresa)
    .where('colecao', '=', w.colecao)
    .where(sql<boolean>`(xid, revisao) > (${w.after.xid}::bigint, ${w.after.revisao}::bigint)`)
    .where('xid', '>=', w.horizon);
  if (w.tenantWideOnly) query = query.where('escopo', 'is', null);
  else if (w.codVendedor !== null) {
    const cod = w.codVendedor;
    query = query.where((eb) => eb.or([eb('escopo', 'is', null), eb('escopo', '=', cod)]));
  }
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}
