import { describe, expect, it } from 'vitest';
import {
  cnpjCheckDigits,
  cpfCheckDigits,
  documentKind,
  formatCnpj,
  formatCpf,
  isValidCnpj,
  isValidCpf,
  normalizeDocument,
} from './documents.ts';

describe('CPF', () => {
  it('computes the check digits of published examples', () => {
    expect(cpfCheckDigits('529982247')).toBe('25');
    expect(cpfCheckDigits('111444777')).toBe('35');
    // first digit's remainder < 2 gives 0
    expect(cpfCheckDigits('000000001')).toBe('91');
  });

  it('accepts valid CPFs with or without the mask', () => {
    expect(isValidCpf('52998224725')).toBe(true);
    expect(isValidCpf('529.982.247-25')).toBe(true);
    expect(isValidCpf(' 111.444.777-35 ')).toBe(true);
  });

  it('rejects a wrong check digit, a wrong length, letters and repeated digits', () => {
    expect(isValidCpf('52998224724')).toBe(false);
    expect(isValidCpf('52998224752')).toBe(false);
    expect(isValidCpf('5299822472')).toBe(false);
    expect(isValidCpf('529982247255')).toBe(false);
    expect(isValidCpf('5299822472A')).toBe(false);
    expect(isValidCpf('00000000000')).toBe(false);
    expect(isValidCpf('111.111.111-11')).toBe(false);
    expect(isValidCpf('')).toBe(false);
  });

  it('refuses a malformed base', () => {
    expect(() => cpfCheckDigits('12345678')).toThrow(RangeError);
  });

  it('validates every generated check digit pair and no other', () => {
    for (const base of ['123456789', '987654321', '300100200', '050607080']) {
      const digits = cpfCheckDigits(base);
      let valid = 0;
      for (let dv = 0; dv < 100; dv++) if (isValidCpf(base + String(dv).padStart(2, '0'))) valid++;
      expect(valid).toBe(1);
      expect(isValidCpf(base + digits)).toBe(true);
    }
  });
});

describe('CNPJ', () => {
  it('computes the check digits of published examples', () => {
    expect(cnpjCheckDigits('112223330001')).toBe('81');
    // Receita Federal's example of the alphanumeric CNPJ
    expect(cnpjCheckDigits('12ABC34501DE')).toBe('35');
  });

  it('accepts valid CNPJs, numeric and alphanumeric, with or without the mask', () => {
    expect(isValidCnpj('11222333000181')).toBe(true);
    expect(isValidCnpj('11.222.333/0001-81')).toBe(true);
    expect(isValidCnpj('12.ABC.345/01DE-35')).toBe(true);
    expect(isValidCnpj('12.abc.345/01de-35')).toBe(true);
  });

  it('rejects a wrong check digit, a wrong length, letters in the check digits and repeats', () => {
    expect(isValidCnpj('11222333000182')).toBe(false);
    expect(isValidCnpj('11222333000118')).toBe(false);
    expect(isValidCnpj('1122233300018')).toBe(false);
    expect(isValidCnpj('112223330001811')).toBe(false);
    expect(isValidCnpj('12ABC34501DE3A')).toBe(false);
    expect(isValidCnpj('12ABC34501D#35')).toBe(false);
    expect(isValidCnpj('00000000000000')).toBe(false);
    expect(isValidCnpj('')).toBe(false);
  });

  it('refuses a malformed base', () => {
    expect(() => cnpjCheckDigits('11222333000')).toThrow(RangeError);
    expect(() => cnpjCheckDigits('11222333000a')).toThrow(RangeError);
  });
});

describe('helpers', () => {
  it('normalizes masks and case', () => {
    expect(normalizeDocument('12.abc.345/01de-35')).toBe('12ABC34501DE35');
  });

  it('tells which kind of document a value is', () => {
    expect(documentKind('529.982.247-25')).toBe('cpf');
    expect(documentKind('11.222.333/0001-81')).toBe('cnpj');
    expect(documentKind('12345')).toBeNull();
  });

  it('formats with the usual masks', () => {
    expect(formatCpf('52998224725')).toBe('529.982.247-25');
    expect(formatCnpj('11222333000181')).toBe('11.222.333/0001-81');
    expect(formatCpf('123')).toBe('123');
  });
});
