// The representative's flex balance (saldo flex): the margin a representative earns by
// selling above the list price, spent on discounts beyond a line's ceiling. Pure arithmetic
// that the cart (as a preview, offline) and the server (authoritatively, when the order
// arrives) both run, beside the discount engine. Amounts are BRL in exact centavos, each line's
// rounded once, half away from zero (money.ts, docs/money.md); percentages are compared in
// hundredths (toHundredths), as the discount engine does.
import { z } from 'zod';
import { toHundredths, withinFlexMaximum } from './discount-engine.ts';
import { amountCents, cents, divRound, fromCents, PERCENT_SCALE, PRICE_SCALE, priceUnits, toUnits } from './money.ts';
import { pageOf, ZPageQuery } from './pagination.ts';

/** What a manager sets per tenant (docs/credit-and-flex.md). */
export interface FlexPolicy {
  /** Share of the margin above the list price that goes to the balance, 0 to 100 %. */
  creditSharePercent: number;
  /** How far past a line's ceiling the balance may take its discount, in percentage points. */
  maxBeyondCeilingPoints: number;
}

/** Flex off: nothing earned, nothing beyond a ceiling. */
export const FLEX_OFF: FlexPolicy = { creditSharePercent: 0, maxBeyondCeilingPoints: 0 };

export interface FlexLineInput {
  listPrice: number;
  quantity: number;
  /** Negative when sold above the list price (an acréscimo). */
  discountPercent: number;
  ceilingPercent: number;
}

export interface FlexLine {
  /** What the line adds to the balance: the share of (sold − list) × quantity above the list. */
  earned: number;
  /** What the line takes: (the price at the ceiling − the sold price) × quantity, beyond the ceiling. */
  spent: number;
  /** Percentage points past the ceiling (0 within it). */
  beyondPoints: number;
  /** False when the discount is past the ceiling by more than the policy's maximum. */
  withinMaximum: boolean;
}

export function lineFlex(line: FlexLineInput, policy: FlexPolicy): FlexLine {
  const unit = priceUnits(line.listPrice, line.discountPercent);
  const beyond = toHundredths(line.discountPercent) - toHundredths(line.ceilingPercent);
  const above = amountCents(unit - toUnits(line.listPrice, PRICE_SCALE), line.quantity);
  // The share of the surplus, in centavos: above × share % rounded once, half away from zero.
  const share = toUnits(policy.creditSharePercent, PERCENT_SCALE);
  const earned = above > 0n ? divRound(above * share, 100n * 10n ** BigInt(PERCENT_SCALE)) : 0n;
  let spent = 0n;
  if (beyond > 0) {
    const atCeiling = priceUnits(line.listPrice, line.ceilingPercent);
    const taken = amountCents(atCeiling - unit, line.quantity);
    spent = taken > 0n ? taken : 0n;
  }
  return {
    earned: fromCents(earned),
    spent: fromCents(spent),
    beyondPoints: Math.max(0, beyond) / 100,
    withinMaximum: withinFlexMaximum(line.discountPercent, line.ceilingPercent, policy.maxBeyondCeilingPoints),
  };
}

export interface OrderFlex {
  lines: FlexLine[];
  earned: number;
  spent: number;
  /**
   * Whether the balance covers what the order spends. What an order earns is not spendable
   * until it is approved, so it never pays for its own lines (docs/credit-and-flex.md).
   */
  covered: boolean;
  /** The balance after the order's reservation (what it spends), never below zero when covered. */
  balanceAfter: number;
}

export function orderFlex(lines: readonly FlexLineInput[], policy: FlexPolicy, balance: number): OrderFlex {
  const each = lines.map((l) => lineFlex(l, policy));
  const earned = each.reduce((s, l) => s + cents(l.earned), 0n);
  const spent = each.reduce((s, l) => s + cents(l.spent), 0n);
  const saldo = cents(balance);
  return {
    lines: each,
    earned: fromCents(earned),
    spent: fromCents(spent),
    covered: spent <= saldo,
    balanceAfter: fromCents(saldo - spent),
  };
}

// ---------------------------------------------------------------------------------------
// Contracts: the balance, its ledger and a manager's adjustment.

