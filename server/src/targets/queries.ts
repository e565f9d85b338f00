import { sql } from 'kysely';
import type { Tx } from '../db/scope.ts';

/** Active representatives of the tenant (or of one supervisor's team) with their target for the month. */
export function selectTargets(tx: Tx, idEmpresa: number, month: string, codSupervisor: number | null) {
  let q = tx
    .selectFrom('app.vw_vendedores as v')
    .leftJoin('app.metas_representante as m', (j) =>
      j
        .onRef('m.id_empresa', '=', 'v.id_empresa')
        .onRef('m.cod_vendedor', '=', 'v.cod_vendedor')
        .on('m.mes', '=', sql<string>`to_date(${month}, 'YYYY-MM')`),
    )
    .select(['v.cod_vendedor', 'v.nome', 'v.cod_supervisor', 'm.valor_meta'])
    .where('v.id_empresa', '=', idEmpresa)
    .where('v.ativo', '=', true);
  if (codSupervisor !== null) q = q.where('v.cod_supervisor', '=', codSupervisor);
  return q.orderBy('v.cod_supervisor').orderBy('v.nome').orderBy('v.cod_vendedor').execute();
}

export function selectRepCodes(tx: Tx, idEmpresa: number, codes: number[]) {
  return tx
    .selectFrom('app.vw_vendedores')
    .select('cod_vendedor')
    .where('id_empresa', '=', idEmpresa)
    .where('cod_vendedor', 'in', codes)
    .execute();
}

export async function upsertTarget(tx: Tx, idEmpresa: number, month: string, codVendedor: number, valor: number) {
  await sql`
    insert into app.metas_representante (id_empresa, cod_vendedor, mes, valor_meta)
    values (${idEmpresa}, ${codVendedor}, to_date(${month}, 'YYYY-MM'), ${valor})
    on conflict (id_empresa, cod_vendedor, mes) do update set valor_meta = excluded.valor_meta`.execute(tx);
}

export async function deleteTarget(tx: Tx, idEmpresa: number, month: string, codVendedor: number) {
  await sql`
    delete from app.metas_representante
     where id_empresa = ${idEmpresa} and cod_vendedor = ${codVendedor} and mes = to_date(${month}, 'YYYY-MM')`.execute(
    tx,
  );
}

/** Copies last month's targets to the month for representatives that have none there yet. */
export async function copyPreviousMonth(tx: Tx, idEmpresa: number, month: string) {
  const { rows } = await sql<{ copiadas: number; mantidas: number }>`
    with alvo as (select to_date(${month}, 'YYYY-MM') as mes),
    copiadas as (
      insert into app.metas_representante (id_empresa, cod_vendedor, mes, valor_meta)
      select m.id_empresa, m.cod_vendedor, alvo.mes, m.valor_meta
        from app.metas_representante m, alvo
       where m.id_empresa = ${idEmpresa}
         and m.mes = (alvo.mes - interval '1 month')::date
      on conflict (id_empresa, cod_vendedor, mes) do nothing
      returning 1
    )
    select (select count(*)::int from copiadas) as copiadas,
           (select count(*)::int from app.metas_representante m, alvo
             where m.id_empresa = ${idEmpresa} and m.mes = alvo.mes) as mantidas`.execute(tx);
  return rows[0] ?? { copiadas: 0, mantidas: 0 };
}
