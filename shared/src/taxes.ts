// Taxes on a line: IPI, ICMS of the operation, ICMS-ST with the adjusted MVA, FCP and FCP-ST,
// the one pure calculation the cart (offline) and the server (when the order arrives) both
// run, beside the discount engine, so the phone shows what the NF-e the ERP issues will
// charge (docs/taxes.md). Money is exact (docs/money.md): amounts in centavos and rates in
// ten-thousandths of a percent, as BigInt; every NF-e field is rounded once, to its own
// scale, from the fields the NF-e computes it from.
//
// Bad fiscal data never throws here: a rule outside the bounds below or two rules equally
// specific are left out and the line says why (a code and a pt-BR message), as the issue asks
// ("the line is priced without the bad rule and the order says so").

import { z } from 'zod';
import { UFS } from './clients.ts';
import { cents, fromCents, fromUnits, toUnits } from './money.ts';

// ---------------------------------------------------------------------------------------
// Contracts

/** Rates are read with four decimals of the percent (a base reduction of 41,1765 % exists). */
export const TAX_RATE_SCALE = 4;
/** The highest MVA a rule may carry: above it the rule is reported as bad, never used. */
export const MAX_MVA_PERCENT = 1000;
/** The interstate ICMS rates of the Senate's resolutions (22/1989, 13/2012); 0 for an exempt operation. */
export const INTERSTATE_RATES = [0, 4, 7, 12] as const;
/** Product origins (tabela A of the CST) whose interstate sale takes 4 % (Resolução do Senado 13/2012). */
export const IMPORTED_ORIGINS = [1, 2, 3, 8] as const;

export const ZUf = z.enum(UFS).describe('State, two letters (one of the 27 UFs)');
export type Uf = z.infer<typeof ZUf>;

const hasScale = (v: number) => Number.isFinite(v) && fromUnits(toUnits(v, TAX_RATE_SCALE), TAX_RATE_SCALE) === v;

/** A percent from 0 to 100 with at most four decimals. */
export const ZTaxRate = z
  .number()
  .min(0, 'alíquota negativa')
  .max(100, 'alíquota acima de 100 %')
  .refine(hasScale, 'no máximo 4 casas decimais');

export const ZNcm = z
  .string()
  .regex(/^\d{8}$/, 'NCM: 8 dígitos')
  .describe('NCM, 8 digits');
export const ZNcmPrefix = z
  .string()
  .regex(/^\d{2,8}$/, 'NCM ou prefixo: 2 a 8 dígitos')
  .describe('NCM or a prefix of it, 2 to 8 digits');
export const ZCest = z
  .string()
  .regex(/^\d{7}$/, 'CEST: 7 dígitos')
  .describe('CEST, 7 digits');

/** The client's regime a rule may be keyed by (derived from ZClientFiscal by clientTaxRegime). */
export const ZTaxRegime = z
  .enum(['contribuinte', 'simples', 'consumidor_final', 'nao_contribuinte'])
  .describe('Client regime for tax rules');
export type TaxRegime = z.infer<typeof ZTaxRegime>;

export const ZProductFiscal = z.object({
  ncm: ZNcm,
  cest: ZCest.nullable().describe('CEST, 7 digits; null when the product has none'),
  origem: z.number().int().min(0).max(8).describe('Origin of the goods (0 to 8, tabela A of the CST)'),
  aliquotaIpi: ZTaxRate.describe('IPI rate, percent'),
});
export type ProductFiscal = z.infer<typeof ZProductFiscal>;

export const ZClientFiscal = z.object({
  uf: ZUf.describe('Destination state'),
  contribuinteIcms: z.boolean().describe('ICMS contributor (has an inscrição estadual)'),
  simplesNacional: z.boolean().describe('Under Simples Nacional'),
  consumidorFinal: z.boolean().describe('Buys for its own use or consumption (not for resale)'),
});
export type ClientFiscal = z.infer<typeof ZClientFiscal>;

export const ZCompanyFiscal = z.object({
  uf: ZUf.describe('Origin state: the company (the issuer of the NF-e)'),
  simplesNacional: z
    .boolean()
    .default(false)
    .describe('Issuer under Simples Nacional: ST takes the original MVA, never the adjusted one'),
});
export type CompanyFiscal = z.input<typeof ZCompanyFiscal>;

