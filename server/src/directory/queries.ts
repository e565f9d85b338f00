// Every statement of the directory reads. Each names the tenant: the ERP views carry no policy
// of their own beyond the scope settings, and the filter is written anyway (defence in depth).
import type { Tx } from '../db/scope.ts';

export function selectReps(tx: Tx, idEmpresa: number, codSupervisor: number | null) {
  let q = tx
    .selectFrom('app.vw_vendedores')
    .select(['cod_vendedor', 'nome', 'cod_supervisor', 'ativo'])
    .where('id_empresa', '=', idEmpresa);
  if (codSupervisor !== null) q = q.where('cod_supervisor', '=', codSupervisor);
  return q.orderBy('nome').orderBy('cod_vendedor').execute();
}

/** One representative of the tenant, with their supervisor: what a reach check or a name needs. */
export function selectRep(tx: Tx, idEmpresa: number, codVendedor: number) {
  return tx
    .selectFrom('app.vw_vendedores')
    .select(['cod_vendedor', 'nome', 'cod_supervisor', 'ativo'])
    .where('id_empresa', '=', idEmpresa)
    .where('cod_vendedor', '=', codVendedor)
    .executeTakeFirst();
}

export function selectSupervisors(tx: Tx, idEmpresa: number) {
  return tx
    .selectFrom('app.vw_supervisores')
    .select(['cod_supervisor', 'nome', 'ativo'])
    .where('id_empresa', '=', idEmpresa)
    .orderBy('nome')
    .orderBy('cod_supervisor')
    .execute();
}

// A tenant's branches may each list the same pauta: it is one price list, listed once.
export function selectPautas(tx: Tx, idEmpresa: number) {
  return tx
    .selectFrom('app.vw_pautas')
    .select(['id_pauta', 'descricao', 'ativo'])
    .distinctOn('id_pauta')
    .where('id_empresa', '=', idEmpresa)
    .orderBy('id_pauta')
    .orderBy('ativo', 'desc')
    .execute();
}

export function selectPautaExists(tx: Tx, idEmpresa: number, idPauta: number) {
  return tx
    .selectFrom('app.vw_pautas')
    .select('id_pauta')
    .where('id_empresa', '=', idEmpresa)
    .where('id_pauta', '=', idPauta)
    .limit(1)
    .executeTakeFirst();
}
