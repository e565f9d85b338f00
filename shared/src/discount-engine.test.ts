import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CartLineContext,
  ceilingRefusal,
  checkLineDiscount,
  DEFAULT_CEILING_PERCENT,
  type DiscountRule,
  lineCeiling,
  type RepresentativeCeilings,
  ruleMatches,
} from './discount-engine.ts';
import { lineFlex } from './flex.ts';

const day = fc
  .integer({ min: 0, max: 3 * 365 })
  .map((n) => new Date(Date.UTC(2025, 0, 1) + n * 86_400_000).toISOString().slice(0, 10));
const percent = fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100);
const small = fc.option(fc.integer({ min: 1, max: 3 }), { nil: null });

const arbRule: fc.Arbitrary<DiscountRule> = fc
  .record({
    id: fc.integer({ min: 1, max: 1_000_000 }),
    grupo: small,
    subgrupo: small,
    representante: small,
    idPauta: small,
    percent,
    a: day,
    b: day,
    promocao: fc.boolean(),
  })
  .map(({ a, b, ...r }) => {
    // ISO dates sort as strings.
    const [vigenciaInicio = a, vigenciaFim = b] = [a, b].sort();
    return { ...r, descricao: `regra ${r.id}`, vigenciaInicio, vigenciaFim };
  });

const arbLine: fc.Arbitrary<CartLineContext> = fc.record({
  codVendedor: fc.integer({ min: 1, max: 3 }),
  idPauta: fc.integer({ min: 1, max: 3 }),
  date: day,
  product: fc.record({
    categoria: fc.constantFrom('BEB', 'MERC', 'LIMP'),
    grupo: fc.integer({ min: 1, max: 3 }),
    subgrupo: fc.integer({ min: 1, max: 3 }),
  }),
});

const arbCeilings: fc.Arbitrary<RepresentativeCeilings> = fc.record({
  defaultPercent: fc.option(percent, { nil: null }),
  byCategory: fc.dictionary(fc.constantFrom('BEB', 'MERC'), percent),
});

describe('lineCeiling', () => {
  it('is never below the base ceiling', () => {
    fc.assert(
      fc.property(arbLine, arbCeilings, fc.array(arbRule, { maxLength: 8 }), (line, ceilings, rules) => {
        const result = lineCeiling(line, ceilings, rules);
        expect(result.ceilingPercent).toBeGreaterThanOrEqual(result.basePercent);
      }),
    );
  });

  it('equals the maximum of the base and every matching rule in force', () => {
    fc.assert(
      fc.property(arbLine, arbCeilings, fc.array(arbRule, { maxLength: 8 }), (line, ceilings, rules) => {
        const base = ceilings.byCategory[line.product.categoria] ?? ceilings.defaultPercent ?? DEFAULT_CEILING_PERCENT;
        const matching = rules.filter(
          (r) =>
            r.vigenciaInicio <= line.date &&
            line.date <= r.vigenciaFim &&
            [r.grupo, r.subgrupo, r.representante, r.idPauta].every(
              (v, i) =>
                v === null || v === [line.product.grupo, line.product.subgrupo, line.codVendedor, line.idPauta][i],
            ),
        );
        expect(lineCeiling(line, ceilings, rules).ceilingPercent).toBe(
          Math.max(base, ...matching.map((r) => r.percent)),
        );
      }),
    );
  });

  it('never counts a rule out of its validity', () => {
    fc.assert(
      fc.property(
        arbLine,
        arbCeilings,
        fc.array(arbRule, { maxLength: 6 }),
        arbRule,
        (line, ceilings, rules, extra) => {
          fc.pre(line.date < extra.vigenciaInicio || line.date > extra.vigenciaFim);
          expect(lineCeiling(line, ceilings, [...rules, extra])).toEqual(lineCeiling(line, ceilings, rules));
        },
      ),
    );
  });

  it('never lowers a ceiling when a rule is added', () => {
    fc.assert(
      fc.property(
        arbLine,
        arbCeilings,
        fc.array(arbRule, { maxLength: 6 }),
        arbRule,
        (line, ceilings, rules, extra) => {
          const before = lineCeiling(line, ceilings, rules).ceilingPercent;
          expect(lineCeiling(line, ceilings, [...rules, extra]).ceilingPercent).toBeGreaterThanOrEqual(before);
        },
      ),
    );
  });

  it('takes the category ceiling, else the representative default, else 5%', () => {
    const line: CartLineContext = {
      codVendedor: 7,
      idPauta: 1,
      date: '2026-11-22',
      product: { categoria: 'BEB', grupo: 1, subgrupo: 2 },
    };
    expect(lineCeiling(line, { defaultPercent: 8, byCategory: { BEB: 12 } }, [])).toMatchObject({
      ceilingPercent: 12,
      source: 'category',
    });
    expect(lineCeiling(line, { defaultPercent: 8, byCategory: { LIMP: 12 } }, [])).toMatchObject({
      ceilingPercent: 8,
      source: 'representative',
    });
    expect(lineCeiling(line, { defaultPercent: null, byCategory: {} }, [])).toMatchObject({
      ceilingPercent: 5,
      source: 'default',
      prefillPercent: 0,
    });
  });

  it('names the rule that raised the ceiling and pre-fills its percent', () => {
    const line: CartLineContext = {
      codVendedor: 7,
      idPauta: 2,
      date: '2026-11-22',
      product: { categoria: 'BEB', grupo: 1, subgrupo: 2 },
    };
    const rule: DiscountRule = {
      id: 41,
      descricao: 'Black Friday bebidas',
      grupo: 1,
      subgrupo: null,
      representante: null,
      idPauta: 2,
      percent: 15,
      vigenciaInicio: '2026-11-20',
      vigenciaFim: '2026-11-30',
      promocao: true,
    };
    const otherList = { ...rule, id: 42, idPauta: 3, percent: 30 };
    const result = lineCeiling(line, { defaultPercent: 5, byCategory: {} }, [rule, otherList]);
    expect(result).toMatchObject({ ceilingPercent: 15, source: 'rule', prefillPercent: 15 });
    expect(result.rule?.id).toBe(41);
    expect(ruleMatches(otherList, line)).toBe(false);
  });
});

