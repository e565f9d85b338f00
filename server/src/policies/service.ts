// The commercial policies' decisions: who sees which rules, what a rule may point at, and the
// ceiling of a cart line. The ceiling is computed by the shared discount engine only; this file
// owns what the engine must not take from the device: the date, the representative, the rules.
import {
  businessDate,
  type CeilingPreview,
  type CeilingQuery,
  type DiscountRule,
  encodeLossless,
  type FieldError,
  lineCeiling,
  OPEN_ENDED_DATE,
  type PolicyRule,
  type PolicyRuleCreate,
  type PolicyRuleCreated,
  type PolicyRuleListQuery,
  type PolicyRulePage,
  type PolicyRuleUpdate,
  type PolicyRuleUpdated,
  type ProductGroups,
  type RepresentativeCeilings,
  type RulesInForce,
  ruleFromRow,
} from '@campo/shared';
import { ownCeilingOnly, reaches, representativeCode, scopeOf } from '../auth/authorize.ts';
import { refreshCollectionLog } from '../changelog/changelog.ts';
import type { Db } from '../db/kysely.ts';
import { type Tx, withScope } from '../db/scope.ts';
import { findRep } from '../directory/service.ts';
import { DomainError, validationFailed } from '../errors.ts';
import type { AuthContext } from '../http/env.ts';
import { rulesCollection } from './collection.ts';
import {
  countRules,
  deleteRule as deleteRuleRow,
  type EngineRuleRow,
  insertRules,
  type RuleListFilters,
  type RuleRow,
  type RuleValues,
  selectCeilings,
  selectGroupExists,
  selectGroups,
  selectOverlappingRules,
  selectPautaIds,
  selectProducts,
  selectRule,
  selectRulePage,
  selectRulesReaching,
  selectSubgroupExists,
  selectSubgroups,
  updateRule as updateRuleRow,
} from './queries.ts';

/** The rule row the order's context read returns, ready for the engine (orders/queries.ts). */
export type { EngineRuleRow };

const ruleNotFound = () => new DomainError('NOT_FOUND', 'Regra de desconto não encontrada.');

function situacaoOf(row: RuleRow, today: string): PolicyRule['situacao'] {
  if (row.vigencia_inicio > today) return 'futura';
  if (row.vigencia_fim !== null && row.vigencia_fim < today) return 'expirada';
  return 'vigente';
}

function toPolicyRule(row: RuleRow, today: string): PolicyRule {
  return {
    ...ruleFromRow(row),
    // The API says an open end as null; OPEN_ENDED_DATE is the engine's, for comparing dates.
    vigenciaFim: row.vigencia_fim,
    badge: row.promocao ? 'Promocao' : 'Cond. especial',
    situacao: situacaoOf(row, today),
    criadoPor: row.criado_por,
    criadoEm: row.criado_em.toISOString(),
    atualizadoEm: row.atualizado_em.toISOString(),
  };
}

/**
 * A representative's ceilings and every rule that may reach them, exactly as the discount
 * engine takes them. The ceiling preview and the order service both call this, so an order
 * line is checked with the same inputs the cart was shown. With `date`, only the rules in
 * force that day are loaded; the engine gives the same answer for that date either way.
 */
export async function loadCeilingInputs(
  tx: Tx,
  who: { idEmpresa: number; codVendedor: number; date?: string },
): Promise<{ ceilings: RepresentativeCeilings; rules: DiscountRule[] }> {
  const rows = await selectCeilings(tx, who.idEmpresa, who.codVendedor);
  const rules = await selectRulesReaching(tx, who.idEmpresa, { codVendedor: who.codVendedor, date: who.date ?? null });
  return ceilingInputs(rows, rules);
}

/**
 * The engine's inputs from the rows loadCeilingInputs reads: for the order, which reads the
 * same rows within its one context statement (orders/queries.ts).
 */
