// The pull's read of the change log. It names the tenant and, for a representative, their
// scope itself; the row-level security policies of app.sync_alteracoes are the second line.
import type { SyncCollection } from '@campo/shared';
import { sql } from 'kysely';
import { type Tx, WRITER_LOCK_NS } from '../db/scope.ts';

/**
 * The oldest transaction id still in progress among Campo's transactions (registered under
 * WRITER_LOCK_NS by withScope; a transaction that holds an xid holds a lock on it, which
 * pg_locks shows to every role), extended to 64 bits like txid_current(); null when none.
 * Rows written by that transaction or later ones are not answered yet: the transaction may
 * still commit revisions below those already visible.
 */
const HORIZON = sql<number | null>`(
  with s as (select txid_snapshot_xmax(txid_current_snapshot()) as xmax),
  w as (
    select t.transactionid::text::bigint as x32
      from pg_locks r
      join pg_locks t on t.pid = r.pid and t.locktype = 'transactionid' and t.granted
     where r.locktype = 'advisory' and r.objsubid = 2 and r.classid = ${WRITER_LOCK_NS}::oid
       and r.database = (select oid from pg_database where datname = current_database()))
  select min(case when w.x32 <= (s.xmax & 4294967295) then ((s.xmax >> 32) << 32) | w.x32
                  else (((s.xmax >> 32) - 1) << 32) | w.x32 end)
    from w, s)`;

export interface ChangeWindow {
  idEmpresa: number;
  colecao: SyncCollection;
  /** A representative reads the tenant-wide rows and their own; null: every row. */
  codVendedor: number | null;
  /** Only the tenant-wide rows (escopo null), whoever asks. */
  tenantWideOnly?: boolean;
  after: { xid: number; revisao: number };
  limit: number;
}

/**
 * Rows after the checkpoint written by transactions older than every Campo transaction still
 * in progress, in (xid, revisao) order.
 */
export function selectChanges(tx: Tx, w: ChangeWindow) {
  let query = tx
    .selectFrom('app.sync_alteracoes')
    .select(['chave', 'documento', 'xid', 'revisao', 'excluido'])
    .where('id_empresa', '=', w.idEmpresa)
    .where('colecao', '=', w.colecao)
    .where(sql<boolean>`(xid, revisao) > (${w.after.xid}::bigint, ${w.after.revisao}::bigint)`)
    .where(sql<boolean>`xid < coalesce(${HORIZON}, 9223372036854775807)`);
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
    .select('chave')
    .where('id_empresa', '=', w.idEmpresa)
    .where('colecao', '=', w.colecao)
    .where(sql<boolean>`(xid, revisao) > (${w.after.xid}::bigint, ${w.after.revisao}::bigint)`)
    .where(sql<boolean>`xid >= coalesce(${HORIZON}, 9223372036854775807)`);
  if (w.tenantWideOnly) query = query.where('escopo', 'is', null);
  else if (w.codVendedor !== null) {
    const cod = w.codVendedor;
    query = query.where((eb) => eb.or([eb('escopo', 'is', null), eb('escopo', '=', cod)]));
  }
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}
