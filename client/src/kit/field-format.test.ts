import { describe, expect, it } from 'vitest';
import { escapeRegex, formatDate, formatDocument, maskCep, maskDocument, maskPhone } from './field-format.ts';

describe('input masks', () => {
  it('masks a CPF while it fits one and a CNPJ beyond, as the person types', () => {
    expect(maskDocument('123')).toBe('123');
    expect(maskDocument('1234')).toBe('123.4');
    expect(maskDocument('12345678909')).toBe('123.456.789-09');
    expect(maskDocument('112223330001')).toBe('11.222.333/0001');
    expect(maskDocument('11222333000181')).toBe('11.222.333/0001-81');
    // Pasted with its mask, or with more than fits: the same result.
    expect(maskDocument('11.222.333/0001-81 ')).toBe('11.222.333/0001-81');
    expect(maskDocument('112223330001819')).toBe('11.222.333/0001-81');
  });

  it('keeps letters of an alphanumeric CNPJ, upper-cased', () => {
    expect(maskDocument('12abc34501de35')).toBe('12.ABC.345/01DE-35');
  });

  it('masks CEP and phone numbers', () => {
    expect(maskCep('01310100')).toBe('01310-100');
    expect(maskCep('01310-1000')).toBe('01310-100');
    expect(maskCep('013')).toBe('013');
    expect(maskPhone('1132569218')).toBe('(11) 3256-9218');
    expect(maskPhone('11987654321')).toBe('(11) 98765-4321');
    expect(maskPhone('11')).toBe('(11');
  });
});

describe('display', () => {
  it('shows a date-only value without shifting it by the time zone', () => {
    expect(formatDate('2026-03-01')).toBe('01/03/2026');
    expect(formatDate(null)).toBe('—');
  });

  it('formats stored documents and escapes search words for a regular expression', () => {
    expect(formatDocument('12345678909')).toBe('123.456.789-09');
    expect(formatDocument('11222333000181')).toBe('11.222.333/0001-81');
    expect(escapeRegex('a.b*(c)')).toBe('a\\.b\\*\\(c\\)');
    expect(new RegExp(escapeRegex('1+1')).test('x1+1y')).toBe(true);
  });
});