export function ceilingInputs(
  rows: readonly { categoria: string | null; perc_desc_max: number | null }[],
  rules: readonly EngineRuleRow[],
): { ceilings: RepresentativeCeilings; rules: DiscountRule[] } {
  const byCategory: Record<string, number> = {};
  let defaultPercent: number | null = null;
  for (const row of rows) {
    if (row.perc_desc_max === null) continue;
    if (row.categoria === null) defaultPercent = row.perc_desc_max;
    else byCategory[row.categoria] = row.perc_desc_max;
  }
  return { ceilings: { defaultPercent, byCategory }, rules: rules.map(ruleFromRow) };
}

export async function listRules(
  db: Db,
  auth: AuthContext,
  query: PolicyRuleListQuery,
  now = new Date(),
): Promise<PolicyRulePage> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const today = businessDate(now);
    const filters: RuleListFilters = {
      situacao: query.situacao,
      date: today,
      idPauta: query.idPauta,
      grupo: query.grupo,
      representante: query.representante,
    };
    const rows = await selectRulePage(tx, auth.idEmpresa, filters, {
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    });
    const total = await countRules(tx, auth.idEmpresa, filters);
    return { items: rows.map((r) => toPolicyRule(r, today)), page: query.page, pageSize: query.pageSize, total };
  });
}

export async function getRule(db: Db, auth: AuthContext, id: number, now = new Date()): Promise<PolicyRule> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const row = await selectRule(tx, auth.idEmpresa, id);
    if (!row) throw ruleNotFound();
    return toPolicyRule(row, businessDate(now));
  });
}

interface References {
  grupo: number | null;
  subgrupo: number | null;
  representante: number | null;
  /** Each price list with where it sits in the request, to name the bad one. */
  pautas: { id: number; path: string }[];
}

/** Every code a rule points at must exist in the caller's tenant; all bad fields are reported at once. */
async function checkReferences(tx: Tx, idEmpresa: number, refs: References): Promise<void> {
  const errors: FieldError[] = [];
  if (refs.grupo !== null && !(await selectGroupExists(tx, idEmpresa, refs.grupo))) {
    errors.push({ path: 'body.grupo', message: `o grupo ${refs.grupo} não existe nesta empresa` });
  } else if (
    refs.grupo !== null &&
    refs.subgrupo !== null &&
    !(await selectSubgroupExists(tx, idEmpresa, refs.grupo, refs.subgrupo))
  ) {
    errors.push({
      path: 'body.subgrupo',
      message: `o subgrupo ${refs.subgrupo} não existe no grupo ${refs.grupo}`,
    });
  }
  if (refs.representante !== null && !(await findRep(tx, idEmpresa, refs.representante))) {
    errors.push({
      path: 'body.representante',
      message: `o representante ${refs.representante} não existe nesta empresa`,
    });
  }
  const known = new Set(
    await selectPautaIds(
      tx,
      idEmpresa,
      refs.pautas.map((p) => p.id),
    ),
  );
  for (const p of refs.pautas) {
    if (!known.has(p.id)) errors.push({ path: p.path, message: `a pauta ${p.id} não existe nesta empresa` });
  }
  if (errors.length > 0) throw validationFailed(errors);
}

// A rule's description is Campo's own text (the ERP never receives it: the approval trigger
// copies prices, not rules), so it is kept exactly as typed, emoji and "—" included, in the
// lossless form a LATIN1 column holds (shared/src/text.ts). It is a one-line label (cart line,
// catalog badge, refusal message, printed order): control characters and runs of spaces go.
function cleanDescricao(descricao: string): string {
  const clean = descricao
    // A lone surrogate (a broken emoji) is no character: the replacement mark stands for it.
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes.
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (clean === '') {
    throw validationFailed([{ path: 'body.descricao', message: 'a descrição não pode ficar em branco' }]);
  }
  return encodeLossless(clean);
}

function ruleValues(input: Omit<PolicyRuleUpdate, 'idPauta'>, descricao: string, idPauta: number | null): RuleValues {
  return {
    descricao,
    grupo: input.grupo,
    subgrupo: input.subgrupo,
    representante: input.representante,
    id_pauta: idPauta,
    percent: input.percent,
    vigencia_inicio: input.vigenciaInicio,
    vigencia_fim: input.vigenciaFim,
    promocao: input.promocao,
  };
}

