import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { availableCredit, checkCredit, creditOutcome } from './credit.ts';
import { FLEX_OFF, type FlexPolicy, lineFlex, orderFlex } from './flex.ts';

const POLICY: FlexPolicy = { creditSharePercent: 50, maxBeyondCeilingPoints: 5 };
const cents = (n: number) => Math.round(n * 100);

describe('a line and the flex balance', () => {
  it('earns the share of what was sold above the list price', () => {
    // R$ 100.00 list, sold 4 % above (R$ 104.00), 10 units: R$ 40.00 above, half to the balance.
    expect(lineFlex({ listPrice: 100, quantity: 10, discountPercent: -4, ceilingPercent: 7 }, POLICY)).toEqual({
      earned: 20,
      spent: 0,
      beyondPoints: 0,
      withinMaximum: true,
    });
  });

  it('spends what lies beyond the ceiling, and nothing below it', () => {
    // 9 % on a 7 % ceiling: R$ 93.00 at the ceiling, R$ 91.00 sold, 10 units: R$ 20.00.
    expect(lineFlex({ listPrice: 100, quantity: 10, discountPercent: 9, ceilingPercent: 7 }, POLICY)).toEqual({
      earned: 0,
      spent: 20,
      beyondPoints: 2,
      withinMaximum: true,
    });
    expect(lineFlex({ listPrice: 100, quantity: 10, discountPercent: 7, ceilingPercent: 7 }, POLICY).spent).toBe(0);
  });

  it('is past the maximum beyond the ceiling plus its points, exactly at the boundary', () => {
    const at = lineFlex({ listPrice: 10, quantity: 1, discountPercent: 12.35, ceilingPercent: 7.35 }, POLICY);
    const past = lineFlex({ listPrice: 10, quantity: 1, discountPercent: 12.36, ceilingPercent: 7.35 }, POLICY);
    expect([at.withinMaximum, past.withinMaximum]).toEqual([true, false]);
    expect(
      lineFlex({ listPrice: 10, quantity: 1, discountPercent: 7.36, ceilingPercent: 7.35 }, FLEX_OFF),
    ).toMatchObject({
      withinMaximum: false,
    });
  });

  it('never earns and spends on one line, and never goes negative', () => {
    const line = fc.record({
      listPrice: fc.integer({ min: 1, max: 10_000_000 }).map((n) => n / 100),
      quantity: fc.integer({ min: 1, max: 1_000_000 }).map((n) => n / 1000),
      discountPercent: fc.integer({ min: -5000, max: 10_000 }).map((n) => n / 100),
      ceilingPercent: fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100),
    });
    const policy = fc.record({
      creditSharePercent: fc.integer({ min: 0, max: 100 }),
      maxBeyondCeilingPoints: fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100),
    });
    fc.assert(
      fc.property(line, policy, (l, p) => {
        const f = lineFlex(l, p);
        expect(f.earned).toBeGreaterThanOrEqual(0);
        expect(f.spent).toBeGreaterThanOrEqual(0);
        expect(f.earned > 0 && f.spent > 0).toBe(false);
        if (cents(l.discountPercent) <= cents(l.ceilingPercent)) expect(f.spent).toBe(0);
        if (l.discountPercent >= 0) expect(f.earned).toBe(0);
      }),
    );
  });
});

describe("an order and the representative's balance", () => {
  const lines = [
    { listPrice: 100, quantity: 10, discountPercent: 9, ceilingPercent: 7 },
    { listPrice: 50, quantity: 2, discountPercent: -10, ceilingPercent: 7 },
  ];

  it('is covered when the balance pays what it spends; what it earns does not pay for it', () => {
    expect(orderFlex(lines, POLICY, 20)).toMatchObject({ earned: 5, spent: 20, covered: true, balanceAfter: 0 });
    expect(orderFlex(lines, POLICY, 19.99)).toMatchObject({ covered: false });
  });
});

describe("the client's available credit", () => {
  it('is the limit less the open receivables and the open orders', () => {
    expect(availableCredit({ limit: 10_000, openReceivables: 4_000.5, openOrders: 1_789.5 })).toBe(4_210);
    expect(availableCredit({ limit: null, openReceivables: 4_000, openOrders: 0 })).toBeNull();
  });

  it('judges an order by the policy', () => {
    const figures = { limit: 10_000, openReceivables: 4_000, openOrders: 1_790 };
    const beyond = checkCredit(figures, 5_300);
    expect(beyond).toEqual({ kind: 'beyond', available: 4_210, orderTotal: 5_300, excess: 1_090 });
    expect(checkCredit(figures, 4_210)).toMatchObject({ kind: 'within' });
    expect(['flag', 'block', 'ignore'].map((p) => creditOutcome(beyond, p as 'flag'))).toEqual([
      'flag',
      'refuse',
      'accept',
    ]);
    expect(creditOutcome(checkCredit({ ...figures, limit: null }, 1e9), 'block')).toBe('accept');
  });
});
