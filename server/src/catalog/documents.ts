// Collection produtos as documents: the tenant's catalog with its prices on every pauta and its
// stock, built in SQL from the ERP's views (docs/sync.md). One builder serves the refresh (the
// hash) and the pull (the JSON of the changed keys), so both always agree; the change log runs
// it (changelog/collection.ts, SqlDocuments).
import { type RawBuilder, sql } from 'kysely';
import type { DocumentRow, SqlDocuments } from '../changelog/collection.ts';

function productDocuments(idEmpresa: number, ids: number[] | null): RawBuilder<DocumentRow> {
  const only = ids === null ? sql`` : sql`and p.id_produto = any(${ids}::integer[])`;
  const onlyPrices = ids === null ? sql`` : sql`and pr.id_produto = any(${ids}::integer[])`;
  // A pauta id is only unique within an ERP company: should a branch keep one with the same
  // id, the product's own company's price wins (as in the catalog).
  return sql<DocumentRow>`
    with precos as (
      select x.id_produto,
             json_agg(json_build_object('idPauta', x.id_pauta, 'price', x.preco) order by x.id_pauta) as prices
        from (select distinct on (pr.id_produto, pr.id_pauta) pr.id_produto, pr.id_pauta, pr.preco
                from app.vw_precos pr
                join app.vw_produtos pp on pp.id_produto = pr.id_produto
               where pr.id_empresa = ${idEmpresa} ${onlyPrices}
               order by pr.id_produto, pr.id_pauta, (pr.id_filial = pp.id_filial) desc) x
       group by x.id_produto
    )
    select p.id_produto::text as chave,
           null::integer as escopo,
           p.id_produto::text as documento,
           json_build_object(
             'id', p.id_produto::text,
             'code', p.cod_produto,
             'description', p.descricao,
             'unit', p.unidade,
             'category', p.categoria,
             'grupo', p.cod_grupo,
             'grupoName', p.descricao_grupo,
             'subgrupo', p.cod_subgrupo,
             'subgrupoName', p.descricao_subgrupo,
             'image', p.imagem,
             'active', coalesce(p.ativo, false),
             'prices', coalesce(pr.prices, '[]'::json),
             'stock', st.quantidade,
             '_deleted', false) as doc
      from app.vw_produtos p
      left join precos pr on pr.id_produto = p.id_produto
      -- Stock where the ERP keeps it (optional): null is unknown, shown as nothing.
      left join app.vw_estoque st on st.id_empresa = p.id_empresa and st.id_produto = p.id_produto
     where p.id_empresa = ${idEmpresa} ${only}`;
}

export const catalogDocuments: SqlDocuments<'produtos'> = {
  colecao: 'produtos',
  documents: productDocuments,
  keys: (idEmpresa) =>
    sql<{ chave: string }>`select p.id_produto::text as chave from app.vw_produtos p where p.id_empresa = ${idEmpresa}`,
};
