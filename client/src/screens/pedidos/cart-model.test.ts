import type { OrderCreate, SyncOrderReason } from '@campo/shared';
import { describe, expect, it } from 'vitest';
import { deviceCredit, NO_QUEUED, type QueuedOrders, queuedTotalFor } from '../../data/queued-figures.ts';
import type { ClientDoc, ProductDoc, RuleDoc } from '../../db/schemas.ts';
import { parseDecimal } from '../../kit/order-format.ts';
import {
  allowedTerms,
  type CartContext,
  cartCredit,
  cartFlex,
  chosenTerm,
  draftOf,
  lineFlexText,
  newLine,
  previewLine,
  queuedFlexSpent,
  ruleOf,
  serverReasonsFor,
} from './cart-model.ts';

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

/** NBSP-free money, to compare with Intl's output. */
const plain = (text: string | null) => text?.replace(/\s/g, ' ') ?? null;

/** Flex on: half the margin above the list to the balance, 5 points past a 7 % ceiling. */
const flexCtx = (over: Partial<CartContext> = {}) =>
  ctx({
    rules: [],
    ceilings: { defaultPercent: 7, byCategory: {} },
    flex: { creditSharePercent: 50, maxBeyondCeilingPoints: 5 },
    ...over,
  });
const line = (desconto: string, c = flexCtx()) => previewLine({ idProduto: 7, quantidade: '10', desconto }, product, c);

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

  it('takes an acréscimo and says what it adds to the flex balance', () => {
    // R$ 20,00 list, 4 % above: R$ 20,80 × 10, R$ 8,00 above the list, half to the balance.
    const p = line('-4');
    expect(p.error).toBeNull();
    expect(p.amounts?.total).toBe(208);
    expect(p.flex).toMatchObject({ earned: 4, spent: 0 });
    expect(plain(lineFlexText(p))).toBe('+R$ 4,00 no saldo flex quando o pedido for aprovado.');
    // Below −100 % is no price at all.
    expect(line('-100,01').error).toMatch(/entre -100% \(acréscimo\) e 100%/);
  });

  it('says what a discount past the ceiling takes from the balance, and refuses one past the maximum', () => {
    // 9 % on a 7 % ceiling: R$ 18,60 at the ceiling, R$ 18,20 sold, 10 units: R$ 4,00.
    const p = line('9');
    expect(p.error).toBeNull();
    expect(p.flex).toMatchObject({ earned: 0, spent: 4 });
    expect(plain(lineFlexText(p))).toBe('Usa R$ 4,00 do saldo flex: 9% passa o teto de 7% (seu teto padrão).');
    expect(line('12').error).toBeNull();
    const past = line('12,01');
    expect(past.aboveCeiling).toBe(true);
    expect(past.error).toBe(
      'Desconto de 12,01% acima do teto padrão de 7% do representante: máximo de 12% com o flex.',
    );
    // Flex off: the ceiling is the limit, as before.
    expect(line('7,01', flexCtx({ flex: undefined })).error).toBe(
      'Desconto de 7,01% acima do teto padrão de 7% do representante.',
    );
    expect(lineFlexText(line('7'))).toBeNull();
  });

  it("sums the order's flex against the balance less the queued orders, and refuses what it knows is not covered", () => {
    const lines = [
      line('9'),
      previewLine({ idProduto: 8, quantidade: '1', desconto: '-4' }, { ...product, id: '8' }, flexCtx()),
    ];
    expect(cartFlex(lines, 10, 3)).toEqual({
      earned: 0.4,
      spent: 4,
      balance: 10,
      reserved: 3,
      available: 7,
      after: 3,
      covered: true,
    });
    const short = cartFlex(lines, 10, 7);
    expect(short).toMatchObject({ available: 3, after: -1, covered: false });
    const form = { client, endEntrega: 'Rua A, 10', observacao: '', lines };
    expect(draftOf({ ...form, flex: short })).toEqual({
      ok: false,
      errors: [
        expect.stringMatching(
          /^O saldo flex não cobre este pedido: ele usa R\$\s4,00 e o saldo disponível é R\$\s3,00 \(R\$\s7,00 já reservados por pedidos na fila\)\./,
        ),
      ],
    });
    // An order that spends nothing goes, even when the queue took more than the balance.
    expect(cartFlex([lines[1] as (typeof lines)[number]], 10, 12)).toMatchObject({ spent: 0, covered: true });
    // Not synced yet: the order goes, and the server decides.
    const unknown = cartFlex(lines, null, 7);
    expect(unknown).toMatchObject({ available: null, after: null, covered: null });
    expect(draftOf({ ...form, flex: unknown }).ok).toBe(true);
  });

  it("prices the queued orders' flex and totals as the cart does", () => {
    const draft = (idCliente: number, descontoPercent: number): OrderCreate => ({
      idCliente,
      itens: [{ idProduto: 7, quantidade: 10, descontoPercent }],
    });
    const queued: QueuedOrders = {
      drafts: [
        { id: 'a', draft: draft(99, 9) },
        { id: 'b', draft: draft(99, 10) },
        { id: 'c', draft: { ...draft(5, 0), idPauta: 2 } },
      ],
      products: new Map([['7', product]]),
      clients: new Map([['99', client]]),
    };
    // R$ 4,00 and R$ 6,00 past the 7 % ceiling; the third is within it.
    expect(queuedFlexSpent(queued, flexCtx())).toBe(10);
    expect(queuedFlexSpent(NO_QUEUED, flexCtx())).toBe(0);
    // Client 99's: R$ 182,00 + R$ 180,00; client 5's on its own pauta 2: R$ 250,00.
    expect(queuedTotalFor(queued, 99)).toBe(362);
    expect(queuedTotalFor(queued, 5)).toBe(250);
  });

  it("previews the client's available credit and what the tenant's policy will do beyond it", () => {
    const doc = { creditLimit: 10_000, openReceivables: 4_000.5, openOrders: 1_289.5 };
    const credit = deviceCredit(doc, 500);
    expect(credit).toEqual({
      limit: 10_000,
      openReceivables: 4_000.5,
      openOrders: 1_289.5,
      queued: 500,
      available: 4_210,
    });
    expect(deviceCredit({ creditLimit: null }, 500)).toBeNull();
    expect(cartCredit(null, 5_300, 'block')).toBeNull();
    const within = cartCredit(credit, 4_210, 'block');
    expect(plain(within?.line ?? null)).toBe('Limite disponível R$ 4.210,00 · este pedido R$ 4.210,00');
    expect(within?.warning).toBeNull();
    const flag = cartCredit(credit, 5_300, 'flag');
    expect(plain(flag?.line ?? null)).toBe('Limite disponível R$ 4.210,00 · este pedido R$ 5.300,00');
    expect(plain(flag?.warning ?? null)).toBe(
      'Este pedido passa R$ 1.090,00 do crédito disponível do cliente: vai para o aprovador marcado como acima do crédito.',
    );
    expect(cartCredit(credit, 5_300, 'block')?.warning).toMatch(/a empresa bloqueia pedidos acima do crédito/);
    expect(cartCredit(credit, 5_300, 'ignore')).toMatchObject({ beyond: true, warning: null });
  });

  it("keeps the server's flex reason on its line until the discount changes", () => {
    const reasons: SyncOrderReason[] = [
      {
        code: 'FLEX_BALANCE_INSUFFICIENT',
        message: 'Linha 1: saldo',
        line: 1,
        idProduto: 7,
        descontoPercent: 9,
        flex: { saldo: 1, necessario: 4, linha: 4 },
      },
      { code: 'CREDIT_LIMIT_EXCEEDED', message: 'crédito' },
    ];
    expect(serverReasonsFor(reasons, line('9')).map((r) => r.code)).toEqual(['FLEX_BALANCE_INSUFFICIENT']);
    expect(serverReasonsFor(reasons, line('7'))).toEqual([]);
  });
});
