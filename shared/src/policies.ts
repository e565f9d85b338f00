// Contracts of the commercial policies (/politicas): discount rules, the rules in force, the
// product groups a rule can be scoped to, and the discount ceiling (alçada) of a cart line.
// The ceiling itself is computed by the discount engine (discount-engine.ts); these are only
// the shapes that cross the wire.
import { z } from 'zod';
import { ZIsoDate } from './dates.ts';
import { hasAtMostPlaces, PERCENT_SCALE } from './money.ts';
import { pageOf, ZPageQuery } from './pagination.ts';

/** Largest value of a PostgreSQL integer: ERP codes (groups, pautas, representatives, products) are int4. */
const INT4_MAX = 2_147_483_647;

/** An open-ended rule (vigencia_fim null, possible in rules kept from the old system) is given to the engine as ending on this day. */
export const OPEN_ENDED_DATE = '9999-12-31';

/** How many price lists one POST may fan out to. */
export const RULE_PAUTAS_MAX = 100;
/** How many products one ceiling preview may ask for. */
export const CEILING_PRODUCTS_MAX = 200;
export const RULE_DESCRICAO_MAX = 200;

const code = (what: string) => z.number().int().positive().max(INT4_MAX).describe(what);
/** A code in a query string: the text is read as a number. */
const queryCode = (what: string) => z.coerce.number().int().positive().max(INT4_MAX).describe(what);

/** Two decimals at most, by the number's digits (money.ts), as numeric(5,2) holds it. */
const hasTwoDecimals = (n: number) => hasAtMostPlaces(n, PERCENT_SCALE);

export const ZRulePercent = z
  .number()
  .gt(0, 'o percentual deve ser maior que 0')
  .lte(100, 'o percentual deve ser no máximo 100')
  .refine(hasTwoDecimals, 'use no máximo duas casas decimais')
  .describe('Discount percentage of the rule: more than 0, at most 100, two decimals at most');

export const ZRuleBadge = z
  .enum(['Promocao', 'Cond. especial'])
  .describe("Catalog badge: 'Promocao' for a promotion, 'Cond. especial' for a special condition");

export const ZRuleSituacao = z
  .enum(['vigente', 'expirada', 'futura'])
  .describe('Where the rule stands on the business date: in force, expired or not yet started');

export const ZPolicyRule = z
  .object({
    id: z.number().int().describe('Rule id'),
    descricao: z
      .string()
      .describe(
        'Description shown in the cart, the catalog badge and refusal messages, exactly as the manager typed it',
      ),
    grupo: z.number().int().nullable().describe('Product group (cod_grupo); null: every group'),
    subgrupo: z
      .number()
      .int()
      .nullable()
      .describe('Product subgroup (cod_subgrupo) inside the group; null: every subgroup'),
    representante: z.number().int().nullable().describe('Representative (cod_vendedor); null: every representative'),
    idPauta: z.number().int().nullable().describe('Price list (pauta); null: every list'),
    percent: z.number().describe('Discount percentage: the ceiling it raises and the discount it pre-fills'),
    vigenciaInicio: z.string().describe('First day in force, YYYY-MM-DD (inclusive)'),
    vigenciaFim: z
      .string()
      .nullable()
      .describe('Last day in force, YYYY-MM-DD (inclusive); null only for open-ended rules kept from the old system'),
    promocao: z.boolean().describe('true: a promotion (badge Promocao); false: a special condition (Cond. especial)'),
    badge: ZRuleBadge,
    situacao: ZRuleSituacao,
    criadoPor: z.string().nullable().describe('Login of the manager who created the rule'),
    criadoEm: z.string().describe('When the rule was created (ISO 8601)'),
    atualizadoEm: z.string().describe('When the rule last changed (ISO 8601)'),
  })
  .describe('A discount rule (commercial policy)');
export type PolicyRule = z.infer<typeof ZPolicyRule>;

const ruleFields = {
  descricao: z
    .string()
    .trim()
    .min(1, 'informe a descrição')
    .max(RULE_DESCRICAO_MAX)
    .describe(
      `Description, 1 to ${RULE_DESCRICAO_MAX} characters; stored as LATIN1 text (é, ç, ã kept; “ ” — € turned into " - EUR; emoji dropped)`,
    ),
  grupo: code('Product group (cod_grupo) of the tenant; null or absent: every group').nullable().default(null),
  subgrupo: code('Product subgroup (cod_subgrupo) of that group; needs grupo; null or absent: every subgroup')
    .nullable()
    .default(null),
  representante: code('Representative (cod_vendedor) of the tenant; null or absent: every representative')
    .nullable()
    .default(null),
  percent: ZRulePercent,
  vigenciaInicio: ZIsoDate.describe('First day in force, YYYY-MM-DD (inclusive)'),
  vigenciaFim: ZIsoDate.describe('Last day in force, YYYY-MM-DD (inclusive); not before vigenciaInicio'),
  promocao: z
    .boolean()
    .default(false)
    .describe('true: a promotion (badge Promocao); false or absent: a special condition'),
};

