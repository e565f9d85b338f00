// Money against a decimal library: on random prices, quantities and percents the shared rule
// (BigInt in the units of the ERP's columns) gives the digits decimal.js gives computing the
// same formula in exact decimals, rounding half away from zero (docs/money.md).
import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { availableCredit, checkCredit } from './credit.ts';
import { toHundredths } from './discount-engine.ts';
import { lineFlex, orderFlex } from './flex.ts';
import {
  cents,
  divRound,
  fromUnits,
  hasAtMostPlaces,
  percentOfMoney,
  round2,
  round4,
  sumMoney,
  toUnits,
} from './money.ts';
import { lineAmounts, orderTotals } from './orders.ts';
import { ZRulePercent } from './policies.ts';

/** Thousands of runs each: time enough on a busy machine (the runs, not the clock, are the test). */
const PROPERTY = { timeout: 60_000 };
const D = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP });
/**
 * decimal.js rounds half away from zero under ROUND_HALF_UP, as PostgreSQL's round() does (a
 * zero is a zero: decimal.js keeps the sign of −0,000001 rounded, money never writes −0).
 */
const r = (d: Decimal, places: number) => d.toDecimalPlaces(places, Decimal.ROUND_HALF_UP).toNumber() + 0;

/** A decimal of `scale` places between the bounds, given in units of 10^-scale. */
const decimal = (min: number, max: number, scale: number) =>
  fc.integer({ min, max }).map((n) => new D(n).div(new D(10).pow(scale)).toNumber());
// List prices of numeric(14,4): cents-like prices most of the time, the ERP's whole range too.
const price = fc.oneof(
  decimal(0, 10_000_000, 4),
  decimal(0, Number.MAX_SAFE_INTEGER, 4).filter((p) => p < 1e10),
);
// Quantities of numeric(14,3) up to the contract's 1,000,000; percents of numeric(5,2), ±100.
const quantity = fc.oneof(decimal(1, 100_000, 3), decimal(1, 1_000_000_000, 3));
const percent = decimal(-10_000, 10_000, 2);
/** A line whose amounts fit numeric(14,2) even at a 100 % acréscimo: the database holds no more. */
const fits = ([list, qty]: readonly [number, number, ...unknown[]]) => list * qty < 4.9e11;

function expectedLine(list: number, qty: number, pct: number) {
  const unit = r(new D(list).times(new D(100).minus(pct)).div(100), 4);
  const gross = r(new D(list).times(qty), 2);
  const total = r(new D(unit).times(qty), 2);
  return { unitPrice: unit, gross, total, discount: new D(gross).minus(total).toNumber() };
}