export const ZTaxRule = z
  .object({
    id: z.number().int().describe('The ERP rule id'),
    ncm: ZNcmPrefix,
    ufOrigem: ZUf,
    ufDestino: ZUf,
    regime: ZTaxRegime.nullable().describe('The client regime the rule is for; null for every regime'),
    aliquotaIcms: ZTaxRate.describe('ICMS rate of the operation: internal, or interstate 4, 7 or 12 %'),
    reducaoBase: ZTaxRate.describe('Reduction of the ICMS base, percent (0 for none)'),
    aliquotaFcp: ZTaxRate.describe('FCP rate on the operation, percent'),
    st: z.boolean().describe('Whether ICMS-ST applies (to a contributor reseller)'),
    mva: z
      .number()
      .min(0, 'MVA negativa')
      .max(MAX_MVA_PERCENT, `MVA acima de ${MAX_MVA_PERCENT} %`)
      .refine(hasScale, 'no máximo 4 casas decimais')
      .describe('Original MVA (MVA-ST original), percent'),
    aliquotaInternaDestino: ZTaxRate.describe('Internal ICMS rate of the destination state, percent'),
    aliquotaFcpSt: ZTaxRate.describe('FCP-ST rate of the destination state, percent'),
  })
  .superRefine((rule, ctx) => {
    if (rule.ufOrigem !== rule.ufDestino && !(INTERSTATE_RATES as readonly number[]).includes(rule.aliquotaIcms)) {
      ctx.addIssue({ code: 'custom', path: ['aliquotaIcms'], message: 'alíquota interestadual deve ser 4, 7 ou 12 %' });
    }
    if (rule.st && rule.aliquotaInternaDestino >= 100) {
      ctx.addIssue({ code: 'custom', path: ['aliquotaInternaDestino'], message: 'alíquota interna de 100 %' });
    }
  });
export type TaxRule = z.infer<typeof ZTaxRule>;

export const ZRoundingRule = z
  .enum(['half-up', 'abnt-nbr-5891'])
  .describe('Tie rule on an exact half centavo: half away from zero, or ABNT NBR 5891 (to the even digit)');
export type RoundingRule = z.infer<typeof ZRoundingRule>;

/** The tenant's settings: where ERPs differ, the distributor says which its ERP does. */
export const ZTaxOptions = z.object({
  roundingRule: ZRoundingRule.default('half-up'),
  mvaAdjustedDecimals: z
    .number()
    .int()
    .min(0)
    .max(6)
    .default(2)
    .describe('Decimals of the percent the adjusted MVA is rounded to before use'),
});
export type TaxOptions = z.input<typeof ZTaxOptions>;
export const DEFAULT_TAX_OPTIONS: Required<z.infer<typeof ZTaxOptions>> = {
  roundingRule: 'half-up',
  mvaAdjustedDecimals: 2,
};

// ---------------------------------------------------------------------------------------
// Notes: why a line was priced as it was

export const TAX_NOTE_MESSAGES = {
  TAX_RULE_INVALID: 'Regra fiscal inválida no ERP; ignorada no cálculo',
  TAX_RULE_AMBIGUOUS: 'Duas ou mais regras fiscais igualmente específicas; ignoradas no cálculo',
  TAX_RULE_MISSING: 'Nenhuma regra fiscal para este produto e estado; ICMS e ST não calculados',
  TAX_PRODUCT_FISCAL_INVALID: 'Dados fiscais do produto inválidos; impostos não calculados',
  TAX_CLIENT_FISCAL_INVALID: 'Dados fiscais do cliente inválidos; ICMS e ST não calculados',
  TAX_COMPANY_FISCAL_INVALID: 'Estado da empresa inválido; ICMS e ST não calculados',
  TAX_DIFAL_NOT_COMPUTED: 'Venda interestadual a não contribuinte: o DIFAL não está no total',
} as const;
export type TaxNoteCode = keyof typeof TAX_NOTE_MESSAGES;

export const ZTaxNoteCode = z
  .enum(Object.keys(TAX_NOTE_MESSAGES) as [TaxNoteCode, ...TaxNoteCode[]])
  .describe('Why a line was priced as it was');

