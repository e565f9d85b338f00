import { describe, expect, it } from 'vitest';
import { adjustmentAmount } from './amount.ts';

describe("a flex adjustment's amount", () => {
  it('takes any amount in centavos, 0,29 as well as 1.234,56', () => {
    // 0.29 × 100 is 28.999999999999996 in binary: a check in doubles refused R$ 0,29.
    expect(['0,29', '-0,57', '1,13', '4,35', '1.234,56', '150,5'].map(adjustmentAmount)).toEqual([
      0.29, -0.57, 1.13, 4.35, 1234.56, 150.5,
    ]);
  });

  it('refuses zero, a third decimal and what is not a number', () => {
    expect(['0', '0,00', '1,005', 'dez', ''].map(adjustmentAmount)).toEqual([null, null, null, null, null]);
  });
});