type RuleShape = { grupo: number | null; subgrupo: number | null; vigenciaInicio: string; vigenciaFim: string };

const ruleChecks = (rule: RuleShape, ctx: z.RefinementCtx) => {
  if (rule.vigenciaFim < rule.vigenciaInicio)
    ctx.addIssue({ code: 'custom', path: ['vigenciaFim'], message: 'o fim da vigência não pode ser antes do início' });
  if (rule.subgrupo !== null && rule.grupo === null)
    ctx.addIssue({
      code: 'custom',
      path: ['subgrupo'],
      message: 'um subgrupo só vale dentro de um grupo: informe o grupo',
    });
};

// Strict: an unknown key is refused, not dropped. A POST carrying `idPauta` (the PUT's field)
// or a PUT carrying `idPautas` would otherwise silently become a rule for every price list.
export const ZPolicyRuleCreate = z
  .strictObject({
    ...ruleFields,
    idPautas: z
      .array(code('Price list (id_pauta) of the tenant'))
      .max(RULE_PAUTAS_MAX)
      .default([])
      .refine((ids) => new Set(ids).size === ids.length, 'a mesma pauta aparece mais de uma vez')
      .describe(
        `Price lists: one rule is created per list, all or none (at most ${RULE_PAUTAS_MAX}); empty or absent: one rule for every list`,
      ),
  })
  .superRefine(ruleChecks)
  .describe('New discount rule(s)');
export type PolicyRuleCreate = z.infer<typeof ZPolicyRuleCreate>;

export const ZPolicyRuleUpdate = z
  .strictObject({
    ...ruleFields,
    idPauta: code('Price list (id_pauta) of the tenant; null or absent: every list').nullable().default(null),
  })
  .superRefine(ruleChecks)
  .describe('The whole rule, replacing what it was (one rule: a single pauta, not a list)');
export type PolicyRuleUpdate = z.infer<typeof ZPolicyRuleUpdate>;

export const ZRuleIdParams = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).describe('Rule id'),
});

export const ZPolicyRuleListQuery = ZPageQuery.extend({
  situacao: z
    .enum(['vigentes', 'expiradas', 'futuras', 'todas'])
    .default('todas')
    .describe("Rules in force, expired or future on the server's business date (America/Sao_Paulo); default todas"),
  idPauta: queryCode(
    'Only rules restricted to this price list (exact match: rules for every list are left out)',
  ).optional(),
  grupo: queryCode('Only rules restricted to this product group (exact match)').optional(),
  representante: queryCode('Only rules restricted to this representative (exact match)').optional(),
}).describe('Filters and page of the rule list');
export type PolicyRuleListQuery = z.infer<typeof ZPolicyRuleListQuery>;

export const ZPolicyRulePage = pageOf(ZPolicyRule, 'A page of discount rules, latest start first');
export type PolicyRulePage = z.infer<typeof ZPolicyRulePage>;

export const ZRuleOverlap = z
  .object({
    ruleId: z.number().int().describe('The new or changed rule'),
    overlapping: z
      .array(ZPolicyRule)
      .describe(
        'Existing rules of the tenant that can reach the same lines on a common day: each scope column equal or null on either side, and validity periods that intersect',
      ),
  })
  .describe('Existing rules a new rule overlaps; the highest percent wins on a line, so the screen warns');

export const ZPolicyRuleCreated = z
  .object({
    items: z.array(ZPolicyRule).describe('The rules created: one per pauta of idPautas, or one for every list'),
    overlaps: z
      .array(ZRuleOverlap)
      .describe('Only the created rules that overlap an existing rule; empty when none does'),
  })
  .describe('Rules created, and the existing rules they overlap');
export type PolicyRuleCreated = z.infer<typeof ZPolicyRuleCreated>;

export const ZPolicyRuleUpdated = z
  .object({
    item: ZPolicyRule,
    overlaps: z.array(ZPolicyRule).describe('Other rules of the tenant this rule now overlaps'),
  })
  .describe('The rule as saved, and the other rules it overlaps');
export type PolicyRuleUpdated = z.infer<typeof ZPolicyRuleUpdated>;

