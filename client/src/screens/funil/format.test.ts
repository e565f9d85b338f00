import { describe, expect, it } from 'vitest';
import { formatDay, moneyInput, parseMoney } from './format.ts';

describe('parseMoney', () => {
  it('reads values typed the Brazilian way', () => {
    expect(parseMoney('1.500,00')).toEqual({ ok: true, value: 1500 });
    expect(parseMoney('R$ 1.234.567,8')).toEqual({ ok: true, value: 1234567.8 });
    expect(parseMoney('1500,5')).toEqual({ ok: true, value: 1500.5 });
    expect(parseMoney('1.500')).toEqual({ ok: true, value: 1500 });
  });

  it('takes a decimal point when there is no comma', () => {
    expect(parseMoney('1500.75')).toEqual({ ok: true, value: 1500.75 });
    expect(parseMoney('0.5')).toEqual({ ok: true, value: 0.5 });
  });

  it('is null when empty and an error when not a number', () => {
    expect(parseMoney('  ')).toEqual({ ok: true, value: null });
    expect(parseMoney('mil reais')).toEqual({ ok: false });
    expect(parseMoney('-10')).toEqual({ ok: false });
    expect(parseMoney('1,2,3')).toEqual({ ok: false });
  });

  it('round-trips what the edit form shows', () => {
    expect(moneyInput(1500.5)).toBe('1.500,50');
    expect(moneyInput(1234567)).toBe('1.234.567,00');
    expect(parseMoney(moneyInput(1500.5))).toEqual({ ok: true, value: 1500.5 });
    expect(moneyInput(null)).toBe('');
  });
});

describe('formatDay', () => {
  it('shows a day without shifting it through a time zone', () => {
    expect(formatDay('2026-01-01')).toBe('01/01/2026');
  });
});
