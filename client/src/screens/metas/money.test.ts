import { describe, expect, it } from 'vitest';
import { parseMoney, show } from './money.ts';

describe('target amounts', () => {
  it('reads the thousands separator as typed', () => {
    expect(parseMoney('15.000')).toBe(15000);
    expect(parseMoney('15.000,00')).toBe(15000);
    expect(parseMoney('R$ 1.234.567,8')).toBe(1234567.8);
    expect(parseMoney('15000,5')).toBe(15000.5);
    expect(parseMoney('15000.50')).toBe(15000.5);
    expect(parseMoney('')).toBeNull();
  });

  it('refuses what is not an amount', () => {
    expect(parseMoney('15,000,00')).toBeNaN();
    expect(parseMoney('1.50,00')).toBeNaN();
    expect(parseMoney('doze')).toBeNaN();
  });

  it('shows an amount with the thousands separator, and reads it back', () => {
    expect(show(15000)).toBe('15.000,00');
    expect(parseMoney(show(1234567.89))).toBe(1234567.89);
    expect(show(null)).toBe('');
  });
});
