// The reference ERP's fiscal data (produtos_fiscal, corrent_fiscal, regras_fiscais): an NCM,
// CEST, origin and IPI rate per product line, a regime per client and the tax rules of a
// distributor in Sao Paulo selling there and to Minas Gerais, Rio de Janeiro and Parana (tenant
// 1), and of one in Recife selling around the Northeast (tenant 2). Everything is taken from the
// product line, the client id and fixed tables, never from the random stream, so adding it
// changed no other value of the fixture; dates come from the as-of day, not the machine's zone.
//
// The codes and rates are plausible for 2025 (internal rates of the states, interstate 12 %
// within the South and Southeast, 4 % for imported goods, ICMS-ST with an MVA on beverages,
// candy, hygiene and cleaning products for destinations in SP and MG), an illustration for tests
// and the demo, not a tax table to rely on.
import type { CopyValue } from './copy.ts';
import { timestamp } from './dates.ts';

export interface ProductFiscal {
  ncm: string;
  /** Only for goods a CEST applies to (ICMS-ST). */
  cest: string | null;
  /** NF-e origin: 0 national, 2 imported bought in Brazil. */
  origem: number;
  /** IPI rate, percent. */
  ipi: number;
}

const f = (ncm: string, cest: string | null = null, ipi = 0, origem = 0): ProductFiscal => ({ ncm, cest, origem, ipi });

/** By the product line's base word (catalog-words.ts), which names the goods. */
export const FISCAL_BY_LINE: Readonly<Record<string, ProductFiscal>> = {
  Refrigerante: f('22021000', '0301100', 4),
  'Água Mineral': f('22011000', '0300500'),
  Suco: f('20098990'),
  'Chá Gelado': f('22029900', '0300700'),
  Cerveja: f('22030000', '0302100', 6),
  Chope: f('22030000', '0302200', 6),
  Arroz: f('10063021'),
  Feijão: f('07133319'),
  'Flocão de Milho': f('11031300'),
  Macarrão: f('19021900'),
  'Macarrão Instantâneo': f('19023000'),
  Açúcar: f('17019900'),
  Café: f('09012100'),
  'Óleo de Soja': f('15079011'),
  'Azeite de Oliva': f('15092000', null, 0, 2),
  Vinagre: f('22090000'),
  Sal: f('25010020'),
  'Milho Verde': f('20058000'),
  Ervilha: f('20054000'),
  Sardinha: f('16041310'),
  'Extrato de Tomate': f('20029090'),
  Biscoito: f('19053100', '1705300'),
  'Sabão em Pó': f('34022000', '1100100'),
  'Sabão Líquido': f('34022000', '1100100'),
  Amaciante: f('38099190', '1100600'),
  'Detergente Líquido': f('34022000', '1100400'),
  'Esponja Dupla Face': f('39249000'),
  'Lã de Aço': f('73239000', '1100900'),
  'Água Sanitária': f('28289011', '1100300'),
  Desinfetante: f('38089419', '1100500'),
  'Limpador Multiuso': f('34029039', '1100800'),
  Álcool: f('22089000'),
  Xampu: f('33051000', '2001300'),
  Condicionador: f('33059000', '2001600'),
  Sabonete: f('34011190', '2003400'),
  'Desodorante Aerosol': f('33072010', '2002700', 7),
  'Creme Dental': f('33061000', '2003500'),
  'Escova Dental': f('96032100', '2004100'),
  'Papel Higiênico Folha Dupla': f('48181000', '2006000'),
  'Fralda Descartável': f('96190000', '2004800'),
  Absorvente: f('96190000', '2005000'),
  'Requeijão Cremoso': f('04061090'),
  Manteiga: f('04051000'),
  Iogurte: f('04032000'),
  'Leite UHT': f('04012010'),
  Queijo: f('04069090'),
  Presunto: f('16024900'),
  Mortadela: f('16010000'),
  Linguiça: f('16010000'),
  'Pão de Queijo': f('19012000'),
  Lasanha: f('19022000'),
  Hambúrguer: f('16025000'),
  'Polpa de Fruta': f('08119000'),
  Chocolate: f('18063210', '1700200', 5),
  Paçoca: f('17049090', '1700100'),
  Bala: f('17049020', '1700100'),
};

/** The fiscal data of a product line: every line of the catalog has one (a test checks). */
export function fiscalOf(lineBase: string): ProductFiscal {
  const found = FISCAL_BY_LINE[lineBase];
  if (!found) throw new Error(`no fiscal data for the product line "${lineBase}" (erp-fixture/fiscal.ts)`);
  return found;
}

/** A produtos_fiscal row; `changedAt` is the product's own last change. */
export function productFiscalRow(idProduto: number, lineBase: string, changedAt: string): CopyValue[] {
  const x = fiscalOf(lineBase);
  return [idProduto, x.ncm, x.cest, x.origem, x.ipi.toFixed(2), changedAt];
}

/**
 * The client's regime (corrent_fiscal): an individual (tipo_pessoa 'F', registered 'ISENTO')
 * is no ICMS contributor and buys as a final consumer; of the companies, three in five are
 * under Simples Nacional (most small retailers are) and one in seven buys for its own use (a
 * restaurant, an office) rather than for resale.
 */
