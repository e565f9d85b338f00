// The discount engine: one pure module that the cart (as a preview, offline) and the server
// (authoritatively, at the moment an order arrives) both run, so a representative never sees
// a ceiling the server would refuse. Percentages are compared in hundredths of a percent
// (integers), so 12.35 % against a 12.35 % ceiling is exactly at the boundary, never a float
// rounding error away from it.

import { formatPercent } from './format.ts';
import { PERCENT_SCALE, toUnits } from './money.ts';
import type { RefusalReason } from './orders.ts';

/** The ceiling when neither the representative nor a category ceiling is set. */
export const DEFAULT_CEILING_PERCENT = 5;

export interface RepresentativeCeilings {
  /** The representative's own default ceiling, in percent; null when the ERP sets none. */
  defaultPercent: number | null;
  /** Ceilings per product category (productCategory), in percent. */
  byCategory: Readonly<Record<string, number>>;
}

export interface DiscountRule {
  id: number;
  descricao: string;
  /** Product group; null matches every group. */
  grupo: number | null;
  /** Product subgroup; null matches every subgroup. */
  subgrupo: number | null;
  /** Representative (cod_vendedor); null matches every representative. */
  representante: number | null;
  /** Price list; null matches every list. */
  idPauta: number | null;
  percent: number;
  /** First day in force, YYYY-MM-DD (inclusive). */
  vigenciaInicio: string;
  /** Last day in force, YYYY-MM-DD (inclusive). */
  vigenciaFim: string;
  /** 'Promocao' badge when true, 'Cond. especial' when false. */
  promocao: boolean;
}

export interface CartLineContext {
  codVendedor: number;
  idPauta: number;
  /** The business date of the order, YYYY-MM-DD: the server's date decides, never the device's. */
  date: string;
  product: { categoria: string; grupo: number; subgrupo: number };
}

export type CeilingSource = 'category' | 'representative' | 'default' | 'rule';

export interface LineCeiling {
  /** The representative's base ceiling for the product's category. */
  basePercent: number;
  baseSource: Exclude<CeilingSource, 'rule'>;
  /** max(base, matching rules' percents). */
  ceilingPercent: number;
  /** What set the ceiling: a rule when one raised it above the base. */
  source: CeilingSource;
  /** The rule that set the ceiling, when a rule did. */
  rule: DiscountRule | null;
  /** The discount a new cart line starts with: the highest matching rule's percent, else 0. */
  prefillPercent: number;
  prefillRule: DiscountRule | null;
}

/** A percent in hundredths, from its decimal digits (money.ts): 12.35 is 1235, never 1234.9999…. */
export const toHundredths = (percent: number): number => Number(toUnits(percent, PERCENT_SCALE));

export function ruleInForce(rule: DiscountRule, date: string): boolean {
  return rule.vigenciaInicio <= date && date <= rule.vigenciaFim;
}

export function ruleMatches(rule: DiscountRule, line: CartLineContext): boolean {
  return (
    ruleInForce(rule, line.date) &&
    (rule.grupo === null || rule.grupo === line.product.grupo) &&
    (rule.subgrupo === null || rule.subgrupo === line.product.subgrupo) &&
    (rule.representante === null || rule.representante === line.codVendedor) &&
    (rule.idPauta === null || rule.idPauta === line.idPauta)
  );
}

export function baseCeiling(
  ceilings: RepresentativeCeilings,
  categoria: string,
): { percent: number; source: LineCeiling['baseSource'] } {
  const byCategory = ceilings.byCategory[categoria];
  if (byCategory !== undefined) return { percent: byCategory, source: 'category' };
  if (ceilings.defaultPercent !== null) return { percent: ceilings.defaultPercent, source: 'representative' };
  return { percent: DEFAULT_CEILING_PERCENT, source: 'default' };
}

/** The best matching rule: highest percent; ties go to the most specific, then the lowest id (stable). */
function bestRule(rules: readonly DiscountRule[]): DiscountRule | null {
  const specificity = (r: DiscountRule) =>
    [r.grupo, r.subgrupo, r.representante, r.idPauta].filter((v) => v !== null).length;
  let best: DiscountRule | null = null;
  for (const rule of rules) {
    if (
      best === null ||
      toHundredths(rule.percent) > toHundredths(best.percent) ||
      (toHundredths(rule.percent) === toHundredths(best.percent) &&
        (specificity(rule) > specificity(best) || (specificity(rule) === specificity(best) && rule.id < best.id)))
    ) {
      best = rule;
    }
  }
  return best;
}