export const ZTaxNote = z.object({
  code: ZTaxNoteCode,
  message: z.string().describe('pt-BR, for the rep'),
  ruleIds: z.array(z.number().int()).describe('The rules the note is about, by id'),
  detail: z
    .string()
    .optional()
    .describe('What was wrong (pt-BR, from the contract), for the log and provision --check'),
});
export type TaxNote = z.infer<typeof ZTaxNote>;

const describeIssues = (error: z.ZodError): string =>
  error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');

const note = (code: TaxNoteCode, ruleIds: number[] = [], detail?: string): TaxNote => ({
  code,
  message: TAX_NOTE_MESSAGES[code],
  ruleIds,
  ...(detail === undefined ? {} : { detail }),
});

// ---------------------------------------------------------------------------------------
// The rule selector

/**
 * The regime a client's rules are keyed by, the same word app.vw_clientes_fiscal.regime gives:
 * not a contributor, then a contributor buying for its own use (no ST, whatever its regime),
 * then Simples, then any other contributor buying for resale.
 */
export function clientTaxRegime(client: ClientFiscal): TaxRegime {
  if (!client.contribuinteIcms) return 'nao_contribuinte';
  if (client.consumidorFinal) return 'consumidor_final';
  return client.simplesNacional ? 'simples' : 'contribuinte';
}

export interface RuleSelection {
  rule: TaxRule | null;
  notes: TaxNote[];
}

const specificity = (rule: TaxRule): number => rule.ncm.length * 2 + (rule.regime === null ? 0 : 1);

/**
 * The rule for a product sold from `ufOrigem` to a client: of the rules matching (the NCM
 * starts with the rule's NCM, the states equal, the regime equal or null), the longest NCM
 * prefix, then a rule with the regime over one without. A rule outside the contract's bounds
 * is left out and reported; two or more rules equally specific at the top are left out and
 * reported, and the choice goes on among the rest, as if the ERP did not have them.
 */
export function selectTaxRule(
  rules: readonly TaxRule[],
  ncm: string,
  ufOrigem: string,
  client: ClientFiscal,
): RuleSelection {
  const regime = clientTaxRegime(client);
  const notes: TaxNote[] = [];
  let candidates: TaxRule[] = [];
  for (const rule of rules) {
    const matches =
      typeof rule.ncm === 'string' &&
      ncm.startsWith(rule.ncm) &&
      rule.ufOrigem === ufOrigem &&
      rule.ufDestino === client.uf &&
      (rule.regime === null || rule.regime === regime);
    if (!matches) continue;
    const parsed = ZTaxRule.safeParse(rule);
    if (!parsed.success) {
      notes.push(note('TAX_RULE_INVALID', [rule.id], describeIssues(parsed.error)));
      continue;
    }
    candidates.push(rule);
  }
  while (candidates.length > 0) {
    const top = Math.max(...candidates.map(specificity));
    const best = candidates.filter((r) => specificity(r) === top);
    if (best.length === 1) return { rule: best[0] ?? null, notes };
    notes.push(
      note(
        'TAX_RULE_AMBIGUOUS',
        best.map((r) => r.id).sort((a, b) => a - b),
      ),
    );
    candidates = candidates.filter((r) => specificity(r) !== top);
  }
  notes.push(note('TAX_RULE_MISSING'));
  return { rule: null, notes };
}

/**
 * Every bad or ambiguous rule of a rule set, whatever line it would apply to: the same
 * judgement selectTaxRule makes per line, for `campo provision --check` and the server's log.
 * Ambiguous: two or more valid rules with the same NCM (prefix), states and regime.
 */
export function checkTaxRules(rules: readonly TaxRule[]): TaxNote[] {
  const notes: TaxNote[] = [];
  const groups = new Map<string, number[]>();
  for (const rule of rules) {
    const parsed = ZTaxRule.safeParse(rule);
    if (!parsed.success) {
      notes.push(note('TAX_RULE_INVALID', [rule.id], describeIssues(parsed.error)));
      continue;
    }
    const key = [rule.ncm, rule.ufOrigem, rule.ufDestino, rule.regime ?? ''].join('|');
    groups.set(key, [...(groups.get(key) ?? []), rule.id]);
  }
  for (const ids of groups.values()) {
    if (ids.length > 1)
      notes.push(
        note(
          'TAX_RULE_AMBIGUOUS',
          ids.sort((a, b) => a - b),
        ),
      );
  }
  return notes;
}