describe('checkLineDiscount', () => {
  const ceiling = lineCeiling(
    { codVendedor: 1, idPauta: 1, date: '2026-01-01', product: { categoria: 'X', grupo: 1, subgrupo: 1 } },
    { defaultPercent: 12.35, byCategory: {} },
    [],
  );

  it('accepts a discount exactly at the ceiling and refuses one hundredth above', () => {
    expect(checkLineDiscount(12.35, ceiling)).toEqual({ ok: true, beyondPoints: 0 });
    expect(checkLineDiscount(12.36, ceiling)).toMatchObject({
      ok: false,
      code: 'DISCOUNT_ABOVE_CEILING',
      maxBeyondPoints: 0,
      maxPercent: 12.35,
    });
  });

  it('takes an acréscimo down to −100 %, with flex on or off', () => {
    for (const max of [0, 5]) {
      expect(checkLineDiscount(-100, ceiling, max)).toEqual({ ok: true, beyondPoints: 0 });
      expect(checkLineDiscount(-4.5, ceiling, max)).toEqual({ ok: true, beyondPoints: 0 });
    }
  });

  it('lets flex take a discount past the ceiling up to its maximum points, exactly at the boundary', () => {
    expect(checkLineDiscount(17.35, ceiling, 5)).toEqual({ ok: true, beyondPoints: 5 });
    expect(checkLineDiscount(17.36, ceiling, 5)).toMatchObject({
      ok: false,
      code: 'DISCOUNT_ABOVE_CEILING',
      maxBeyondPoints: 5,
      maxPercent: 17.35,
    });
  });

  it('refuses below −100, over 100 and non-numbers', () => {
    for (const bad of [-100.01, 100.01, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(checkLineDiscount(bad, ceiling, 5)).toMatchObject({ ok: false, code: 'DISCOUNT_INVALID' });
    }
  });

  it('agrees with lineFlex on what is within the maximum, for any discount, ceiling and maximum', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -10_000, max: 10_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        (d, c, m) => {
          const at = lineCeiling(
            { codVendedor: 1, idPauta: 1, date: '2026-01-01', product: { categoria: 'X', grupo: 1, subgrupo: 1 } },
            { defaultPercent: c / 100, byCategory: {} },
            [],
          );
          const policy = { creditSharePercent: 10, maxBeyondCeilingPoints: m / 100 };
          const flex = lineFlex(
            { listPrice: 10, quantity: 1, discountPercent: d / 100, ceilingPercent: c / 100 },
            policy,
          );
          expect(checkLineDiscount(d / 100, at, m / 100).ok).toBe(flex.withinMaximum);
        },
      ),
    );
  });
});

describe('ceilingRefusal', () => {
  const rule: DiscountRule = {
    id: 9,
    descricao: 'Semana do café',
    grupo: null,
    subgrupo: null,
    representante: null,
    idPauta: null,
    percent: 7,
    vigenciaInicio: '2026-01-01',
    vigenciaFim: '2026-12-31',
    promocao: true,
  };
  const ceiling = lineCeiling(
    { codVendedor: 1, idPauta: 1, date: '2026-01-01', product: { categoria: 'X', grupo: 1, subgrupo: 1 } },
    { defaultPercent: 5, byCategory: {} },
    [rule],
  );

  it("names the line, the ceiling, its rule and flex's maximum when there is one", () => {
    const past = (max: number) => {
      const check = checkLineDiscount(12.5, ceiling, max);
      if (check.ok || check.code !== 'DISCOUNT_ABOVE_CEILING') throw new Error('expected a refusal');
      return ceilingRefusal(2, 77, 'Café 500 g', check);
    };
    expect(past(5)).toEqual({
      code: 'DISCOUNT_ABOVE_CEILING',
      line: 2,
      idProduto: 77,
      descontoPercent: 12.5,
      tetoPercent: 7,
      regra: { id: 9, descricao: 'Semana do café' },
      message:
        'Linha 2 (Café 500 g): desconto de 12,5% acima do teto de 7% pela regra "Semana do café", além dos 5 pontos que o flex permite.',
    });
    expect(past(0).message).toBe(
      'Linha 2 (Café 500 g): desconto de 12,5% acima do teto de 7% pela regra "Semana do café".',
    );
  });
});
