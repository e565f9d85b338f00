// The pull's read of the change log. It names the tenant and, for a representative, their
// scope itself; the row-level security policies of app.sync_alteracoes are the second line.
import type { SyncCollection } from '@campo/shared';
import { sql } from 'kysely';
import type { Tx } from '../db/scope.ts';

export interface ChangeWindow {
  idEmpresa: number;
  colecao: SyncCollection;
  /** A representative reads the tenant-wide rows and their own; null: every row. */
  codVendedor: number | null;
  after: { xid: number; revisao: number };
  limit: number;
}

/**
 * Rows after the checkpoint, written by transactions that are all finished (older than the
 * oldest one in progress), in (xid, revisao) order.
 */
export function selectChanges(tx: Tx, w: ChangeWindow) {
  let query = tx
    .selectFrom('app.sync_alteracoes')
    .select(['chave', 'documento', 'xid', 'revisao', 'excluido'])
    .where('id_empresa', '=', w.idEmpresa)
    .where('colecao', '=', w.colecao)
    .where(sql<boolean>`(xid, revisao) > (${w.after.xid}::bigint, ${w.after.revisao}::bigint)`)
    .where(sql<boolean>`xid < txid_snapshot_xmin(txid_current_snapshot())`);
  const codVendedor = w.codVendedor;
  if (codVendedor !== null)
    query = query.where((eb) => eb.or([eb('escopo', 'is', null), eb('escopo', '=', codVendedor)]));
  return query.orderBy('xid').orderBy('revisao').limit(w.limit).execute();
}