// ---------------------------------------------------------------------------------------
// Exact arithmetic

const RATE_ONE = 100n * 10n ** BigInt(TAX_RATE_SCALE); // 100 % in rate units
const rateUnits = (percent: number): bigint => toUnits(percent, TAX_RATE_SCALE);

/** n / d (d > 0, n ≥ 0 here) rounded by the tenant's rule on an exact half. */
export function divRoundBy(n: bigint, d: bigint, rule: RoundingRule): bigint {
  if (d <= 0n) throw new RangeError('divRoundBy: the divisor must be positive');
  const negative = n < 0n;
  const a = negative ? -n : n;
  let q = a / d;
  const twice = (a % d) * 2n;
  if (twice > d || (twice === d && (rule === 'half-up' || q % 2n === 1n))) q += 1n;
  return negative ? -q : q;
}

/** `rate` % of an amount in centavos, rounded to centavos. */
const pct = (amount: bigint, rate: bigint, rule: RoundingRule): bigint => divRoundBy(amount * rate, RATE_ONE, rule);

/**
 * The adjusted MVA, in percent to `decimals` places: ((1 + MVA) × (1 − inter) / (1 − intra)) − 1
 * (Convênio/Protocolo formula, docs/taxes.md). Exact until the one rounding.
 */
export function adjustedMva(
  mvaPercent: number,
  interstatePercent: number,
  destinationPercent: number,
  decimals: number = DEFAULT_TAX_OPTIONS.mvaAdjustedDecimals,
  rule: RoundingRule = DEFAULT_TAX_OPTIONS.roundingRule,
): number {
  return fromUnits(adjustedMvaUnits(mvaPercent, interstatePercent, destinationPercent, decimals, rule), decimals);
}

function adjustedMvaUnits(mva: number, inter: number, intra: number, decimals: number, rule: RoundingRule): bigint {
  const m = rateUnits(mva);
  const num = (RATE_ONE + m) * (RATE_ONE - rateUnits(inter)); // (1+MVA)(1−inter) in RATE_ONE²
  const den = RATE_ONE - rateUnits(intra);
  // percent × 10^decimals = (num / den − RATE_ONE) × 10^decimals / 10^TAX_RATE_SCALE
  return divRoundBy((num - RATE_ONE * den) * 10n ** BigInt(decimals), den * 10n ** BigInt(TAX_RATE_SCALE), rule);
}

// ---------------------------------------------------------------------------------------
// The line

export interface TaxLineInput {
  /** The line's goods after the discount, in reais (the NF-e's vProd − vDesc): lineAmounts().total. */
  goods: number;
  /** Freight, insurance and other charges billed to the client on this line (vFrete + vSeg + vOutro); 0 by default. */
  otherCharges?: number;
  product: ProductFiscal;
}

export interface TaxContext {
  company: CompanyFiscal;
  client: ClientFiscal;
  rules: readonly TaxRule[];
  options?: TaxOptions;
}

const money = z.number().min(0);

export const ZLineStTaxes = z.object({
  mvaOriginal: z.number().describe('The MVA the rule gives, percent'),
  mva: z.number().describe('The MVA applied: the adjusted one on an interstate sale, else the original'),
  mvaAdjusted: z.boolean(),
  base: money.describe('vBCST: (goods + other charges + IPI) × (1 + MVA)'),
  rate: z.number().describe('pICMSST: the destination internal rate'),
  value: money.describe('vICMSST: base × rate − own ICMS, never negative'),
  fcpRate: z.number().describe('pFCPST'),
  fcpValue: money.describe('vFCPST: base × FCP-ST rate − FCP of the operation, never negative'),
});
export type LineStTaxes = z.infer<typeof ZLineStTaxes>;

