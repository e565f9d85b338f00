import type { Order } from '@campo/shared';
import { describe, expect, it } from 'vitest';
import { lineFlexNote, orderFlexTotals } from './flex.ts';

const text = (s: string | null | undefined) => s?.replace(/\u00a0/g, ' ');

const line = (over: Partial<Order['itens'][number]>): Order['itens'][number] => ({
  seq: 1,
  idProduto: 7,
  codProduto: 'P7',
  descricao: 'Café',
  categoria: null,
  quantidade: 10,
  precoTabela: 20,
  descontoPercent: 9,
  precoUnitario: 18.2,
  tetoPercent: 7,
  regra: null,
  idPauta: 1,
  valorTotal: 182,
  ...over,
});

describe("the approver's view of the flex balance", () => {
  it('says what each line used beyond which ceiling, or earned above the list', () => {
    expect(text(lineFlexNote(line({ flexUsado: 4, flexGerado: 0 })))).toBe(
      'Usa R$ 4,00: 9% passa o teto de 7% (alçada do representante)',
    );
    expect(text(lineFlexNote(line({ flexUsado: 4, regra: { id: 3, descricao: 'Semana do café' } })))).toBe(
      'Usa R$ 4,00: 9% passa o teto de 7% (regra "Semana do café")',
    );
    expect(text(lineFlexNote(line({ descontoPercent: -4, flexGerado: 4, flexUsado: 0 })))).toBe('Gera R$ 4,00');
    expect(lineFlexNote(line({}))).toBeNull();
  });

  it("totals the order's flex, and says nothing for an order without any", () => {
    const itens = [line({ flexUsado: 4.1, flexGerado: 0 }), line({ seq: 2, flexGerado: 2.2, flexUsado: 0 })];
    expect(orderFlexTotals({ itens })).toEqual({ used: 4.1, earned: 2.2 });
    expect(orderFlexTotals({ itens: [line({})] })).toBeNull();
  });
});
