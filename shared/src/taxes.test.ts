// The tax calculation (docs/taxes.md): the doc's worked examples, one test each; the rule
// selector's specificity and its reports; and properties on random lines (the total is the
// sum of its parts, nothing negative, every value in centavos, the adjusted MVA only on an
// interstate sale, the ST base equal to decimal.js computing the same formula).
import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UFS } from './clients.ts';
import { cents, hasAtMostPlaces } from './money.ts';
import {
  adjustedMva,
  type ClientFiscal,
  type CompanyFiscal,
  checkTaxRules,
  divRoundBy,
  lineTaxes,
  orderTaxes,
  type ProductFiscal,
  selectTaxRule,
  type TaxRule,
  ZLineTaxes,
  ZOrderTaxes,
} from './taxes.ts';

const PROPERTY = { timeout: 60_000 };

const reseller: ClientFiscal = { uf: 'SP', contribuinteIcms: true, simplesNacional: false, consumidorFinal: false };
const sp: CompanyFiscal = { uf: 'SP' };

const product = (over: Partial<ProductFiscal> = {}): ProductFiscal => ({
  ncm: '22011000',
  cest: '0300100',
  origem: 0,
  aliquotaIpi: 0,
  ...over,
});

const rule = (over: Partial<TaxRule> = {}): TaxRule => ({
  id: 1,
  ncm: '22011000',
  ufOrigem: 'SP',
  ufDestino: 'SP',
  regime: null,
  aliquotaIcms: 18,
  reducaoBase: 0,
  aliquotaFcp: 0,
  st: true,
  mva: 40,
  aliquotaInternaDestino: 18,
  aliquotaFcpSt: 0,
  ...over,
});

describe('the adjusted MVA against published figures (docs/taxes.md, examples 1 and 2)', () => {
  it('MVA 50 %, 12 % interstate, 19 % internal: 62,96 % (grancontabil)', () => {
    expect(adjustedMva(50, 12, 19)).toBe(62.96);
  });
  it('MVA 71,78 %, 12 % interstate, 17 % internal: 82,13 % (contabeis, Protocolo 103/2014)', () => {
    expect(adjustedMva(71.78, 12, 17)).toBe(82.13);
  });
  it('keeps four decimals when the tenant says so', () => {
    expect(adjustedMva(71.78, 12, 17, 4)).toBe(82.1282);
    expect(adjustedMva(50, 12, 19, 4)).toBe(62.963);
  });
});

describe('worked example 1 (grancontabil): the same goods bought inside and across states', () => {
  it('interstate, 12 % own ICMS, adjusted MVA 62,96 %: ST R$ 21,55', () => {
    const t = lineTaxes(
      { goods: 113.64, product: product() },
      {
        company: sp,
        client: { ...reseller, uf: 'RJ' },
        rules: [rule({ ufDestino: 'RJ', aliquotaIcms: 12, mva: 50, aliquotaInternaDestino: 19 })],
      },
    );
    expect(t.icms).toMatchObject({ base: 113.64, rate: 12, value: 13.64, ipiInBase: false });
    expect(t.st).toMatchObject({ mvaOriginal: 50, mva: 62.96, mvaAdjusted: true, base: 185.19, value: 21.55 });
    // ICMS + ST, the page's last column: 35,19 in both operations.
    expect(t.icms.value + (t.st?.value ?? 0)).toBeCloseTo(35.19, 10);
    expect(t.total).toBe(135.19);
  });
  it('intrastate, 19 % own ICMS, original MVA 50 %: ST R$ 11,73', () => {
    const t = lineTaxes(
      { goods: 123.46, product: product() },
      { company: sp, client: reseller, rules: [rule({ aliquotaIcms: 19, mva: 50, aliquotaInternaDestino: 19 })] },
    );
    expect(t.icms.value).toBe(23.46);
    expect(t.st).toMatchObject({ mva: 50, mvaAdjusted: false, base: 185.19, value: 11.73 });
    expect(t.total).toBe(135.19);
  });
});