/** A line's taxes: what the server snapshots per line, and what the cart shows. */
export const ZLineTaxes = z.object({
  ruleId: z.number().int().nullable().describe('The rule applied, null when none did'),
  goods: money.describe('The line after its discount'),
  otherCharges: money,
  ipi: z.object({ base: money, rate: z.number(), value: money }),
  icms: z
    .object({
      base: money,
      rate: z.number(),
      reductionPercent: z.number(),
      ipiInBase: z.boolean(),
      value: money,
    })
    .describe('Own ICMS (of the operation): inside the price, not added to the total'),
  fcp: z.object({ rate: z.number(), value: money }).describe('FCP of the operation: inside the price'),
  st: ZLineStTaxes.nullable().describe('null when ST does not apply'),
  total: money.describe('What the client pays for the line: goods + other charges + IPI + ICMS-ST + FCP-ST'),
  notes: z.array(ZTaxNote),
});
export type LineTaxes = z.infer<typeof ZLineTaxes>;

/** Taxes of one line. Never throws on bad fiscal data: the line says what it left out. */
export function lineTaxes(line: TaxLineInput, ctx: TaxContext): LineTaxes {
  const opts = { ...DEFAULT_TAX_OPTIONS, ...ZTaxOptions.parse(ctx.options ?? {}) };
  const R = opts.roundingRule;
  const goods = cents(line.goods);
  const other = cents(line.otherCharges ?? 0);
  const notes: TaxNote[] = [];
  const zeroLine = (): LineTaxes => ({
    ruleId: null,
    goods: fromCents(goods),
    otherCharges: fromCents(other),
    ipi: { base: 0, rate: 0, value: 0 },
    icms: { base: 0, rate: 0, reductionPercent: 0, ipiInBase: false, value: 0 },
    fcp: { rate: 0, value: 0 },
    st: null,
    total: fromCents(goods + other),
    notes,
  });

  const product = ZProductFiscal.safeParse(line.product);
  if (!product.success) {
    notes.push(note('TAX_PRODUCT_FISCAL_INVALID', [], describeIssues(product.error)));
    return zeroLine();
  }
  const p = product.data;

  // IPI: on the value of the operation (goods + charges), RIPI art. 190.
  const ipiBase = goods + other;
  const ipiRate = rateUnits(p.aliquotaIpi);
  const ipi = pct(ipiBase, ipiRate, R);

  const base: LineTaxes = {
    ...zeroLine(),
    ipi: { base: fromCents(ipiBase), rate: p.aliquotaIpi, value: fromCents(ipi) },
    total: fromCents(goods + other + ipi),
  };

  // Bad company or client data: the line keeps its IPI (the product's) and says why.
  const companyParsed = ZCompanyFiscal.safeParse(ctx.company);
  if (!companyParsed.success) {
    notes.push(note('TAX_COMPANY_FISCAL_INVALID', [], describeIssues(companyParsed.error)));
    return base;
  }
  const clientParsed = ZClientFiscal.safeParse(ctx.client);
  if (!clientParsed.success) {
    notes.push(note('TAX_CLIENT_FISCAL_INVALID', [], describeIssues(clientParsed.error)));
    return base;
  }
  const company = companyParsed.data;
  const client = clientParsed.data;

  const { rule, notes: ruleNotes } = selectTaxRule(ctx.rules, p.ncm, company.uf, client);
  notes.push(...ruleNotes);
  const interstate = company.uf !== client.uf;
  if (interstate && !client.contribuinteIcms) notes.push(note('TAX_DIFAL_NOT_COMPUTED'));
  if (rule === null) return base;

  // ICMS of the operation. IPI enters its base unless the sale is between contributors for
  // resale (CF art. 155 § 2º XI; LC 87/96 art. 13 § 2º). An imported product's interstate
  // sale takes 4 % (Resolução do Senado 13/2012) whatever the rule says.
  const ipiInBase = !client.contribuinteIcms || client.consumidorFinal;
  const importedInterstate =
    interstate && rule.aliquotaIcms > 0 && (IMPORTED_ORIGINS as readonly number[]).includes(p.origem);
  const icmsRatePercent = importedInterstate ? 4 : rule.aliquotaIcms;
  const icmsRate = rateUnits(icmsRatePercent);
  const reduction = rateUnits(rule.reducaoBase);
  const icmsBase = divRoundBy((goods + other + (ipiInBase ? ipi : 0n)) * (RATE_ONE - reduction), RATE_ONE, R);
  const icms = pct(icmsBase, icmsRate, R);
  const fcpRate = rateUnits(rule.aliquotaFcp);
  const fcp = pct(icmsBase, fcpRate, R);

  // ST: only to a contributor that resells (a Simples reseller included); a final consumer
  // pays no ST (a non-contributor's interstate purchase is DIFAL's, out of scope).
  const stApplies = rule.st && client.contribuinteIcms && !client.consumidorFinal;
  let st: LineStTaxes | null = null;
  let stValue = 0n;
  let fcpStValue = 0n;
  if (stApplies) {
    const destRate = rateUnits(rule.aliquotaInternaDestino);
    const adjust = interstate && !company.simplesNacional && destRate > icmsRate;
    // The MVA applied, in 10^-decimals percent (the adjusted one rounded to the tenant's
    // decimals; the original one exactly, in 10^-4).
    const mvaDecimals = adjust ? opts.mvaAdjustedDecimals : TAX_RATE_SCALE;
    const mvaUnits = adjust
      ? adjustedMvaUnits(rule.mva, icmsRatePercent, rule.aliquotaInternaDestino, opts.mvaAdjustedDecimals, R)
      : rateUnits(rule.mva);
    const one = 100n * 10n ** BigInt(mvaDecimals);
    const stBase = divRoundBy((goods + other + ipi) * (one + mvaUnits), one, R);
    stValue = pct(stBase, destRate, R) - icms;
    if (stValue < 0n) stValue = 0n;
    const fcpStRate = rateUnits(rule.aliquotaFcpSt);
    fcpStValue = fcpStRate === 0n ? 0n : pct(stBase, fcpStRate, R) - fcp;
    if (fcpStValue < 0n) fcpStValue = 0n;
    st = {
      mvaOriginal: rule.mva,
      mva: fromUnits(mvaUnits, mvaDecimals),
      mvaAdjusted: adjust,
      base: fromCents(stBase),
      rate: rule.aliquotaInternaDestino,
      value: fromCents(stValue),
      fcpRate: rule.aliquotaFcpSt,
      fcpValue: fromCents(fcpStValue),
    };
  }

  return {
    ...base,
    ruleId: rule.id,
    icms: {
      base: fromCents(icmsBase),
      rate: icmsRatePercent,
      reductionPercent: rule.reducaoBase,
      ipiInBase,
      value: fromCents(icms),
    },
    fcp: { rate: rule.aliquotaFcp, value: fromCents(fcp) },
    st,
    total: fromCents(goods + other + ipi + stValue + fcpStValue),
  };
}