export function lineCeiling(
  line: CartLineContext,
  ceilings: RepresentativeCeilings,
  rules: readonly DiscountRule[],
): LineCeiling {
  const base = baseCeiling(ceilings, line.product.categoria);
  const best = bestRule(rules.filter((r) => ruleMatches(r, line)));
  const raised = best !== null && toHundredths(best.percent) > toHundredths(base.percent);
  return {
    basePercent: base.percent,
    baseSource: base.source,
    ceilingPercent: raised ? best.percent : base.percent,
    source: raised ? 'rule' : base.source,
    rule: raised ? best : null,
    prefillPercent: best?.percent ?? 0,
    prefillRule: best,
  };
}

export type DiscountCheck =
  | { ok: true; beyondPoints: number }
  | {
      ok: false;
      code: 'DISCOUNT_ABOVE_CEILING';
      discountPercent: number;
      ceiling: LineCeiling;
      /** The points flex lets a discount go past the ceiling (0 with flex off). */
      maxBeyondPoints: number;
      /** The highest discount the line may take: the ceiling plus those points. */
      maxPercent: number;
    }
  | { ok: false; code: 'DISCOUNT_INVALID'; discountPercent: number };

/**
 * Whether a discount stays within the ceiling plus the points flex allows past it. An
 * acréscimo (a negative discount) is always within. The one comparison lineFlex
 * (flex.ts) and checkLineDiscount make, so the cart and the server cannot disagree on it.
 */
export function withinFlexMaximum(discountPercent: number, ceilingPercent: number, maxBeyondPoints: number): boolean {
  return toHundredths(discountPercent) - toHundredths(ceilingPercent) <= toHundredths(maxBeyondPoints);
}

/**
 * A discount from an acréscimo of −100 % up to the ceiling is allowed; beyond it, up to the
 * ceiling plus `maxBeyondPoints` (the tenant's flex maximum, 0 with flex off), and then the
 * flex balance decides (orderFlex, and the server's reservation).
 */
export function checkLineDiscount(discountPercent: number, ceiling: LineCeiling, maxBeyondPoints = 0): DiscountCheck {
  if (!Number.isFinite(discountPercent) || discountPercent < -100 || discountPercent > 100) {
    return { ok: false, code: 'DISCOUNT_INVALID', discountPercent };
  }
  if (!withinFlexMaximum(discountPercent, ceiling.ceilingPercent, maxBeyondPoints)) {
    return {
      ok: false,
      code: 'DISCOUNT_ABOVE_CEILING',
      discountPercent,
      ceiling,
      maxBeyondPoints,
      maxPercent: (toHundredths(ceiling.ceilingPercent) + toHundredths(maxBeyondPoints)) / 100,
    };
  }
  return {
    ok: true,
    beyondPoints: Math.max(0, toHundredths(discountPercent) - toHundredths(ceiling.ceilingPercent)) / 100,
  };
}

/** Plain-words reason for a refused line, in pt-BR, naming the ceiling and what set it. */
export function describeCeiling(ceiling: LineCeiling): string {
  const pct = formatPercent;
  switch (ceiling.source) {
    case 'rule':
      // The rule by its description: its id means nothing to the representative who reads this.
      return `teto de ${pct(ceiling.ceilingPercent)} pela regra "${ceiling.rule?.descricao ?? ''}"`;
    case 'category':
      return `teto de ${pct(ceiling.ceilingPercent)} do representante para a categoria do produto`;
    case 'representative':
      return `teto padrão de ${pct(ceiling.ceilingPercent)} do representante`;
    case 'default':
      return `teto padrão de ${pct(ceiling.ceilingPercent)}`;
  }
}

/**
 * The server's refusal of a line past its ceiling and the flex maximum: the reason the order
 * answers (POST /orders and a push alike), in pt-BR, with the ceiling and the rule that set it.
 */
export function ceilingRefusal(
  line: number,
  idProduto: number,
  descricao: string | null,
  check: Extract<DiscountCheck, { code: 'DISCOUNT_ABOVE_CEILING' }>,
): RefusalReason {
  const { ceiling, maxBeyondPoints: max } = check;
  return {
    code: 'DISCOUNT_ABOVE_CEILING',
    line,
    idProduto,
    descontoPercent: check.discountPercent,
    tetoPercent: ceiling.ceilingPercent,
    regra: ceiling.rule ? { id: ceiling.rule.id, descricao: ceiling.rule.descricao } : null,
    message:
      `Linha ${line} (${descricao}): desconto de ${check.discountPercent.toLocaleString('pt-BR')}% acima do ${describeCeiling(ceiling)}` +
      (max > 0 ? `, além dos ${max.toLocaleString('pt-BR')} pontos que o flex permite.` : '.'),
  };
}