describe('the forum example docs/taxes.md does not use, as Campo computes it', () => {
  it('R$ 200,00 of expenses enter the own ICMS base and the total too', () => {
    const t = lineTaxes(
      { goods: 1000, otherCharges: 200, product: product() },
      {
        company: { uf: 'SP', simplesNacional: true },
        client: { ...reseller, uf: 'MG' },
        rules: [rule({ ufDestino: 'MG', aliquotaIcms: 12, mva: 30, aliquotaInternaDestino: 18 })],
      },
    );
    expect(t.icms).toMatchObject({ base: 1200, value: 144 });
    expect(t.st).toMatchObject({ mva: 30, mvaAdjusted: false, base: 1560, value: 136.8 });
    expect(t.total).toBe(1336.8);
  });
});

describe('textbook examples computed by hand (docs/taxes.md, examples 3 to 7)', () => {
  it('3: water sold inside SP to a reseller, MVA 40 %: ST R$ 72,00', () => {
    const t = lineTaxes({ goods: 1000, product: product() }, { company: sp, client: reseller, rules: [rule()] });
    expect(t.ipi.value).toBe(0);
    expect(t.icms).toMatchObject({ base: 1000, value: 180 });
    expect(t.st).toMatchObject({ base: 1400, value: 72, mvaAdjusted: false });
    expect(t.total).toBe(1072);
  });

  it('4: shampoo with 10 % IPI from SP to an MG reseller: adjusted MVA 50,24 %, FCP-ST 2 %', () => {
    const t = lineTaxes(
      { goods: 1000, product: product({ ncm: '33051000', cest: '2002800', aliquotaIpi: 10 }) },
      {
        company: sp,
        client: { ...reseller, uf: 'MG' },
        rules: [
          rule({
            ncm: '3305',
            ufDestino: 'MG',
            aliquotaIcms: 12,
            mva: 40,
            aliquotaInternaDestino: 18,
            aliquotaFcpSt: 2,
          }),
        ],
      },
    );
    expect(t.ipi).toEqual({ base: 1000, rate: 10, value: 100 });
    expect(t.icms).toMatchObject({ base: 1000, rate: 12, value: 120, ipiInBase: false });
    expect(t.st).toEqual({
      mvaOriginal: 40,
      mva: 50.24,
      mvaAdjusted: true,
      base: 1652.64,
      rate: 18,
      value: 177.48,
      fcpRate: 2,
      fcpValue: 33.05,
    });
    expect(t.total).toBe(1310.53);
  });

  it('5: the same shampoo to an MG shop that does not pay ICMS: IPI in the base, no ST, DIFAL said', () => {
    const t = lineTaxes(
      { goods: 1000, product: product({ ncm: '33051000', aliquotaIpi: 10 }) },
      {
        company: sp,
        client: { uf: 'MG', contribuinteIcms: false, simplesNacional: false, consumidorFinal: true },
        rules: [rule({ ncm: '3305', ufDestino: 'MG', aliquotaIcms: 12, mva: 40, aliquotaInternaDestino: 18 })],
      },
    );
    expect(t.icms).toMatchObject({ base: 1100, value: 132, ipiInBase: true });
    expect(t.st).toBeNull();
    expect(t.total).toBe(1100);
    expect(t.notes.map((n) => n.code)).toEqual(['TAX_DIFAL_NOT_COMPUTED']);
  });

  it('6: an imported product (origin 1) sold from SP to MG takes 4 %, and its MVA adjusts to 4 %', () => {
    const t = lineTaxes(
      { goods: 1000, product: product({ ncm: '33051000', origem: 1 }) },
      {
        company: sp,
        client: { ...reseller, uf: 'MG' },
        rules: [rule({ ncm: '3305', ufDestino: 'MG', aliquotaIcms: 12, mva: 40, aliquotaInternaDestino: 18 })],
      },
    );
    // (1,40 × 0,96 / 0,82) − 1 = 63,902 % → 63,90 %; base 1 639,00; ST 295,02 − 40,00.
    expect(t.icms).toMatchObject({ rate: 4, value: 40 });
    expect(t.st).toMatchObject({ mva: 63.9, base: 1639, value: 255.02 });
  });

  it('7: a base reduction of 33,33 % and FCP 2 % on an intrastate sale: FCP-ST less the FCP paid', () => {
    const t = lineTaxes(
      { goods: 500, product: product() },
      {
        company: sp,
        client: reseller,
        rules: [rule({ reducaoBase: 33.33, aliquotaFcp: 2, aliquotaFcpSt: 2, mva: 40 })],
      },
    );
    // ICMS base 500 × 0,6667 = 333,35; ICMS 60,00 (60,003); FCP 6,67 (6,667).
    expect(t.icms).toMatchObject({ base: 333.35, value: 60, reductionPercent: 33.33 });
    expect(t.fcp).toEqual({ rate: 2, value: 6.67 });
    // ST base 700,00; ST 126,00 − 60,00; FCP-ST 14,00 − 6,67.
    expect(t.st).toMatchObject({ base: 700, value: 66, fcpValue: 7.33 });
    expect(t.total).toBe(573.33);
  });

  it('an issuer under Simples Nacional takes the original MVA on an interstate sale', () => {
    const t = lineTaxes(
      { goods: 1000, product: product() },
      {
        company: { uf: 'SP', simplesNacional: true },
        client: { ...reseller, uf: 'MG' },
        rules: [rule({ ufDestino: 'MG', aliquotaIcms: 12, mva: 40 })],
      },
    );
    expect(t.st).toMatchObject({ mva: 40, mvaAdjusted: false, base: 1400, value: 132 });
  });

  it('an intrastate sale keeps the original MVA even when its own rate is under the internal one', () => {
    const t = lineTaxes(
      { goods: 1000, product: product() },
      { company: sp, client: reseller, rules: [rule({ aliquotaIcms: 12, mva: 40, aliquotaInternaDestino: 18 })] },
    );
    expect(t.st).toMatchObject({ mva: 40, mvaAdjusted: false, base: 1400, value: 132 });
  });

  it('ST never goes negative: a destination rate under the own ICMS gives 0', () => {
    const t = lineTaxes(
      { goods: 100, product: product() },
      {
        company: sp,
        client: { ...reseller, uf: 'MG' },
        rules: [rule({ ufDestino: 'MG', aliquotaIcms: 12, mva: 0, aliquotaInternaDestino: 7 })],
      },
    );
    expect(t.st).toMatchObject({ mvaAdjusted: false, base: 100, value: 0 });
  });

  it('a contributor buying for its own use pays no ST and has the IPI in the ICMS base', () => {
    const t = lineTaxes(
      { goods: 200, product: product({ aliquotaIpi: 5 }) },
      { company: sp, client: { ...reseller, consumidorFinal: true }, rules: [rule()] },
    );
    expect(t.st).toBeNull();
    expect(t.icms).toMatchObject({ base: 210, value: 37.8, ipiInBase: true });
    expect(t.total).toBe(210);
  });
});

