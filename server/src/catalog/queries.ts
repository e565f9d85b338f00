// Every SQL statement of the catalog. Each names the tenant itself; the scope settings of
// withScope are the second line of defence.
//
// Rules in force are read from app.regras_desconto with the business date the service passes
// (the server's clock in America/Sao_Paulo), not through app.vw_regras_vigentes: that view
// decides with the database session's current_date, which is UTC on most servers and so a
// day ahead of São Paulo from 21:00 on. The commercial-policy routes judge the same way.
import type { SearchTerm } from '@campo/shared';
import type { ExpressionBuilder } from 'kysely';
import { folded, matchesEveryTerm } from '../clients/search.ts';
import type { Tx } from '../db/scope.ts';
import type { DB } from '../db/types.ts';

export interface CatalogFilters {
  terms: SearchTerm[];
  grupo?: number | undefined;
  subgrupo?: number | undefined;
}

/** Who and when a rule must reach to count for a caller. */
export interface RuleReach {
  idEmpresa: number;
  /** Business date, YYYY-MM-DD. */
  today: string;
  /** The representative asking; null for other roles, who get only rules for every representative. */
  codVendedor: number | null;
}

type ProductEb = ExpressionBuilder<DB, 'app.vw_produtos'>;

function catalogFilter(eb: ProductEb, idEmpresa: number, f: CatalogFilters) {
  const conditions = [eb('app.vw_produtos.id_empresa', '=', idEmpresa), eb('app.vw_produtos.ativo', '=', true)];
  if (f.terms.length > 0) {
    const description = eb.ref('app.vw_produtos.descricao');
    const code = eb.ref('app.vw_produtos.cod_produto');
    conditions.push(matchesEveryTerm(eb, f.terms, [description, code], [code]));
  }
  if (f.grupo !== undefined) conditions.push(eb('app.vw_produtos.cod_grupo', '=', f.grupo));
  if (f.subgrupo !== undefined) conditions.push(eb('app.vw_produtos.cod_subgrupo', '=', f.subgrupo));
  return eb.and(conditions);
}

/** The tenant's first price list: the lowest id among the active ones, else among all. */
export function selectDefaultPauta(tx: Tx, idEmpresa: number) {
  return tx
    .selectFrom('app.vw_pautas')
    .select(['id_pauta'])
    .where('id_empresa', '=', idEmpresa)
    .orderBy('ativo', 'desc')
    .orderBy('id_pauta')
    .limit(1)
    .executeTakeFirst();
}

export function selectPauta(tx: Tx, idEmpresa: number, idPauta: number) {
  return tx
    .selectFrom('app.vw_pautas')
    .select(['id_pauta'])
    .where('id_empresa', '=', idEmpresa)
    .where('id_pauta', '=', idPauta)
    .limit(1)
    .executeTakeFirst();
}

