import { describe, expect, it } from 'vitest';
import { beyondSentence, creditAfterOrder, creditMark, signedBrl } from './credit.ts';

// Intl writes a no-break space after "R$"; the tests read it as people do.
const text = (s: string | null | undefined) => s?.replace(/\u00a0/g, ' ');

describe("the approver's view of the client's credit", () => {
  it('counts what is left after this order, negative beyond the credit, in cents', () => {
    expect(creditAfterOrder({ limit: 5000, open: 3789.9, available: 1210.1, exceeded: true }, 1300.3)).toEqual({
      limit: 5000,
      open: 3789.9,
      thisOrder: 1300.3,
      availableAfter: -90.2,
      beyond: 90.2,
      exceeded: true,
    });
    expect(creditAfterOrder({ limit: 5000, open: 0, available: 5000, exceeded: false }, 5000)).toMatchObject({
      availableAfter: 0,
      beyond: null,
    });
  });

  it('says nothing to compute for a client without a limit or an order from before the check', () => {
    expect(creditAfterOrder(null, 100)).toBeNull();
    expect(creditAfterOrder(undefined, 100)).toBeUndefined();
  });

  it('marks in the queue only the orders the server marked, with the amount beyond', () => {
    expect(text(creditMark({ limit: 1000, open: 800, available: 200, exceeded: true }, 1434.5))).toBe(
      'Acima do crédito em R$ 1.234,50',
    );
    // Under 'ignore' the figures are kept but the order is not marked.
    expect(creditMark({ limit: 1000, open: 800, available: 200, exceeded: false }, 1434.5)).toBeNull();
    expect(creditMark(null, 10)).toBeNull();
    expect(creditMark(undefined, 10)).toBeNull();
  });

  it('writes the sentence and a negative balance in pt-BR', () => {
    expect(text(beyondSentence(90.2))).toBe('Este pedido passa R$ 90,20 do crédito disponível do cliente.');
    expect(text(signedBrl(-90.2))).toBe('-R$ 90,20 (negativo)');
    expect(text(signedBrl(0))).toBe('R$ 0,00');
  });
});