export const FLEX_MOVES = ['reserva', 'liberacao', 'credito', 'ajuste', 'estorno'] as const;
export type FlexMove = (typeof FLEX_MOVES)[number];
/** numeric(14,2) holds up to this. */
export const FLEX_AMOUNT_MAX = 999_999_999_999.99;
export const FLEX_REASON_MAX = 500;
/** How many of the ledger's latest entries the phone holds (collection ajustes, document 'flex'). */
export const FLEX_SYNC_ENTRIES = 50;

export const ZFlexEntry = z
  .object({
    id: z.number().int().describe('Ledger entry id'),
    codVendedor: z.number().int().describe('Representative'),
    tipo: z
      .enum(FLEX_MOVES)
      .describe(
        "'reserva': an order accepted spends (negative); 'liberacao': its rejection, or the ERP cancelling it, gives it back (motivo says which); 'credito': its approval earns; 'estorno': the ERP cancelling an approved order takes back what it earned, as much as the balance holds (negative); 'ajuste': a manager's",
      ),
    valor: z.number().describe('BRL, signed: positive credits the balance, negative debits it'),
    idPedido: z.number().int().nullable().describe('The order of the move; null for an adjustment'),
    numPedSar: z.number().int().nullable().describe("The order's number, as people read it"),
    motivo: z.string().nullable().describe("An adjustment's reason"),
    criadoPor: z.string().describe('Who made the move: the login, or the system for an order'),
    criadoEm: z.string().describe('When (ISO 8601)'),
  })
  .describe("A move of a representative's flex balance");
export type FlexEntry = z.infer<typeof ZFlexEntry>;

export const ZFlexAdjustment = z
  .object({
    valor: z
      .number()
      .min(-FLEX_AMOUNT_MAX)
      .max(FLEX_AMOUNT_MAX)
      .multipleOf(0.01)
      .refine((v) => v !== 0, 'O valor do ajuste não pode ser zero.')
      .describe('BRL, signed; a debit beyond the balance is refused (FLEX_BALANCE_INSUFFICIENT)'),
    // The bound counts characters (code points) of the trimmed text, as JSON Schema's maxLength
    // does; zod's .max() would count UTF-16 units (an emoji twice).
    motivo: z
      .string()
      .meta({ maxLength: FLEX_REASON_MAX })
      .trim()
      .min(1, 'informe o motivo do ajuste')
      .refine((s) => Array.from(s).length <= FLEX_REASON_MAX, `no máximo ${FLEX_REASON_MAX} caracteres`)
      .describe('Why: kept in the ledger, as typed, with who and when'),
  })
  .strict()
  .describe("A manager's adjustment of a representative's flex balance");
export type FlexAdjustment = z.infer<typeof ZFlexAdjustment>;

export const ZFlexBalance = z
  .object({
    codVendedor: z.number().int().describe('Representative'),
    nome: z.string().describe("The representative's name, as the ERP has it"),
    codSupervisor: z.number().int().nullable().describe("The representative's ERP supervisor"),
    saldo: z.number().describe('The balance now, BRL (0 for a representative without moves)'),
    ultimoMovimentoEm: z.string().nullable().describe('When the last move was made (ISO 8601); null: none yet'),
  })
  .describe("A representative's flex balance");
export type FlexBalance = z.infer<typeof ZFlexBalance>;

export const ZFlexBalanceQuery = ZPageQuery;
export const ZFlexBalancePage = pageOf(
  ZFlexBalance,
  'A page of the flex balances the caller may see, by name then code',
);
export type FlexBalancePage = z.infer<typeof ZFlexBalancePage>;

export const ZFlexEntryPage = pageOf(ZFlexEntry, "A page of a representative's ledger, newest first").extend({
  codVendedor: z.number().int().describe('Representative'),
  nome: z.string().describe("The representative's name"),
  saldo: z.number().describe('The balance now, BRL: the sum of every entry'),
});
export type FlexEntryPage = z.infer<typeof ZFlexEntryPage>;

export const ZFlexAdjustmentResult = z
  .object({
    saldo: z.number().describe('The balance after the adjustment, BRL'),
    lancamento: ZFlexEntry,
  })
  .describe('The adjustment made: the new balance and its ledger entry');
export type FlexAdjustmentResult = z.infer<typeof ZFlexAdjustmentResult>;