export async function createRules(
  db: Db,
  auth: AuthContext,
  input: PolicyRuleCreate,
  now = new Date(),
): Promise<PolicyRuleCreated> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const today = businessDate(now);
    const descricao = cleanDescricao(input.descricao);
    await checkReferences(tx, auth.idEmpresa, {
      grupo: input.grupo,
      subgrupo: input.subgrupo,
      representante: input.representante,
      pautas: input.idPautas.map((id, i) => ({ id, path: `body.idPautas.${i}` })),
    });
    const pautas: (number | null)[] = input.idPautas.length > 0 ? input.idPautas : [null];
    const created = await insertRules(
      tx,
      auth.idEmpresa,
      auth.login,
      pautas.map((idPauta) => ruleValues(input, descricao, idPauta)),
    );
    // The new rules never overlap one another (each has its own pauta), so only older ones count.
    const newIds = created.map((r) => r.id);
    const overlaps: PolicyRuleCreated['overlaps'] = [];
    for (const rule of created) {
      const overlapping = await selectOverlappingRules(tx, auth.idEmpresa, rule, newIds);
      if (overlapping.length > 0) {
        overlaps.push({ ruleId: rule.id, overlapping: overlapping.map((r) => toPolicyRule(r, today)) });
      }
    }
    await refreshRules(tx, auth.idEmpresa);
    return { items: created.map((r) => toPolicyRule(r, today)), overlaps };
  });
}

export async function updateRule(
  db: Db,
  auth: AuthContext,
  id: number,
  input: PolicyRuleUpdate,
  now = new Date(),
): Promise<PolicyRuleUpdated> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const today = businessDate(now);
    // Existence in the tenant first: another tenant's id is a 404 whatever the body says.
    if (!(await selectRule(tx, auth.idEmpresa, id))) throw ruleNotFound();
    const descricao = cleanDescricao(input.descricao);
    await checkReferences(tx, auth.idEmpresa, {
      grupo: input.grupo,
      subgrupo: input.subgrupo,
      representante: input.representante,
      pautas: input.idPauta === null ? [] : [{ id: input.idPauta, path: 'body.idPauta' }],
    });
    const row = await updateRuleRow(tx, auth.idEmpresa, id, ruleValues(input, descricao, input.idPauta));
    if (!row) throw ruleNotFound();
    const overlapping = await selectOverlappingRules(tx, auth.idEmpresa, row, [row.id]);
    await refreshRules(tx, auth.idEmpresa);
    return { item: toPolicyRule(row, today), overlaps: overlapping.map((r) => toPolicyRule(r, today)) };
  });
}

// Orders keep a snapshot of the rule they were placed under (pedido_itens.id_regra, the
// percent and the ceiling), so deleting a rule changes no order already placed.
/**
 * After a change of rules: the collection is small, so it is rebuilt whole in the writing
 * transaction (a rule moved to another representative leaves the first one's devices).
 */
const refreshRules = (tx: Tx, idEmpresa: number) => refreshCollectionLog(tx, idEmpresa, rulesCollection);

export async function deleteRule(db: Db, auth: AuthContext, id: number): Promise<void> {
  return withScope(db, scopeOf(auth), async (tx) => {
    if (!(await deleteRuleRow(tx, auth.idEmpresa, id))) throw ruleNotFound();
    await refreshRules(tx, auth.idEmpresa);
  });
}

/** Rules in force today; a representative gets only those for every representative or for them. */
export async function rulesInForce(
  db: Db,
  auth: AuthContext,
  options: { promocaoOnly: boolean },
  now = new Date(),
): Promise<RulesInForce> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const today = businessDate(now);
    const rows = await selectRulesReaching(tx, auth.idEmpresa, {
      codVendedor: representativeCode(auth),
      date: today,
      promocaoOnly: options.promocaoOnly,
    });
    return { date: today, items: rows.map((r) => toPolicyRule(r, today)) };
  });
}