export async function countCatalog(tx: Tx, idEmpresa: number, filters: CatalogFilters): Promise<number> {
  const row = await tx
    .selectFrom('app.vw_produtos')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where((eb) => catalogFilter(eb, idEmpresa, filters))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export function selectCatalogPage(
  tx: Tx,
  idEmpresa: number,
  filters: CatalogFilters,
  idPauta: number | null,
  limit: number,
  offset: number,
) {
  return (
    tx
      .selectFrom('app.vw_produtos')
      .select((eb) => [
        'app.vw_produtos.id_produto',
        'app.vw_produtos.cod_produto',
        'app.vw_produtos.descricao',
        'app.vw_produtos.unidade',
        'app.vw_produtos.categoria',
        'app.vw_produtos.cod_grupo',
        'app.vw_produtos.descricao_grupo',
        'app.vw_produtos.cod_subgrupo',
        'app.vw_produtos.descricao_subgrupo',
        'app.vw_produtos.imagem',
        (idPauta === null
          ? eb.val<number | null>(null)
          : // A price list id is only unique within an ERP company: should a branch keep one
            // with the same id, the product's own company's price wins.
            eb
              .selectFrom('app.vw_precos as pr')
              .select('pr.preco')
              .whereRef('pr.id_produto', '=', 'app.vw_produtos.id_produto')
              .where('pr.id_empresa', '=', idEmpresa)
              .where('pr.id_pauta', '=', idPauta)
              .orderBy((ob) => ob('pr.id_filial', '=', ob.ref('app.vw_produtos.id_filial')), 'desc')
              .limit(1)
        ).as('preco'),
      ])
      .where((eb) => catalogFilter(eb, idEmpresa, filters))
      // Folded, so that accented descriptions sort among their letter (C collation).
      .orderBy((eb) => folded(eb, eb.ref('app.vw_produtos.descricao')))
      .orderBy('app.vw_produtos.id_produto')
      .limit(limit)
      .offset(offset)
      .execute()
  );
}

export type CatalogRow = Awaited<ReturnType<typeof selectCatalogPage>>[number];

/**
 * Every rule in force for the caller, on any price list and for any product: a tenant keeps a
 * handful, so the service matches them to products itself.
 */
export function selectRulesInForce(tx: Tx, reach: RuleReach) {
  return tx
    .selectFrom('app.regras_desconto as r')
    .select((eb) => [
      'r.id',
      'r.descricao',
      'r.grupo',
      'r.subgrupo',
      'r.id_pauta',
      'r.percent',
      eb.fn<string>('to_char', [eb.ref('r.vigencia_inicio'), eb.val('YYYY-MM-DD')]).as('vigencia_inicio'),
      eb.fn<string | null>('to_char', [eb.ref('r.vigencia_fim'), eb.val('YYYY-MM-DD')]).as('vigencia_fim'),
      'r.promocao',
    ])
    .where((eb) =>
      eb.and([
        eb('r.id_empresa', '=', reach.idEmpresa),
        eb('r.vigencia_inicio', '<=', reach.today),
        eb.or([eb('r.vigencia_fim', 'is', null), eb('r.vigencia_fim', '>=', reach.today)]),
        reach.codVendedor === null
          ? eb('r.representante', 'is', null)
          : eb.or([eb('r.representante', 'is', null), eb('r.representante', '=', reach.codVendedor)]),
      ]),
    )
    .orderBy('r.percent', 'desc')
    .orderBy('r.id')
    .execute();
}

export type RuleRow = Awaited<ReturnType<typeof selectRulesInForce>>[number];

export function selectProduct(tx: Tx, idEmpresa: number, idProduto: number) {
  return tx
    .selectFrom('app.vw_produtos')
    .select([
      'id_produto',
      'cod_produto',
      'descricao',
      'unidade',
      'categoria',
      'cod_grupo',
      'descricao_grupo',
      'cod_subgrupo',
      'descricao_subgrupo',
      'imagem',
      'ean',
      'peso_kg',
      'ativo',
      'atualizado_em',
    ])
    .where('id_empresa', '=', idEmpresa)
    .where('id_produto', '=', idProduto)
    .executeTakeFirst();
}

export type ProductRow = NonNullable<Awaited<ReturnType<typeof selectProduct>>>;

/** What the ERP keeps as the product's image (a path or a URL), when the tenant has the product. */
export function selectProductImage(tx: Tx, idEmpresa: number, idProduto: number) {
  return tx
    .selectFrom('app.vw_produtos')
    .select(['imagem'])
    .where('id_empresa', '=', idEmpresa)
    .where('id_produto', '=', idProduto)
    .executeTakeFirst();
}

export function selectProductPrices(tx: Tx, idEmpresa: number, idProduto: number) {
  return tx
    .selectFrom('app.vw_precos as pr')
    .leftJoin('app.vw_pautas as pa', (join) =>
      join.onRef('pa.id_filial', '=', 'pr.id_filial').onRef('pa.id_pauta', '=', 'pr.id_pauta'),
    )
    .select(['pr.id_pauta', 'pr.preco', 'pa.descricao', 'pa.ativo'])
    .where('pr.id_empresa', '=', idEmpresa)
    .where('pr.id_produto', '=', idProduto)
    .orderBy('pr.id_pauta')
    .execute();
}

/** How many products (and active ones) the ERP holds for the tenant right now. */
export async function countErpProducts(tx: Tx, idEmpresa: number): Promise<{ products: number; active: number }> {
  const row = await tx
    .selectFrom('app.vw_produtos')
    .select((eb) => [
      eb.fn.countAll<number>().as('products'),
      eb.fn.countAll<number>().filterWhere('ativo', '=', true).as('active'),
    ])
    .where('id_empresa', '=', idEmpresa)
    .executeTakeFirstOrThrow();
  return { products: Number(row.products), active: Number(row.active) };
}

export async function countErpPrices(tx: Tx, idEmpresa: number): Promise<number> {
  const row = await tx
    .selectFrom('app.vw_precos')
    .select((eb) => eb.fn.countAll<number>().as('prices'))
    .where('id_empresa', '=', idEmpresa)
    .executeTakeFirstOrThrow();
  return Number(row.prices);
}
