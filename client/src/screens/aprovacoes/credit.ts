// What the approver reads of the client's credit (docs/credit-and-flex.md): the figures the
// server judged the order by when it arrived, never recomputed from today's, so the approver
// decides on what the mark was set for.
import { type OrderSummary, subtractMoney } from '@campo/shared';
import { brl } from '../../kit/format.ts';

export type OrderCredit = OrderSummary['credit'];

export interface CreditAfterOrder {
  limit: number;
  /** Open receivables plus the client's Campo orders pending or approved, before this order. */
  open: number;
  thisOrder: number;
  /** What is left once this order counts: negative when the order goes beyond. */
  availableAfter: number;
  /** How far the order goes beyond the available credit; null when it fits. */
  beyond: number | null;
  exceeded: boolean;
}

/** The review's figures; null when the client had no limit, undefined for an order from before the check. */
export function creditAfterOrder(credit: OrderCredit, total: number): CreditAfterOrder | null | undefined {
  if (!credit) return credit;
  const availableAfter = subtractMoney(credit.available, total);
  return {
    limit: credit.limit,
    open: credit.open,
    thisOrder: total,
    availableAfter,
    beyond: availableAfter < 0 ? -availableAfter : null,
    exceeded: credit.exceeded,
  };
}

/** The queue's mark: "Acima do crédito em R$ X", or null for an order the server did not mark. */
export function creditMark(credit: OrderCredit, total: number): string | null {
  if (!credit?.exceeded) return null;
  const beyond = creditAfterOrder(credit, total)?.beyond;
  return beyond ? `Acima do crédito em ${brl(beyond)}` : 'Acima do crédito';
}

/** The review's sentence when the order goes beyond the client's available credit. */
export const beyondSentence = (beyond: number) => `Este pedido passa ${brl(beyond)} do crédito disponível do cliente.`;

/** A balance that may be negative, with its sign in words as well as in the figure. */
export const signedBrl = (n: number) => (n < 0 ? `${brl(n)} (negativo)` : brl(n));

export const NO_LIMIT = 'Cliente sem limite de crédito definido.';
export const NOT_CHECKED = 'Pedido enviado antes da verificação de crédito: o crédito do cliente não foi verificado.';