export async function productGroups(db: Db, auth: AuthContext): Promise<ProductGroups> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const groups = await selectGroups(tx, auth.idEmpresa);
    const subgroups = await selectSubgroups(tx, auth.idEmpresa);
    const items = groups.flatMap((g) =>
      g.cod_grupo === null
        ? []
        : [{ codGrupo: g.cod_grupo, descricao: g.descricao ?? '', subgrupos: [] as SubgroupOut[] }],
    );
    const byCode = new Map(items.map((g) => [g.codGrupo, g]));
    for (const s of subgroups) {
      if (s.cod_grupo === null || s.cod_subgrupo === null) continue;
      byCode.get(s.cod_grupo)?.subgrupos.push({ codSubgrupo: s.cod_subgrupo, descricao: s.descricao ?? '' });
    }
    return { items };
  });
}
type SubgroupOut = ProductGroups['items'][number]['subgrupos'][number];

function ceilingRule(rule: DiscountRule | null) {
  if (rule === null) return null;
  return {
    id: rule.id,
    descricao: rule.descricao,
    percent: rule.percent,
    vigenciaInicio: rule.vigenciaInicio,
    vigenciaFim: rule.vigenciaFim === OPEN_ENDED_DATE ? null : rule.vigenciaFim,
    promocao: rule.promocao,
  };
}

/**
 * Whose ceiling, on which date. A representative gets their own, on the server's business
 * date (ownCeilingOnly). A supervisor previews only their own team (another team's
 * representative is 404, as if absent); managers and admins any representative of the
 * tenant, on any date.
 */
async function ceilingSubject(
  tx: Tx,
  auth: AuthContext,
  query: CeilingQuery,
  today: string,
): Promise<{ codVendedor: number; date: string }> {
  const own = ownCeilingOnly(auth, query);
  if (own !== null) return { codVendedor: own, date: today };
  if (query.codVendedor === undefined) {
    throw validationFailed([{ path: 'query.codVendedor', message: 'informe o representante (codVendedor)' }]);
  }
  const rep = await findRep(tx, auth.idEmpresa, query.codVendedor);
  if (!rep || !reaches(auth, { codVendedor: query.codVendedor, codSupervisor: rep.cod_supervisor })) {
    throw new DomainError('NOT_FOUND', 'Representante não encontrado na sua equipe.');
  }
  return { codVendedor: query.codVendedor, date: query.data ?? today };
}

export async function ceilingPreview(
  db: Db,
  auth: AuthContext,
  query: CeilingQuery,
  now = new Date(),
): Promise<CeilingPreview> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const { codVendedor, date } = await ceilingSubject(tx, auth, query, businessDate(now));
    // Unknown ids, and ids of another tenant, are 404 like any object outside the caller's scope.
    if ((await selectPautaIds(tx, auth.idEmpresa, [query.idPauta])).length === 0) {
      throw new DomainError('NOT_FOUND', `Pauta ${query.idPauta} não encontrada.`);
    }
    const ids = [...new Set(query.idProduto)];
    const products = new Map((await selectProducts(tx, auth.idEmpresa, ids)).map((p) => [p.id_produto, p]));
    const missing = ids.filter((id) => !products.has(id));
    if (missing.length > 0) {
      throw new DomainError(
        'NOT_FOUND',
        `Produto${missing.length > 1 ? 's' : ''} não encontrado${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}.`,
        { idProdutos: missing },
      );
    }
    const { ceilings, rules } = await loadCeilingInputs(tx, { idEmpresa: auth.idEmpresa, codVendedor, date });
    const items = ids.map((id) => {
      const p = products.get(id);
      // The ERP declares these not null; a missing group only matches rules for every group.
      const product = { categoria: p?.categoria ?? '', grupo: p?.cod_grupo ?? 0, subgrupo: p?.cod_subgrupo ?? 0 };
      const c = lineCeiling({ codVendedor, idPauta: query.idPauta, date, product }, ceilings, rules);
      return {
        idProduto: id,
        ...product,
        basePercent: c.basePercent,
        baseSource: c.baseSource,
        ceilingPercent: c.ceilingPercent,
        source: c.source,
        rule: ceilingRule(c.rule),
        prefillPercent: c.prefillPercent,
        prefillRule: ceilingRule(c.prefillRule),
      };
    });
    return { codVendedor, idPauta: query.idPauta, data: date, items };
  });
}