export const ZRulesInForce = z
  .object({
    date: z.string().describe("The server's business date (America/Sao_Paulo) that decided, YYYY-MM-DD"),
    items: z
      .array(ZPolicyRule)
      .describe('Rules in force on that date; a representative gets only those for every representative or for them'),
  })
  .describe('Discount rules in force');
export type RulesInForce = z.infer<typeof ZRulesInForce>;

export const ZProductGroups = z
  .object({
    items: z
      .array(
        z
          .object({
            codGrupo: z.number().int().describe('Group code (a rule’s grupo)'),
            descricao: z.string().describe('Group name'),
            subgrupos: z
              .array(
                z
                  .object({
                    codSubgrupo: z
                      .number()
                      .int()
                      .describe('Subgroup code (a rule’s subgrupo), unique within its group'),
                    descricao: z.string().describe('Subgroup name'),
                  })
                  .describe('A subgroup of the group'),
              )
              .describe('Subgroups of the group, by code'),
          })
          .describe('A product group'),
      )
      .describe('Product groups of the tenant, by code'),
  })
  .describe('Product groups and subgroups, for choosing a rule’s scope');
export type ProductGroups = z.infer<typeof ZProductGroups>;

export const ZCeilingQuery = z
  .object({
    idPauta: queryCode('Price list of the cart (the client’s pauta)'),
    // A repeated parameter arrives as an array, a single one as a string.
    idProduto: z
      .preprocess(
        (v) => (Array.isArray(v) ? v : [v]),
        z
          .array(queryCode('Product id'))
          .min(1)
          .max(CEILING_PRODUCTS_MAX, `no máximo ${CEILING_PRODUCTS_MAX} produtos por consulta`),
      )
      .describe(`Products of the cart: repeat the parameter (idProduto=1&idProduto=2), 1 to ${CEILING_PRODUCTS_MAX}`),
    codVendedor: queryCode(
      'Whose ceiling to preview: required for supervisors (their team only), managers and admins; a representative may only name themself',
    ).optional(),
    data: ZIsoDate.optional().describe(
      "Preview date, YYYY-MM-DD, for supervisors, managers and admins; default and for representatives always the server's business date",
    ),
  })
  .describe('Cart lines to compute the ceiling for');
export type CeilingQuery = z.infer<typeof ZCeilingQuery>;

export const ZCeilingRule = z
  .object({
    id: z.number().int().describe('Rule id'),
    descricao: z.string().describe('Rule description'),
    percent: z.number().describe('Rule percentage'),
    vigenciaInicio: z.string().describe('First day in force, YYYY-MM-DD'),
    vigenciaFim: z.string().nullable().describe('Last day in force, YYYY-MM-DD; null: open-ended'),
    promocao: z.boolean().describe('true: a promotion; false: a special condition'),
  })
  .describe('The rule behind a ceiling or a pre-filled discount');

export const ZLineCeiling = z
  .object({
    idProduto: z.number().int().describe('Product'),
    categoria: z.string().describe('Product category (productCategory): selects the representative’s category ceiling'),
    grupo: z.number().int().describe('Product group: selects rules'),
    subgrupo: z.number().int().describe('Product subgroup: selects rules'),
    basePercent: z.number().describe('The representative’s own ceiling for this product, before rules'),
    baseSource: z
      .enum(['category', 'representative', 'default'])
      .describe(
        "category: the representative's ceiling for the product's category; representative: their default ceiling; default: neither is set, 5%",
      ),
    ceilingPercent: z.number().describe('The line’s ceiling: the higher of the base and the best rule in force'),
    source: z
      .enum(['category', 'representative', 'default', 'rule'])
      .describe('What set the ceiling: rule when a rule raised it above the base, else the base’s source'),
    rule: ZCeilingRule.nullable().describe('The rule that raised the ceiling; null when the base stands'),
    prefillPercent: z
      .number()
      .describe('Discount a new cart line starts with: the best matching rule’s percent, else 0'),
    prefillRule: ZCeilingRule.nullable().describe('The rule behind the pre-filled discount; null when no rule matches'),
  })
  .describe('Ceiling of one cart line, as the discount engine computes it');
export type LineCeilingView = z.infer<typeof ZLineCeiling>;

export const ZCeilingPreview = z
  .object({
    codVendedor: z.number().int().describe('Representative whose ceiling this is'),
    idPauta: z.number().int().describe('Price list of the cart'),
    data: z.string().describe('Date the rules were taken in force on, YYYY-MM-DD'),
    items: z.array(ZLineCeiling).describe('One per distinct product asked for, in the order asked'),
  })
  .describe('Discount ceilings (alçada) of cart lines');
export type CeilingPreview = z.infer<typeof ZCeilingPreview>;