describe('rounding: the tenant setting', () => {
  it('an exact half centavo goes up by default and to the even digit under ABNT NBR 5891', () => {
    const line = { goods: 10.25, product: product({ aliquotaIpi: 10 }) };
    const ctx = { company: sp, client: reseller, rules: [] };
    expect(lineTaxes(line, ctx).ipi.value).toBe(1.03);
    expect(lineTaxes(line, { ...ctx, options: { roundingRule: 'abnt-nbr-5891' } }).ipi.value).toBe(1.02);
    // Not a tie: both rules agree (1,0350 → 1,04 because the digit before is odd under ABNT too).
    expect(lineTaxes({ ...line, goods: 10.35 }, { ...ctx, options: { roundingRule: 'abnt-nbr-5891' } }).ipi.value).toBe(
      1.04,
    );
  });

  it('divRoundBy: ties only differ between the rules', () => {
    expect(divRoundBy(25n, 10n, 'half-up')).toBe(3n);
    expect(divRoundBy(25n, 10n, 'abnt-nbr-5891')).toBe(2n);
    expect(divRoundBy(35n, 10n, 'abnt-nbr-5891')).toBe(4n);
    expect(divRoundBy(251n, 100n, 'abnt-nbr-5891')).toBe(3n);
    expect(divRoundBy(-25n, 10n, 'half-up')).toBe(-3n);
  });

  it('the adjusted MVA to 2 or 4 decimals moves the ST of a R$ 10.000,00 line by centavos', () => {
    const ctx = (mvaAdjustedDecimals: number) => ({
      company: sp,
      client: { ...reseller, uf: 'PA' as const },
      rules: [rule({ ufDestino: 'PA', aliquotaIcms: 12, mva: 71.78, aliquotaInternaDestino: 17 })],
      options: { mvaAdjustedDecimals },
    });
    const two = lineTaxes({ goods: 10_000, product: product() }, ctx(2));
    const four = lineTaxes({ goods: 10_000, product: product() }, ctx(4));
    expect(two.st).toMatchObject({ mva: 82.13, base: 18_213, value: 1896.21 });
    expect(four.st).toMatchObject({ mva: 82.1282, base: 18_212.82, value: 1896.18 });
  });
});

