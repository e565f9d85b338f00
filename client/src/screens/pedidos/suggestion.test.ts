import { describe, expect, it } from 'vitest';
import type { ProductDoc, RuleDoc } from '../../db/schemas.ts';
import { mixItems } from '../../kit/mix.ts';
import { type CartContext, ruleOf } from './cart-model.ts';
import { suggestedLines, suggestionRows } from './suggestion.ts';

const product = (id: number, over: Partial<ProductDoc> = {}): ProductDoc => ({
  id: String(id),
  code: `P${id}`,
  description: `Produto ${id}`,
  unit: 'UN',
  category: 'MERCEARIA',
  grupo: 3,
  subgrupo: 1,
  grupoName: null,
  subgrupoName: null,
  image: null,
  active: true,
  prices: [{ idPauta: 1, price: 20 + id }],
  busca: `p${id}`,
  grupoCodigo: 3,
  ...over,
});

const rule: RuleDoc = {
  id: '41',
  descricao: 'Semana do café',
  grupo: 3,
  subgrupo: null,
  representante: null,
  idPauta: 1,
  percent: 12,
  vigenciaInicio: '2026-11-01',
  vigenciaFim: '2026-11-30',
  promocao: true,
};

const ctx: CartContext = {
  codVendedor: 5,
  idPauta: 1,
  date: '2026-11-28',
  ceilings: { defaultPercent: 8, byCategory: {} },
  rules: [ruleOf(rule)],
};

const products = new Map(
  [
    product(1),
    product(2, { active: false }),
    product(3, { prices: [{ idPauta: 2, price: 9 }] }),
    product(4),
    product(5, { grupo: 9, grupoCodigo: 9 }),
  ].map((p) => [p.id, p]),
);

// The document's mix: 1 usual 12.5, 2 inactive, 3 without a price on pauta 1, 4 in the cart,
// 5 outside the rule, 6 not on this device.
const items = mixItems(
  {
    mix: [
      [1, 6, 12.5, 18, '2026-10-14'],
      [2, 5, 1, 1, '2026-11-01'],
      [3, 4, 1, 1, '2026-11-01'],
      [4, 3, 2, 1, '2026-11-01'],
      [5, 2, 3, 1, '2026-11-20'],
      [6, 1, 1, 1, '2026-11-20'],
    ],
  },
  '2026-11-28',
);

describe("the cart's suggestion from the client's mix", () => {
  it("prices each product at today's price on the client's pauta; inactive, unpriced and unknown ones cannot be added", () => {
    const rows = suggestionRows(items, products, ctx, new Set([4]));
    expect(rows.map((r) => [r.idProduto, r.preco, r.inCart])).toEqual([
      [1, 21, false],
      [2, null, false],
      [3, null, false],
      [4, 24, true],
      [5, 25, false],
      [6, null, false],
    ]);
    // The last price paid stays what it was; today's price is the catalog's.
    expect(rows[0]?.ultimoPreco).toBe(18);
    expect(rows[0]?.parado).toBe(true);
  });

  it("adds those not in the cart at the usual quantity with today's rule pre-filled, as ordinary lines", () => {
    const rows = suggestionRows(items, products, ctx, new Set([4]));
    expect(suggestedLines(rows, products, ctx)).toEqual([
      { idProduto: 1, quantidade: '12,5', desconto: '12' },
      { idProduto: 5, quantidade: '3', desconto: '0' },
    ]);
    // One tap: the lines of one row.
    expect(suggestedLines(rows.slice(4, 5), products, ctx)).toEqual([{ idProduto: 5, quantidade: '3', desconto: '0' }]);
    // Everything already in the cart: nothing more.
    expect(suggestedLines(suggestionRows(items, products, ctx, new Set([1, 4, 5])), products, ctx)).toEqual([]);
  });
});
