import { describe, expect, it } from 'vitest';
import { formatBrl } from './format.ts';

describe('formatBrl', () => {
  it('writes reais the Brazilian way: symbol, dot thousands, comma cents', () => {
    expect(formatBrl(1234.5)).toBe('R$\u00a01.234,50');
    expect(formatBrl(0)).toBe('R$\u00a00,00');
    expect(formatBrl(-12)).toBe('-R$\u00a012,00');
  });
});