describe('the rule selector', () => {
  const mg = { ...reseller, uf: 'MG' as const };
  const base = { ufDestino: 'MG' as const, aliquotaIcms: 12 };

  it('the longest NCM prefix wins, then a rule with the regime over one without', () => {
    const rules = [
      rule({ ...base, id: 1, ncm: '22' }),
      rule({ ...base, id: 2, ncm: '2201' }),
      rule({ ...base, id: 3, ncm: '220110' }),
      rule({ ...base, id: 4, ncm: '220110', regime: 'contribuinte' }),
      rule({ ...base, id: 5, ncm: '22011000', ufOrigem: 'RJ' }),
      rule({ ...base, id: 6, ncm: '22011000', regime: 'simples' }),
      rule({ ...base, id: 7, ncm: '22021000' }),
    ];
    expect(selectTaxRule(rules, '22011000', 'SP', mg)).toEqual({ rule: rules[3], notes: [] });
    expect(selectTaxRule(rules, '22011000', 'SP', { ...mg, simplesNacional: true }).rule?.id).toBe(6);
    expect(selectTaxRule(rules, '22019000', 'SP', mg).rule?.id).toBe(2);
    expect(selectTaxRule(rules, '22030000', 'SP', mg).rule?.id).toBe(1);
    const none = selectTaxRule(rules, '33051000', 'SP', mg);
    expect(none.rule).toBeNull();
    expect(none.notes.map((n) => n.code)).toEqual(['TAX_RULE_MISSING']);
  });

  it('two rules equally specific are reported and left out; a less specific one still applies', () => {
    const rules = [
      rule({ ...base, id: 9, ncm: '22' }),
      rule({ ...base, id: 8, ncm: '2201' }),
      rule({ ...base, id: 3, ncm: '2201', mva: 50 }),
    ];
    const s = selectTaxRule(rules, '22011000', 'SP', mg);
    expect(s.rule?.id).toBe(9);
    expect(s.notes).toEqual([
      {
        code: 'TAX_RULE_AMBIGUOUS',
        message: 'Duas ou mais regras fiscais igualmente específicas; ignoradas no cálculo',
        ruleIds: [3, 8],
      },
    ]);
  });

  it('bad rules (a negative rate, an MVA of 10.000 %, an interstate rate of 18 %) are reported, never thrown', () => {
    const bad = [
      rule({ ...base, id: 11, ncm: '22011000', aliquotaIcms: -12 }),
      rule({ ...base, id: 12, ncm: '2201100', mva: 10_000 }),
      rule({ ...base, id: 13, ncm: '220110', aliquotaIcms: 18 }),
    ];
    const good = rule({ ...base, id: 14, ncm: '2201' });
    const s = selectTaxRule([...bad, good], '22011000', 'SP', mg);
    expect(s.rule).toBe(good);
    expect(s.notes.map((n) => [n.code, n.ruleIds])).toEqual([
      ['TAX_RULE_INVALID', [11]],
      ['TAX_RULE_INVALID', [12]],
      ['TAX_RULE_INVALID', [13]],
    ]);
    expect(s.notes[0]?.detail).toContain('alíquota negativa');
    expect(s.notes[1]?.detail).toContain('MVA acima de 1000 %');
    expect(s.notes[2]?.detail).toContain('4, 7 ou 12 %');
  });

  it('checkTaxRules reports every bad and ambiguous rule of a set, as the selector judges them', () => {
    const rules = [
      rule({ ...base, id: 1, ncm: '2201' }),
      rule({ ...base, id: 2, ncm: '2201', mva: 45 }),
      rule({ ...base, id: 3, ncm: '2201', regime: 'simples' }),
      rule({ ...base, id: 4, ncm: '2201', ufDestino: 'RJ' }),
      rule({ ...base, id: 5, ncm: '22011', aliquotaFcp: -2 }),
      rule({ ...base, id: 6, ncm: '2', mva: 10_000 }),
    ];
    expect(checkTaxRules(rules).map((n) => [n.code, n.ruleIds])).toEqual([
      ['TAX_RULE_INVALID', [5]],
      ['TAX_RULE_INVALID', [6]],
      ['TAX_RULE_AMBIGUOUS', [1, 2]],
    ]);
    expect(checkTaxRules([rule()])).toEqual([]);
  });

  it('a line whose only rule is bad is priced without it (goods and IPI) and says why', () => {
    const t = lineTaxes(
      { goods: 1000, product: product({ aliquotaIpi: 10 }) },
      { company: sp, client: mg, rules: [rule({ ...base, id: 21, mva: 10_000 })] },
    );
    expect(t.ruleId).toBeNull();
    expect(t.st).toBeNull();
    expect(t.icms.value).toBe(0);
    expect(t.total).toBe(1100);
    expect(t.notes.map((n) => n.code)).toEqual(['TAX_RULE_INVALID', 'TAX_RULE_MISSING']);
    expect(t.notes[0]?.message).toBe('Regra fiscal inválida no ERP; ignorada no cálculo');
  });

  it('a client or company with bad fiscal data keeps the IPI and says why, never throws', () => {
    const line = { goods: 100, product: product({ aliquotaIpi: 10 }) };
    const badClient = { ...mg, uf: 'XX' } as unknown as ClientFiscal;
    const c = lineTaxes(line, { company: sp, client: badClient, rules: [rule()] });
    expect(c).toMatchObject({ ruleId: null, st: null, total: 110 });
    expect(c.notes.map((n) => n.code)).toEqual(['TAX_CLIENT_FISCAL_INVALID']);
    const badCompany = { uf: 'sp' } as unknown as CompanyFiscal;
    const k = lineTaxes(line, { company: badCompany, client: reseller, rules: [rule()] });
    expect(k).toMatchObject({ ruleId: null, st: null, total: 110 });
    expect(k.notes.map((n) => n.code)).toEqual(['TAX_COMPANY_FISCAL_INVALID']);
  });

  it('a product with bad fiscal data is priced at its goods and says why', () => {
    const t = lineTaxes(
      { goods: 50, product: product({ ncm: '2201', aliquotaIpi: -1 }) },
      { company: sp, client: mg, rules: [] },
    );
    expect(t.total).toBe(50);
    expect(t.notes.map((n) => n.code)).toEqual(['TAX_PRODUCT_FISCAL_INVALID']);
  });
});

