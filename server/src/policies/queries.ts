// Every SQL statement of the commercial policies. Each takes the tenant explicitly: the
// tenant filter is written in every statement, not left to the scope settings alone.
//
// Dates leave the database through to_char(..., 'YYYY-MM-DD'): a plain date column would
// arrive as a JavaScript Date at local midnight, and a cast to text follows the server's
// DateStyle, which old Brazilian ERP installations often set to 'SQL, DMY'. Dates go in as
// 'YYYY-MM-DD' strings, which PostgreSQL reads the same under every DateStyle.
import type { StoredRuleRow } from '@campo/shared';
import type { ExpressionBuilder, Insertable, Selectable } from 'kysely';
import type { Tx } from '../db/scope.ts';
import type { AppRegrasDesconto, DB } from '../db/types.ts';

type RuleEb = ExpressionBuilder<DB, 'app.regras_desconto'>;

const ruleColumns = (eb: RuleEb) =>
  [
    'id',
    'descricao',
    'grupo',
    'subgrupo',
    'representante',
    'id_pauta',
    'percent',
    eb.fn<string>('to_char', [eb.ref('vigencia_inicio'), eb.val('YYYY-MM-DD')]).as('vigencia_inicio'),
    eb.fn<string | null>('to_char', [eb.ref('vigencia_fim'), eb.val('YYYY-MM-DD')]).as('vigencia_fim'),
    'promocao',
    'criado_por',
    'criado_em',
    'atualizado_em',
  ] as const;

export interface RuleRow extends StoredRuleRow {
  criado_por: string | null;
  criado_em: Date;
  atualizado_em: Date;
}

/** What the discount engine reads of a rule row (policies' toEngineRule). */
export type EngineRuleRow = Pick<
  RuleRow,
  | 'id'
  | 'descricao'
  | 'grupo'
  | 'subgrupo'
  | 'representante'
  | 'id_pauta'
  | 'percent'
  | 'vigencia_inicio'
  | 'vigencia_fim'
  | 'promocao'
>;

export interface RuleListFilters {
  situacao: 'vigentes' | 'expiradas' | 'futuras' | 'todas';
  /** The business date the situation is judged on. */
  date: string;
  idPauta?: number | undefined;
  grupo?: number | undefined;
  representante?: number | undefined;
}

function listFilter(eb: RuleEb, idEmpresa: number, f: RuleListFilters) {
  const conditions = [eb('id_empresa', '=', idEmpresa)];
  if (f.idPauta !== undefined) conditions.push(eb('id_pauta', '=', f.idPauta));
  if (f.grupo !== undefined) conditions.push(eb('grupo', '=', f.grupo));
  if (f.representante !== undefined) conditions.push(eb('representante', '=', f.representante));
  if (f.situacao === 'vigentes') conditions.push(inForce(eb, f.date));
  if (f.situacao === 'expiradas') conditions.push(eb('vigencia_fim', '<', f.date));
  if (f.situacao === 'futuras') conditions.push(eb('vigencia_inicio', '>', f.date));
  return eb.and(conditions);
}

/** In force on `date`: started, and not ended (vigencia_fim null is open-ended). */
function inForce(eb: RuleEb, date: string) {
  return eb.and([
    eb('vigencia_inicio', '<=', date),
    eb.or([eb('vigencia_fim', 'is', null), eb('vigencia_fim', '>=', date)]),
  ]);
}

