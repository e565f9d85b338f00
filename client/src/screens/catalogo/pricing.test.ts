import type { DiscountRule } from '@campo/shared/discount-engine';
import { describe, expect, it } from 'vitest';
import type { ProductDoc } from '../../db/index.ts';
import { badgesOf, type Conditions, ceilingOf, priceOn, rulesReaching } from './pricing.ts';

const product: ProductDoc = {
  id: '10',
  code: 'BEB001',
  description: 'Cerveja',
  unit: 'FD',
  category: 'BEB',
  grupo: 3,
  grupoName: 'Bebidas',
  subgrupo: 31,
  subgrupoName: 'Cervejas',
  image: null,
  active: true,
  prices: [
    { idPauta: 1, price: 17.2 },
    { idPauta: 2, price: 16.18 },
  ],
  busca: 'beb001 cerveja',
  grupoCodigo: 3,
};

const rule = (over: Partial<DiscountRule>): DiscountRule => ({
  id: 1,
  descricao: 'Regra',
  grupo: null,
  subgrupo: null,
  representante: null,
  idPauta: null,
  percent: 10,
  vigenciaInicio: '2026-01-01',
  vigenciaFim: '9999-12-31',
  promocao: false,
  ...over,
});

const conditions = (rules: DiscountRule[]): Conditions => ({
  codVendedor: 7,
  date: '2026-06-15',
  rules,
  ceilings: { defaultPercent: 4, byCategory: { BEB: 3 } },
});

describe('catalog badges', () => {
  it("marks 'Promoção' and 'Cond. especial' only for rules in force that match the product, rep and pauta", () => {
    const c = conditions([
      rule({ id: 1, grupo: 3, promocao: true, percent: 12 }),
      rule({ id: 2, idPauta: 2, percent: 8 }),
      rule({ id: 3, grupo: 4, promocao: true }),
      rule({ id: 4, representante: 8, percent: 20 }),
      rule({ id: 5, vigenciaInicio: '2026-07-01', promocao: false }),
    ]);
    expect(badgesOf(product, c, 1)).toEqual({ promo: expect.objectContaining({ id: 1 }), special: null });
    expect(badgesOf(product, c, 2)).toEqual({
      promo: expect.objectContaining({ id: 1 }),
      special: expect.objectContaining({ id: 2 }),
    });
  });

  it('lists every rule that reaches the product, whatever the pauta or start date, best first', () => {
    const c = conditions([
      rule({ id: 1, grupo: 3, percent: 12 }),
      rule({ id: 2, idPauta: 2, percent: 15 }),
      rule({ id: 3, grupo: 4 }),
      rule({ id: 4, representante: 8 }),
      rule({ id: 5, vigenciaInicio: '2026-07-01', subgrupo: 31, grupo: 3, percent: 9 }),
    ]);
    expect(rulesReaching(product, c).map((r) => r.id)).toEqual([2, 1, 5]);
  });

  it('takes the ceiling from the shared engine: the category ceiling, raised by a matching rule', () => {
    expect(ceilingOf(product, conditions([]), 1)).toMatchObject({ ceilingPercent: 3, source: 'category' });
    const raised = ceilingOf(product, conditions([rule({ id: 9, grupo: 3, percent: 12 })]), 1);
    expect(raised).toMatchObject({ ceilingPercent: 12, source: 'rule', prefillPercent: 12 });
  });

  it('prices the product on the chosen pauta only', () => {
    expect(priceOn(product, 2)).toBe(16.18);
    expect(priceOn(product, 3)).toBeNull();
    expect(priceOn(product, null)).toBeNull();
  });
});