describe('the order', () => {
  it('sums its lines in centavos', () => {
    const ctx = { company: sp, client: reseller, rules: [rule({ aliquotaFcpSt: 2 })] };
    const o = orderTaxes(
      [
        { goods: 0.1, product: product() },
        { goods: 0.2, product: product({ aliquotaIpi: 10 }) },
        { goods: 1000, product: product() },
      ],
      ctx,
    );
    expect(ZOrderTaxes.parse(o)).toEqual(o);
    expect(o.totals.goods).toBe(1000.3);
    expect(o.totals.total).toBe(o.lines.reduce((acc, l) => acc + Number(cents(l.total)), 0) / 100);
    expect(o.totals.icmsSt).toBe(72.03);
    expect(o.totals.ipi).toBe(0.02);
  });
});

// ---------------------------------------------------------------------------------------
// Properties

const D = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP });
const percent2 = fc.integer({ min: 0, max: 3000 }).map((n) => n / 100);
const ufArb = fc.constantFrom(...UFS);

const lineArb = fc.record({
  goods: fc.integer({ min: 0, max: 100_000_000 }).map((n) => n / 100),
  otherCharges: fc.integer({ min: 0, max: 1_000_000 }).map((n) => n / 100),
  ipi: percent2,
  origem: fc.integer({ min: 0, max: 8 }),
  companyUf: ufArb,
  clientUf: ufArb,
  contribuinte: fc.boolean(),
  simples: fc.boolean(),
  consumidorFinal: fc.boolean(),
  companySimples: fc.boolean(),
  inter: fc.constantFrom(0, 4, 7, 12),
  ownIntra: percent2,
  intra: fc.integer({ min: 0, max: 3500 }).map((n) => n / 100),
  mva: fc.integer({ min: 0, max: 2_000_000 }).map((n) => n / 10_000),
  reducao: fc.integer({ min: 0, max: 9999 }).map((n) => n / 100),
  fcp: fc.integer({ min: 0, max: 400 }).map((n) => n / 100),
  fcpSt: fc.integer({ min: 0, max: 400 }).map((n) => n / 100),
  st: fc.boolean(),
  decimals: fc.integer({ min: 0, max: 6 }),
  rounding: fc.constantFrom('half-up' as const, 'abnt-nbr-5891' as const),
});