describe('a line priced exactly', () => {
  it('rounds R$ 25,89 with a 2,5 % acréscimo half-up to R$ 26,5373', () => {
    // 25,89 × 1,025 = 26,537250 exactly: the fifth decimal is a 5, so half-up takes 26,5373
    // (in doubles 25.89 × 1.025 is 26.53724999…, which rounded to 26,5372).
    expect(lineAmounts(25.89, 1, -2.5)).toEqual({ unitPrice: 26.5373, gross: 25.89, total: 26.54, discount: -0.65 });
    expect(lineAmounts(25.89, 3, -2.5).total).toBe(79.61); // 26,5373 × 3 = 79,6119
  });

  it('gives what decimal.js gives on random prices, quantities and percents', PROPERTY, () => {
    fc.assert(
      fc.property(fc.tuple(price, quantity, percent).filter(fits), ([list, qty, pct]) => {
        expect(lineAmounts(list, qty, pct)).toEqual(expectedLine(list, qty, pct));
      }),
      { numRuns: 3000 },
    );
  });

  it('adds an order of random lines to the cent, with nothing lost to binary sums', PROPERTY, () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(price, quantity, percent).filter(fits), { minLength: 1, maxLength: 30 }),
        (items) => {
          const lines = items.map(([l, q, p]) => lineAmounts(l, q, p));
          const gross = lines.reduce((s, l) => s.plus(l.gross), new D(0));
          const total = lines.reduce((s, l) => s.plus(l.total), new D(0));
          expect(orderTotals(lines)).toEqual({
            gross: gross.toNumber(),
            total: total.toNumber(),
            discount: gross.minus(total).toNumber(),
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('the money module', () => {
  it('reads a number by its decimal digits and rounds half away from zero', () => {
    expect([toUnits(25.89, 4), toUnits('26.537250', 4), toUnits(-0.125, 2), toUnits(1e-7, 4)]).toEqual([
      258900n,
      265373n,
      -13n,
      0n,
    ]);
    // 1.005 is 1.00499999999999989… in binary: Math.round(1.005 * 100) / 100 gives 1.
    expect([round2(1.005), round2(-1.005), round2(2.675), round4(0.00005), round2(0.1 + 0.2)]).toEqual([
      1.01, -1.01, 2.68, 0.0001, 0.3,
    ]);
    expect([divRound(5n, 2n), divRound(-5n, 2n), divRound(4n, 3n), divRound(-4n, 3n)]).toEqual([3n, -3n, 1n, -1n]);
    expect(() => toUnits(Number.NaN, 2)).toThrow(RangeError);
  });

  it('rounds, adds and takes percents as decimal.js does', PROPERTY, () => {
    fc.assert(
      fc.property(decimal(-1e12, 1e12, 6), (v) => {
        expect(round2(v)).toBe(r(new D(v), 2));
        expect(round4(v)).toBe(r(new D(v), 4));
        expect(fromUnits(toUnits(v, 6), 6)).toBe(v);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.array(decimal(-1e11, 1e11, 2), { maxLength: 50 }), (values) => {
        expect(sumMoney(values)).toBe(values.reduce((s, v) => s.plus(v), new D(0)).toNumber());
      }),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(decimal(-1e11, 1e11, 2), percent, (amount, pct) => {
        expect(percentOfMoney(amount, pct)).toBe(r(new D(amount).times(pct).div(100), 2));
      }),
      { numRuns: 2000 },
    );
  });

  it('counts decimals by the digits, as a numeric(p,s) column holds them', () => {
    expect([0.29, 1234.56, -0.57, 4.35, 12.3].map((v) => hasAtMostPlaces(v, 2))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect([1.005, 12.340000001, Number.NaN].map((v) => hasAtMostPlaces(v, 2))).toEqual([false, false, false]);
    // A rule's percent of 12,340000001 % was taken (a tolerance of 1e-6) and stored as 12,34.
    expect([ZRulePercent.safeParse(12.34).success, ZRulePercent.safeParse(12.340000001).success]).toEqual([
      true,
      false,
    ]);
  });

  it('compares percents in hundredths from their digits', () => {
    fc.assert(
      fc.property(percent, (p) => {
        expect(toHundredths(p)).toBe(new D(p).times(100).toNumber());
      }),
    );
  });
});

describe('flex and credit in exact centavos', () => {
  it('earns and spends what decimal.js computes', PROPERTY, () => {
    fc.assert(
      fc.property(
        fc.tuple(price, quantity, percent, percent, decimal(0, 10_000, 2)).filter(fits),
        ([list, qty, pct, ceil, share]) => {
          const line = lineFlex(
            { listPrice: list, quantity: qty, discountPercent: pct, ceilingPercent: Math.abs(ceil) },
            { creditSharePercent: share, maxBeyondCeilingPoints: 100 },
          );
          const unit = r(new D(list).times(new D(100).minus(pct)).div(100), 4);
          const above = r(new D(unit).minus(list).times(qty), 2);
          const atCeiling = r(new D(list).times(new D(100).minus(Math.abs(ceil))).div(100), 4);
          const beyond = new D(pct).greaterThan(Math.abs(ceil));
          const spent = beyond ? Math.max(0, r(new D(atCeiling).minus(unit).times(qty), 2)) : 0;
          expect(line.earned).toBe(above > 0 ? r(new D(above).times(share).div(100), 2) : 0);
          expect(line.spent).toBe(spent);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('adds what an order earns and spends, and what is left of the balance, to the cent', PROPERTY, () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(price, quantity, percent).filter(fits), { minLength: 1, maxLength: 30 }),
        decimal(0, 1e11, 2),
        (items, balance) => {
          const lines = items.map(([l, q, p]) => ({
            listPrice: l,
            quantity: q,
            discountPercent: p,
            ceilingPercent: 5,
          }));
          const policy = { creditSharePercent: 33.33, maxBeyondCeilingPoints: 100 };
          const flex = orderFlex(lines, policy, balance);
          const each = lines.map((l) => lineFlex(l, policy));
          const spent = each.reduce((s, l) => s.plus(l.spent), new D(0));
          expect(flex.earned).toBe(each.reduce((s, l) => s.plus(l.earned), new D(0)).toNumber());
          expect(flex.spent).toBe(spent.toNumber());
          expect(flex.balanceAfter).toBe(new D(balance).minus(spent).toNumber());
          expect(flex.covered).toBe(spent.lessThanOrEqualTo(balance));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('subtracts the credit in centavos', () => {
    expect(availableCredit({ limit: 0.3, openReceivables: 0.1, openOrders: 0.2 })).toBe(0);
    expect(checkCredit({ limit: 0.3, openReceivables: 0.1, openOrders: 0.1 }, 0.1)).toEqual({
      kind: 'within',
      available: 0.1,
      orderTotal: 0.1,
    });
    fc.assert(
      fc.property(decimal(0, 1e13, 2), decimal(0, 1e13, 2), decimal(0, 1e13, 2), decimal(0, 1e13, 2), (l, a, b, t) => {
        const available = new D(l).minus(a).minus(b);
        expect(availableCredit({ limit: l, openReceivables: a, openOrders: b })).toBe(available.toNumber());
        const check = checkCredit({ limit: l, openReceivables: a, openOrders: b }, t);
        expect(check.kind).toBe(available.greaterThanOrEqualTo(t) ? 'within' : 'beyond');
        if (check.kind === 'beyond') expect(check.excess).toBe(new D(t).minus(available).toNumber());
      }),
      { numRuns: 1000 },
    );
  });
});

// cents is exported for the sums the server and the cart make; 0.1 + 0.2 is 30 centavos.
it('counts centavos of an amount', () => {
  expect(cents(0.1) + cents(0.2)).toBe(30n);
});
