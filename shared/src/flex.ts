// The representative's flex balance (saldo flex): the margin a representative earns by
// selling above the list price, spent on discounts beyond a line's ceiling. Pure arithmetic
// that the cart (as a preview, offline) and the server (authoritatively, when the order
// arrives) both run, beside the discount engine. Amounts are BRL rounded to cents;
// percentages are compared in hundredths (toHundredths), as the discount engine does.
import { toHundredths } from './discount-engine.ts';
import { lineAmounts, round2 } from './orders.ts';

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
  const { unitPrice } = lineAmounts(line.listPrice, line.quantity, line.discountPercent);
  const beyond = toHundredths(line.discountPercent) - toHundredths(line.ceilingPercent);
  const above = round2((unitPrice - line.listPrice) * line.quantity);
  const earned = above > 0 ? round2((above * policy.creditSharePercent) / 100) : 0;
  let spent = 0;
  if (beyond > 0) {
    const atCeiling = lineAmounts(line.listPrice, line.quantity, line.ceilingPercent).unitPrice;
    spent = Math.max(0, round2((atCeiling - unitPrice) * line.quantity));
  }
  return {
    earned,
    spent,
    beyondPoints: Math.max(0, beyond) / 100,
    withinMaximum: beyond <= toHundredths(policy.maxBeyondCeilingPoints),
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
  const earned = round2(each.reduce((s, l) => s + l.earned, 0));
  const spent = round2(each.reduce((s, l) => s + l.spent, 0));
  return { lines: each, earned, spent, covered: spent <= round2(balance), balanceAfter: round2(balance - spent) };
}
