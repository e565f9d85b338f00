import { isValidCnpj, isValidCpf } from '@campo/shared';
import { describe, expect, it } from 'vitest';
import { CATALOG } from './catalog-words.ts';
import { address, cnpj, cpf, ean13, ean13CheckDigit, person, phone, slug } from './identity.ts';
import * as names from './names.ts';
import { Rng } from './prng.ts';

describe('documents', () => {
  it('gives each id its own valid CNPJ and CPF, and another set for another salt', () => {
    const cnpjs = new Set<string>();
    const cpfs = new Set<string>();
    for (let id = 1; id <= 20_000; id++) {
      const j = cnpj(id, 12_345);
      const f = cpf(id, 12_345);
      expect(isValidCnpj(j), j).toBe(true);
      expect(isValidCpf(f), f).toBe(true);
      cnpjs.add(j);
      cpfs.add(f);
    }
    expect(cnpjs.size).toBe(20_000);
    expect(cpfs.size).toBe(20_000);
    expect(cnpj(1, 1)).not.toBe(cnpj(1, 2));
    expect(cnpj(77, 5, 2).slice(8, 12)).toBe('0002');
    expect(cnpj(77, 5, 2).slice(0, 8)).toBe(cnpj(77, 5, 1).slice(0, 8));
  });

  it('skips CPFs made of one repeated digit', () => {
    // scramble(id) = (id * 7654321 + salt) % 1e9 is 0 for id 0 and salt 0
    expect(cpf(0, 0)).not.toMatch(/^0+$/);
    expect(isValidCpf(cpf(0, 0))).toBe(true);
  });

  it('computes EAN-13 check digits like GS1', () => {
    expect(ean13CheckDigit('400638133393')).toBe('1');
    expect(ean13CheckDigit('978030640615')).toBe('7');
    const code = ean13(123, 1);
    expect(code).toMatch(/^789\d{10}$/);
    expect(code.slice(12)).toBe(ean13CheckDigit(code.slice(0, 12)));
  });
});

describe('contacts', () => {
  it('makes ASCII slugs for e-mail addresses', () => {
    expect(slug('Conceição Irmãos')).toBe('conceicaoirmaos');
    expect(slug('São João do Nordeste', '-')).toBe('sao-joao-do-nordeste');
  });

  it('formats landlines and mobiles with the area code', () => {
    const rng = new Rng(1);
    expect(phone(rng, '81', true)).toMatch(/^\(81\) 9[6-9]\d{3}-\d{4}$/);
    expect(phone(rng, '11', false)).toMatch(/^\(11\) [23]\d{3}-\d{4}$/);
  });

  it('draws a CEP inside the city range', () => {
    const rng = new Rng(2);
    for (const city of names.CITIES_NORTHEAST) {
      const a = address(rng, city);
      const prefix = Number(a.cep.slice(0, 5));
      expect(a.cep).toMatch(/^\d{8}$/);
      expect(prefix).toBeGreaterThanOrEqual(city.cep[0]);
      expect(prefix).toBeLessThanOrEqual(city.cep[1]);
      expect(a.uf).toBe(city.uf);
    }
  });

  it('builds full names from first name and surnames', () => {
    const p = person(new Rng(4));
    expect(p.full.startsWith(p.first)).toBe(true);
    expect(p.full.endsWith(p.last)).toBe(true);
  });
});

describe('word lists', () => {
  const words = [
    ...Object.values(names).flatMap((list) =>
      Array.isArray(list) ? list.flatMap((w) => (typeof w === 'string' ? [w] : Object.values(w).map(String))) : [],
    ),
    ...CATALOG.flatMap((g) => [
      g.name,
      ...g.brands,
      ...g.subgroups.flatMap((s) => [
        s.name,
        ...s.sizes,
        ...s.lines.flatMap((l) => [l.base, ...l.variants, ...(l.sizes ?? [])]),
      ]),
    ]),
  ];

  it('fit LATIN1 (the ERP database encoding) and carry accents', () => {
    expect(words.length).toBeGreaterThan(500);
    const unfit = words.filter((w) => Buffer.from(w, 'latin1').toString('latin1') !== w);
    expect(unfit).toEqual([]);
    expect(words.filter((w) => /[^\x20-\x7e]/.test(w)).length).toBeGreaterThan(100);
  });
});
