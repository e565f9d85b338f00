import { describe, expect, it } from 'vitest';
import { formatBrl, formatDateTime, formatMonth, formatPercent } from './format.ts';

describe('formatBrl', () => {
  it('writes reais the Brazilian way: symbol, dot thousands, comma cents', () => {
    expect(formatBrl(1234.5)).toBe('R$\u00a01.234,50');
    expect(formatBrl(0)).toBe('R$\u00a00,00');
    expect(formatBrl(-12)).toBe('-R$\u00a012,00');
  });
});

describe('formatPercent, formatDateTime, formatMonth', () => {
  it('writes a percentage with at most two decimals and a comma', () => {
    expect(formatPercent(12.5)).toBe('12,5%');
    expect(formatPercent(7)).toBe('7%');
    expect(formatPercent(33.333)).toBe('33,33%');
  });

  it("writes an instant on São Paulo's clock, and nothing for no date", () => {
    // 02:30 UTC is 23:30 of the day before in São Paulo (UTC-3).
    expect(formatDateTime('2026-03-10T02:30:00Z')).toBe('09/03/2026, 23:30');
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('not a date')).toBe('');
  });

  it('names a YYYY-MM month in Portuguese', () => {
    expect(formatMonth('2026-03')).toBe('março de 2026');
    expect(formatMonth('sem mês')).toBe('sem mês');
  });
});
