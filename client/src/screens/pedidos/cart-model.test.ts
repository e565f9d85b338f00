import { describe, expect, it } from 'vitest';
import type { ClientDoc, ProductDoc, RuleDoc } from '../../db/schemas.ts';
import { parseDecimal } from '../../kit/order-format.ts';
import { allowedTerms, type CartContext, chosenTerm, draftOf, newLine, previewLine, ruleOf } from './cart-model.ts';

const product: ProductDoc = {
  id: '7',
  code: 'P7',
  description: 'Café torrado 500 g',
  unit: 'UN',
  category: 'MERCEARIA',
  grupo: 3,
  subgrupo: 1,
  grupoName: null,
  subgrupoName: null,
  image: null,
  active: true,
  prices: [
    { idPauta: 1, price: 20 },
    { idPauta: 2, price: 25 },
  ],
  busca: 'p7 cafe torrado 500 g',
  grupoCodigo: 3,
};

const rule: RuleDoc = {
  id: '41',
  descricao: 'Semana do café',
  grupo: 3,
  subgrupo: null,
  representante: null,
  idPauta: 1,
  percent: 12,
  vigenciaInicio: '2026-01-01',
  vigenciaFim: '2026-01-31',
  promocao: true,
};

const ctx = (over: Partial<CartContext> = {}): CartContext => ({
  codVendedor: 5,
  idPauta: 1,
  date: '2026-01-15',
  ceilings: { defaultPercent: 8, byCategory: {} },
  rules: [ruleOf(rule)],
  ...over,
});

const client = { id: '99', financialStatus: 'ok', idPauta: 1 } as ClientDoc;

describe('the cart', () => {
  it("prices a line on the client's pauta and pre-fills the rule's discount", () => {
    const line = newLine(product, ctx());
    expect(line.desconto).toBe('12');
    const p = previewLine({ ...line, quantidade: '3' }, product, ctx());
    expect(p.listPrice).toBe(20);
    expect(p.ceiling).toMatchObject({ ceilingPercent: 12, source: 'rule' });
    expect(p.amounts).toEqual({ unitPrice: 17.6, gross: 60, total: 52.8, discount: 7.2 });
    expect(p.error).toBeNull();
  });

  it('falls back to the base ceiling outside the rule (another pauta, or after its last day)', () => {
    for (const c of [ctx({ idPauta: 2 }), ctx({ date: '2026-02-01' })]) {
      const p = previewLine({ idProduto: 7, quantidade: '1', desconto: '12' }, product, c);
      expect(p.ceiling).toMatchObject({ ceilingPercent: 8, source: 'representative' });
      expect(p.aboveCeiling).toBe(true);
      expect(p.error).toBe('Desconto de 12% acima do teto padrão de 8% do representante.');
    }
  });

  it('takes a discount exactly at the ceiling, and reads pt-BR decimals', () => {
    const p = previewLine({ idProduto: 7, quantidade: '1,5', desconto: '12,00' }, product, ctx());
    expect(p.error).toBeNull();
    expect(p.quantity).toBe(1.5);
    expect(parseDecimal('1.234,5')).toBe(1234.5);
    expect(parseDecimal('abc')).toBeNaN();
  });

  it('says what is wrong with a quantity or a discount in Portuguese', () => {
    expect(previewLine({ idProduto: 7, quantidade: '0', desconto: '0' }, product, ctx()).error).toMatch(
      /quantidade maior que zero/,
    );
    expect(previewLine({ idProduto: 7, quantidade: '1', desconto: '1,234' }, product, ctx()).error).toMatch(
      /até 2 casas decimais/,
    );
    expect(previewLine({ idProduto: 7, quantidade: '1', desconto: '0' }, product, ctx({ idPauta: 9 })).error).toMatch(
      /sem preço na pauta/,
    );
  });

  it('builds the POST /orders body, and refuses a blocked client or a line above the ceiling', () => {
    const ok = previewLine({ idProduto: 7, quantidade: '2', desconto: '5' }, product, ctx());
    const draft = draftOf({ client, endEntrega: ' Rua A, 10 ', observacao: '', lines: [ok] });
    expect(draft).toEqual({
      ok: true,
      draft: { idCliente: 99, endEntrega: 'Rua A, 10', itens: [{ idProduto: 7, quantidade: 2, descontoPercent: 5 }] },
    });
    const above = previewLine({ idProduto: 7, quantidade: '2', desconto: '13' }, product, ctx());
    const blocked = { ...client, financialStatus: 'blocked' } as ClientDoc;
    const refused = draftOf({ client: blocked, endEntrega: '', observacao: '', lines: [above] });
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.errors[0]).toMatch(/Bloqueado no financeiro/);
      expect(refused.errors[1]).toMatch(/^Linha 1 \(Café torrado 500 g\): Desconto de 13% acima do teto de 12%/);
    }
    // A client without an address in the ERP: the cart asks for one rather than send none.
    expect(draftOf({ client, endEntrega: '  ', observacao: '', lines: [ok] })).toEqual({
      ok: false,
      errors: ['Informe o endereço de entrega: o cliente não tem endereço no cadastro do ERP.'],
    });
    expect(draftOf({ client: null, endEntrega: '', observacao: '', lines: [] })).toEqual({
      ok: false,
      errors: ['Escolha o cliente.', 'Adicione pelo menos um produto.'],
    });
  });

  it("offers the client's allowed payment terms with its default chosen, and sends the chosen one", () => {
    const terms = [
      { id: 1, descricao: 'À vista' },
      { id: 2, descricao: '28 dias' },
      { id: 3, descricao: '28/35/42 dias' },
    ];
    const free = { ...client, paymentTermId: 3, paymentTermIds: null } as ClientDoc;
    const restricted = { ...client, paymentTermId: 3, paymentTermIds: [1, 2] } as ClientDoc;
    expect(allowedTerms(terms, free)).toEqual(terms);
    expect(allowedTerms(terms, restricted).map((t) => t.id)).toEqual([1, 2]);
    expect(chosenTerm(terms, free, null)?.id).toBe(3);
    expect(chosenTerm(terms, free, 2)?.id).toBe(2);
    // A default the client may no longer use is not pre-selected: the rep must choose.
    expect(chosenTerm(allowedTerms(terms, restricted), restricted, null)).toBeNull();

    const ok = previewLine({ idProduto: 7, quantidade: '2', desconto: '5' }, product, ctx());
    const form = { client: free, endEntrega: 'Rua A, 10', observacao: '', lines: [ok] };
    const sent = draftOf({ ...form, payment: { chosen: chosenTerm(terms, free, 2), allowed: terms } });
    expect(sent.ok && sent.draft.idCondicao).toBe(2);
    expect(draftOf({ ...form, payment: { chosen: null, allowed: terms } })).toEqual({
      ok: false,
      errors: ['Escolha a condição de pagamento.'],
    });
    // No terms on this device yet (a company document from an older server): the server applies the default.
    const none = draftOf({ ...form, payment: { chosen: null, allowed: [] } });
    expect(none.ok && 'idCondicao' in none.draft).toBe(false);
  });
});