// ---------------------------------------------------------------------------------------
// The order

export const ZOrderTaxTotals = z.object({
  goods: money,
  otherCharges: money,
  ipi: money,
  icms: money,
  fcp: money,
  icmsSt: money,
  fcpSt: money,
  total: money.describe("What the client pays: the sum of the lines' totals"),
});
export type OrderTaxTotals = z.infer<typeof ZOrderTaxTotals>;

export const ZOrderTaxes = z.object({ lines: z.array(ZLineTaxes), totals: ZOrderTaxTotals });
export type OrderTaxes = z.infer<typeof ZOrderTaxes>;

/** The order's figures: each line's taxes and their sums in centavos (no rounding of their own). */
export function orderTaxes(lines: readonly TaxLineInput[], ctx: TaxContext): OrderTaxes {
  const computed = lines.map((l) => lineTaxes(l, ctx));
  const sum = (pick: (l: LineTaxes) => number) => fromCents(computed.reduce((acc, l) => acc + cents(pick(l)), 0n));
  return {
    lines: computed,
    totals: {
      goods: sum((l) => l.goods),
      otherCharges: sum((l) => l.otherCharges),
      ipi: sum((l) => l.ipi.value),
      icms: sum((l) => l.icms.value),
      fcp: sum((l) => l.fcp.value),
      icmsSt: sum((l) => l.st?.value ?? 0),
      fcpSt: sum((l) => l.st?.fcpValue ?? 0),
      total: sum((l) => l.total),
    },
  };
}