export function clientFiscalRow(c: { id: number; tipoPessoa: string }): CopyValue[] {
  if (c.tipoPessoa === 'F') return [c.id, 'N', 'N', 'S'];
  return [c.id, 'S', c.id % 5 < 3 ? 'S' : 'N', c.id % 7 === 0 ? 'S' : 'N'];
}

interface Rule {
  ncm: string | null;
  origem: string;
  destino: string;
  regime?: 'R' | 'S' | 'C' | 'N';
  icms: number;
  st?: { mva: number; destino: number };
  fcp?: number;
  fcpSt?: number;
  reducao?: number;
}

/** Internal rate of each destination (the default rule's own rate when the sale stays in it). */
const INTERNAL: Readonly<Record<string, number>> = {
  SP: 18,
  MG: 18,
  RJ: 18,
  PR: 19.5,
  PE: 20.5,
  PB: 20,
  AL: 19,
  RN: 18,
  SE: 19,
  CE: 20,
  PI: 21,
  MA: 22,
};

/** FCP of the destination on every sale into it (RJ: 2 % on top of its 18 %). */
const FCP: Readonly<Record<string, number>> = { RJ: 2 };

/** Goods under ICMS-ST, with their original MVA, per destination in SP and MG. */
const ST_GOODS: readonly { ncm: string; mva: { SP: number; MG: number }; fcpStMg?: number }[] = [
  { ncm: '2201', mva: { SP: 40, MG: 40 }, fcpStMg: 2 },
  { ncm: '2202', mva: { SP: 40, MG: 40 }, fcpStMg: 2 },
  { ncm: '2203', mva: { SP: 70, MG: 70 }, fcpStMg: 2 },
  { ncm: '1704', mva: { SP: 32, MG: 37 } },
  { ncm: '1806', mva: { SP: 32, MG: 37 } },
  { ncm: '3305', mva: { SP: 43, MG: 43 }, fcpStMg: 2 },
  { ncm: '3402', mva: { SP: 41, MG: 41 } },
];

/**
 * Tenant 1 (a head office in SP): a default rule per destination state (18 % inside SP, 12 %
 * to MG, RJ and PR), ST on ST_GOODS into SP and MG for clients that resell (the ST rules name
 * no regime; a final consumer's rule, without ST, overrides them), the basic basket at 7 %
 * inside SP (rice and beans) and soybean oil with its base reduced to an effective 7 %.
 * Tenant 2 (Recife): a default rule per state of its clients, 20.5 % inside PE and 12 %
 * interstate.
 */
function rulesOf(tenant: number): Rule[] {
  if (tenant === 2) {
    return ['PE', 'PB', 'AL', 'RN', 'SE', 'CE', 'PI', 'MA'].map((uf) => ({
      ncm: null,
      origem: 'PE',
      destino: uf,
      icms: uf === 'PE' ? (INTERNAL.PE ?? 0) : 12,
      fcp: FCP[uf] ?? 0,
    }));
  }
  if (tenant !== 1) return [];
  const rules: Rule[] = ['SP', 'MG', 'RJ', 'PR'].map((uf) => ({
    ncm: null,
    origem: 'SP',
    destino: uf,
    icms: uf === 'SP' ? 18 : 12,
    fcp: FCP[uf] ?? 0,
  }));
  for (const g of ST_GOODS) {
    for (const uf of ['SP', 'MG'] as const) {
      rules.push({
        ncm: g.ncm,
        origem: 'SP',
        destino: uf,
        icms: uf === 'SP' ? 18 : 12,
        st: { mva: g.mva[uf], destino: INTERNAL[uf] ?? 18 },
        ...(uf === 'MG' && g.fcpStMg ? { fcpSt: g.fcpStMg } : {}),
      });
      // A final consumer (contributor or not) pays no ST: the goods end with it.
      for (const regime of ['C', 'N'] as const) {
        rules.push({ ncm: g.ncm, origem: 'SP', destino: uf, regime, icms: uf === 'SP' ? 18 : 12 });
      }
    }
  }
  rules.push({ ncm: '1006', origem: 'SP', destino: 'SP', icms: 7 });
  rules.push({ ncm: '0713', origem: 'SP', destino: 'SP', icms: 7 });
  rules.push({ ncm: '15079011', origem: 'SP', destino: 'SP', icms: 18, reducao: 61.11 });
  return rules;
}

const pct = (n: number | undefined) => (n === undefined ? null : n.toFixed(2));

/**
 * The regras_fiscais rows of the tenants (their head offices), ids numbered from 1 in order,
 * each last changed 40 days before the as-of day at 09:00 on the ERP's wall clock.
 */
export function taxRuleRows(tenantIds: readonly number[], asOf: number): CopyValue[][] {
  const changedAt = timestamp(asOf - 40, 9 * 3600);
  const rows: CopyValue[][] = [];
  for (const tenant of tenantIds) {
    for (const r of rulesOf(tenant)) {
      rows.push([
        rows.length + 1,
        tenant,
        r.ncm,
        r.origem,
        r.destino,
        r.regime ?? null,
        pct(r.icms),
        r.st ? 'S' : 'N',
        pct(r.st?.mva),
        pct(r.st?.destino),
        pct(r.fcp ?? 0),
        pct(r.fcpSt ?? 0),
        pct(r.reducao ?? 0),
        changedAt,
      ]);
    }
  }
  return rows;
}