export async function selectRulePage(
  tx: Tx,
  idEmpresa: number,
  filters: RuleListFilters,
  page: { limit: number; offset: number },
): Promise<RuleRow[]> {
  return tx
    .selectFrom('app.regras_desconto')
    .select(ruleColumns)
    .where((eb) => listFilter(eb, idEmpresa, filters))
    .orderBy('vigencia_inicio', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countRules(tx: Tx, idEmpresa: number, filters: RuleListFilters): Promise<number> {
  const row = await tx
    .selectFrom('app.regras_desconto')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where((eb) => listFilter(eb, idEmpresa, filters))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export async function selectRule(tx: Tx, idEmpresa: number, id: number): Promise<RuleRow | undefined> {
  return tx
    .selectFrom('app.regras_desconto')
    .select(ruleColumns)
    .where('id_empresa', '=', idEmpresa)
    .where('id', '=', id)
    .executeTakeFirst();
}

export type RuleValues = Omit<
  Insertable<AppRegrasDesconto>,
  'id' | 'id_empresa' | 'criado_em' | 'atualizado_em' | 'criado_por'
>;

/** One statement for every rule of a POST, so the fan-out over idPautas is all or nothing. */
export async function insertRules(
  tx: Tx,
  idEmpresa: number,
  criadoPor: string,
  rules: readonly RuleValues[],
): Promise<RuleRow[]> {
  return tx
    .insertInto('app.regras_desconto')
    .values(rules.map((r) => ({ ...r, id_empresa: idEmpresa, criado_por: criadoPor })))
    .returning(ruleColumns)
    .execute();
}

export async function updateRule(
  tx: Tx,
  idEmpresa: number,
  id: number,
  values: RuleValues,
): Promise<RuleRow | undefined> {
  return tx
    .updateTable('app.regras_desconto')
    .set((eb) => ({ ...values, atualizado_em: eb.fn('now', []) }))
    .where('id_empresa', '=', idEmpresa)
    .where('id', '=', id)
    .returning(ruleColumns)
    .executeTakeFirst();
}

export async function deleteRule(tx: Tx, idEmpresa: number, id: number): Promise<boolean> {
  const row = await tx
    .deleteFrom('app.regras_desconto')
    .where('id_empresa', '=', idEmpresa)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export interface RuleScope {
  grupo: number | null;
  subgrupo: number | null;
  representante: number | null;
  id_pauta: number | null;
  vigencia_inicio: string;
  vigencia_fim: string | null;
}

/**
 * Rules that can reach a line the given scope reaches, on a day both are in force: in every
 * scope column either side is null (all) or both are equal, and the validity periods intersect.
 */
export async function selectOverlappingRules(
  tx: Tx,
  idEmpresa: number,
  scope: RuleScope,
  excludeIds: readonly number[],
): Promise<RuleRow[]> {
  return tx
    .selectFrom('app.regras_desconto')
    .select(ruleColumns)
    .where((eb) => {
      const sameOrAll = (column: 'grupo' | 'subgrupo' | 'representante' | 'id_pauta', value: number | null) =>
        value === null ? eb.lit(true) : eb.or([eb(column, 'is', null), eb(column, '=', value)]);
      return eb.and([
        eb('id_empresa', '=', idEmpresa),
        sameOrAll('grupo', scope.grupo),
        sameOrAll('subgrupo', scope.subgrupo),
        sameOrAll('representante', scope.representante),
        sameOrAll('id_pauta', scope.id_pauta),
        scope.vigencia_fim === null ? eb.lit(true) : eb('vigencia_inicio', '<=', scope.vigencia_fim),
        eb.or([eb('vigencia_fim', 'is', null), eb('vigencia_fim', '>=', scope.vigencia_inicio)]),
        excludeIds.length > 0 ? eb('id', 'not in', excludeIds) : eb.lit(true),
      ]);
    })
    .orderBy('id')
    .execute();
}

/**
 * Rules that may reach a representative: for every representative or for this one
 * (codVendedor null: any representative's), in force on `date` (null: any date), promotions
 * only when asked.
 */
export async function selectRulesReaching(
  tx: Tx,
  idEmpresa: number,
  options: { codVendedor: number | null; date: string | null; promocaoOnly?: boolean },
): Promise<RuleRow[]> {
  const { codVendedor, date, promocaoOnly = false } = options;
  return tx
    .selectFrom('app.regras_desconto')
    .select(ruleColumns)
    .where((eb) =>
      eb.and([
        eb('id_empresa', '=', idEmpresa),
        codVendedor === null
          ? eb.lit(true)
          : eb.or([eb('representante', 'is', null), eb('representante', '=', codVendedor)]),
        date === null ? eb.lit(true) : inForce(eb, date),
        promocaoOnly ? eb('promocao', '=', true) : eb.lit(true),
      ]),
    )
    .orderBy('id')
    .execute();
}

/** The representative's ceilings in effect: Campo's overrides already replace the ERP's in the view. */
export async function selectCeilings(
  tx: Tx,
  idEmpresa: number,
  codVendedor: number,
): Promise<Pick<Selectable<DB['app.vw_vendedor_limites']>, 'categoria' | 'perc_desc_max'>[]> {
  return tx
    .selectFrom('app.vw_vendedor_limites')
    .select(['categoria', 'perc_desc_max'])
    .where('id_empresa', '=', idEmpresa)
    .where('cod_vendedor', '=', codVendedor)
    .execute();
}

export async function selectGroupExists(tx: Tx, idEmpresa: number, codGrupo: number): Promise<boolean> {
  const row = await tx
    .selectFrom('app.vw_grupos_produto')
    .select('cod_grupo')
    .where('id_empresa', '=', idEmpresa)
    .where('cod_grupo', '=', codGrupo)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function selectSubgroupExists(
  tx: Tx,
  idEmpresa: number,
  codGrupo: number,
  codSubgrupo: number,
): Promise<boolean> {
  const row = await tx
    .selectFrom('app.vw_subgrupos_produto')
    .select('cod_subgrupo')
    .where('id_empresa', '=', idEmpresa)
    .where('cod_grupo', '=', codGrupo)
    .where('cod_subgrupo', '=', codSubgrupo)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Which of the given price lists exist in the tenant. */
export async function selectPautaIds(tx: Tx, idEmpresa: number, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .selectFrom('app.vw_pautas')
    .select('id_pauta')
    .distinct()
    .where('id_empresa', '=', idEmpresa)
    .where('id_pauta', 'in', ids)
    .execute();
  return rows.flatMap((r) => (r.id_pauta === null ? [] : [r.id_pauta]));
}

// A tenant's branches may repeat a code (the ERP keys groups by company); the rule scope is
// the code, so each code is listed once.
export async function selectGroups(tx: Tx, idEmpresa: number) {
  return tx
    .selectFrom('app.vw_grupos_produto')
    .select(['cod_grupo', 'descricao'])
    .distinctOn('cod_grupo')
    .where('id_empresa', '=', idEmpresa)
    .orderBy('cod_grupo')
    .orderBy('id_filial')
    .execute();
}

export async function selectSubgroups(tx: Tx, idEmpresa: number) {
  return tx
    .selectFrom('app.vw_subgrupos_produto')
    .select(['cod_grupo', 'cod_subgrupo', 'descricao'])
    .distinctOn(['cod_grupo', 'cod_subgrupo'])
    .where('id_empresa', '=', idEmpresa)
    .orderBy('cod_grupo')
    .orderBy('cod_subgrupo')
    .orderBy('id_filial')
    .execute();
}

/** What the discount engine needs of each product: category (base ceiling), group and subgroup (rules). */
export async function selectProducts(tx: Tx, idEmpresa: number, ids: readonly number[]) {
  return tx
    .selectFrom('app.vw_produtos')
    .select(['id_produto', 'categoria', 'cod_grupo', 'cod_subgrupo'])
    .where('id_empresa', '=', idEmpresa)
    .where('id_produto', 'in', ids)
    .execute();
}