describe('properties on random lines', () => {
  it(
    'total = goods + other charges + IPI + ST + FCP-ST; nothing negative; all in centavos; adjusted MVA only interstate',
    PROPERTY,
    () => {
      fc.assert(
        fc.property(lineArb, (a) => {
          const interstate = a.companyUf !== a.clientUf;
          const r = rule({
            ufOrigem: a.companyUf,
            ufDestino: a.clientUf,
            aliquotaIcms: interstate ? a.inter : a.ownIntra,
            aliquotaInternaDestino: a.intra,
            mva: a.mva,
            reducaoBase: a.reducao,
            aliquotaFcp: a.fcp,
            aliquotaFcpSt: a.fcpSt,
            st: a.st,
          });
          const t = lineTaxes(
            {
              goods: a.goods,
              otherCharges: a.otherCharges,
              product: product({ aliquotaIpi: a.ipi, origem: a.origem }),
            },
            {
              company: { uf: a.companyUf, simplesNacional: a.companySimples },
              client: {
                uf: a.clientUf,
                contribuinteIcms: a.contribuinte,
                simplesNacional: a.simples,
                consumidorFinal: a.consumidorFinal,
              },
              rules: [r],
              options: { roundingRule: a.rounding, mvaAdjustedDecimals: a.decimals },
            },
          );
          expect(ZLineTaxes.parse(t)).toEqual(t);
          const values = [t.goods, t.otherCharges, t.ipi.value, t.icms.base, t.icms.value, t.fcp.value, t.total];
          if (t.st) values.push(t.st.base, t.st.value, t.st.fcpValue);
          for (const v of values) {
            expect(v).toBeGreaterThanOrEqual(0);
            expect(hasAtMostPlaces(v, 2)).toBe(true);
          }
          const sum =
            cents(t.goods) +
            cents(t.otherCharges) +
            cents(t.ipi.value) +
            cents(t.st?.value ?? 0) +
            cents(t.st?.fcpValue ?? 0);
          expect(cents(t.total)).toBe(sum);
          expect(t.ruleId).toBe(1);
          // ST only for a contributor reseller; the adjusted MVA only across states.
          expect(t.st !== null).toBe(a.st && a.contribuinte && !a.consumidorFinal);
          if (t.st) {
            if (!interstate || a.companySimples) {
              expect(t.st.mvaAdjusted).toBe(false);
              expect(t.st.mva).toBe(a.mva);
            }
            if (interstate && !a.companySimples && a.intra > t.icms.rate) expect(t.st.mvaAdjusted).toBe(true);
            // The ST base against decimal.js, half up (the default's half-up only).
            if (a.rounding === 'half-up') {
              const one = new D(1);
              const mva = t.st.mvaAdjusted
                ? one
                    .plus(new D(a.mva).div(100))
                    .times(one.minus(new D(t.icms.rate).div(100)))
                    .div(one.minus(new D(a.intra).div(100)))
                    .minus(1)
                    .times(100)
                    .toDecimalPlaces(a.decimals, Decimal.ROUND_HALF_UP)
                : new D(a.mva);
              const expected = new D(t.goods)
                .plus(t.otherCharges)
                .plus(t.ipi.value)
                .times(one.plus(mva.div(100)))
                .toDecimalPlaces(2, Decimal.ROUND_HALF_UP)
                .toNumber();
              expect(t.st.base).toBe(expected);
              expect(t.st.mva).toBe(mva.toNumber());
            }
          }
        }),
        { numRuns: 3000 },
      );
    },
  );
});
