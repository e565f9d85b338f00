// The client's available credit: what the cart shows offline and what the server judges an
// order by when it arrives (on the server's own figures, never the device's). Amounts in BRL,
// added and compared in exact centavos (money.ts, docs/money.md).
import { cents, fromCents, round2, subtractMoney } from './money.ts';

/** What a manager sets for an order beyond the client's available credit (docs/credit-and-flex.md). */
export const CREDIT_POLICIES = ['flag', 'block', 'ignore'] as const;
export type CreditPolicy = (typeof CREDIT_POLICIES)[number];
export const DEFAULT_CREDIT_POLICY: CreditPolicy = 'flag';

export interface CreditFigures {
  /** The client's limit, managed by Campo; null when none is set (no credit check). */
  limit: number | null;
  /** The client's open receivables in the ERP (titles not paid). */
  openReceivables: number;
  /** Its Campo orders accepted and not yet invoiced (pending approval and approved). */
  openOrders: number;
}

/** limit − open receivables − open orders; null when the client has no limit. */
export function availableCredit(c: CreditFigures): number | null {
  return c.limit === null ? null : subtractMoney(c.limit, c.openReceivables, c.openOrders);
}

export type CreditCheck =
  | { kind: 'unchecked' }
  | { kind: 'within'; available: number; orderTotal: number }
  | { kind: 'beyond'; available: number; orderTotal: number; excess: number };

/** How an order of `orderTotal` stands against the client's credit (before the policy applies). */
export function checkCredit(c: CreditFigures, orderTotal: number): CreditCheck {
  const available = availableCredit(c);
  if (available === null) return { kind: 'unchecked' };
  const total = round2(orderTotal);
  return cents(total) <= cents(available)
    ? { kind: 'within', available, orderTotal: total }
    : { kind: 'beyond', available, orderTotal: total, excess: fromCents(cents(total) - cents(available)) };
}

/** What the policy makes of a check: the order refused, accepted marked for the approver, or accepted. */
export function creditOutcome(check: CreditCheck, policy: CreditPolicy): 'refuse' | 'flag' | 'accept' {
  if (check.kind !== 'beyond' || policy === 'ignore') return 'accept';
  return policy === 'block' ? 'refuse' : 'flag';
}
