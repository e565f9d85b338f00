// The cart's arithmetic and checks, kept pure so they can be tested without a browser. Every
// ceiling, pre-fill and total comes from the shared engine (discount-engine.ts, orders.ts): the
// server runs the same code when the order arrives, so what the cart shows is what it decides,
// unless a rule or ceiling changed on the server meanwhile.
import {
  type CartLineContext,
  type CreditPolicy,
  checkLineDiscount,
  type DiscountRule,
  describeCeiling,
  FLEX_OFF,
  type FlexLine,
  type FlexPolicy,
  hasAtMostPlaces,
  type LineCeiling,
  lineAmounts,
  lineCeiling,
  lineFlex,
  type OrderCreate,
  orderTotals,
  type PaymentTerm,
  type RepresentativeCeilings,
  round2,
  ruleFromDocument,
  type SyncOrderReason,
  subtractMoney,
  sumMoney,
  ZOrderCreate,
} from '@campo/shared';
import { type DeviceCredit, pautaOfDraft, type QueuedOrders } from '../../data/queued-figures.ts';
import type { ClientDoc, ProductDoc, RuleDoc, SettingsDoc } from '../../db/schemas.ts';
import { formatMoney, formatPercent, parseDecimal, toInputText } from '../../kit/order-format.ts';

/** A cart line as typed: text, so nothing the person typed is reformatted under their fingers. */
export interface CartLineInput {
  idProduto: number;
  quantidade: string;
  desconto: string;
}

export interface CartContext {
  codVendedor: number;
  idPauta: number | null;
  /** The business date, YYYY-MM-DD in São Paulo (businessDate). */
  date: string;
  ceilings: RepresentativeCeilings;
  rules: readonly DiscountRule[];
  /** The tenant's flex settings (useMoneyRules); FLEX_OFF when absent. */
  flex?: FlexPolicy;
}

export interface LinePreview {
  input: CartLineInput;
  product: ProductDoc | null;
  listPrice: number | null;
  ceiling: LineCeiling | null;
  quantity: number | null;
  discount: number | null;
  amounts: ReturnType<typeof lineAmounts> | null;
  /** What is wrong with the line, in pt-BR; null when it can be sent. */
  error: string | null;
  /** The discount is above the ceiling (the error says which ceiling). */
  aboveCeiling: boolean;
  /** What the line earns for or takes from the flex balance; null until it is priced. */
  flex: FlexLine | null;
}

export const NO_CEILINGS: RepresentativeCeilings = { defaultPercent: null, byCategory: {} };

/** A replicated rule for the engine (shared: the catalog reads rules the same way). */
export const ruleOf = (doc: RuleDoc): DiscountRule => ruleFromDocument(doc);

/** The representative's ceilings from the 'tetos' document; null until it has been synced. */
export function ceilingsOf(doc: SettingsDoc | null | undefined): RepresentativeCeilings | null {
  const t = doc?.tetos;
  if (!t) return null;
  return { defaultPercent: t.defaultPercent ?? null, byCategory: t.byCategory ?? {} };
}

export function priceOn(product: ProductDoc, idPauta: number | null): number | null {
  if (idPauta === null) return null;
  return product.prices?.find((p) => p.idPauta === idPauta)?.price ?? null;
}

/** The engine's view of a product, the way the server builds it (missing codes never match a rule). */
export function engineLine(product: ProductDoc, ctx: CartContext): CartLineContext | null {
  if (ctx.idPauta === null) return null;
  return {
    codVendedor: ctx.codVendedor,
    idPauta: ctx.idPauta,
    date: ctx.date,
    product: { categoria: product.category ?? '', grupo: product.grupo ?? -1, subgrupo: product.subgrupo ?? -1 },
  };
}

export function ceilingFor(product: ProductDoc, ctx: CartContext): LineCeiling | null {
  const line = engineLine(product, ctx);
  return line ? lineCeiling(line, ctx.ceilings, ctx.rules) : null;
}

/** A new line for a product: quantity 1 and the discount the best matching rule pre-fills. */
export function newLine(product: ProductDoc, ctx: CartContext): CartLineInput {
  const ceiling = ceilingFor(product, ctx);
  const prefill = ceiling?.prefillPercent ?? 0;
  return { idProduto: Number(product.id), quantidade: '1', desconto: toInputText(prefill) };
}

export function previewLine(input: CartLineInput, product: ProductDoc | null, ctx: CartContext): LinePreview {
  const base: LinePreview = {
    input,
    product,
    listPrice: null,
    ceiling: null,
    quantity: null,
    discount: null,
    amounts: null,
    error: null,
    aboveCeiling: false,
    flex: null,
  };
  if (!product) return { ...base, error: 'Produto não encontrado neste aparelho. Remova a linha.' };
  if (!product.active) return { ...base, product, error: 'Produto inativo no ERP. Remova a linha.' };
  const listPrice = priceOn(product, ctx.idPauta);
  if (listPrice === null) return { ...base, error: 'Produto sem preço na pauta do cliente. Remova a linha.' };
  const ceiling = ceilingFor(product, ctx);
  const quantity = parseDecimal(input.quantidade);
  const discount = parseDecimal(input.desconto === '' ? '0' : input.desconto);
  const out: LinePreview = { ...base, listPrice, ceiling };
  if (
    quantity === null ||
    !Number.isFinite(quantity) ||
    quantity <= 0 ||
    quantity > 1_000_000 ||
    !hasAtMostPlaces(quantity, 3)
  )
    return { ...out, error: 'Informe uma quantidade maior que zero, com até 3 casas decimais.' };
  if (
    discount === null ||
    !Number.isFinite(discount) ||
    discount < -100 ||
    discount > 100 ||
    !hasAtMostPlaces(discount, 2)
  )
    return {
      ...out,
      quantity,
      error: 'O desconto deve ficar entre -100% (acréscimo) e 100%, com até 2 casas decimais.',
    };
  const amounts = lineAmounts(listPrice, quantity, discount);
  const withAmounts = { ...out, quantity, discount, amounts };
  if (!ceiling) return withAmounts;
  const policy = ctx.flex ?? FLEX_OFF;
  // The same check the server makes when the order arrives (shared/src/discount-engine.ts).
  const check = checkLineDiscount(discount, ceiling, policy.maxBeyondCeilingPoints);
  if (!check.ok && check.code === 'DISCOUNT_ABOVE_CEILING') {
    const past = `Desconto de ${formatPercent(discount)} acima do ${describeCeiling(ceiling)}`;
    return {
      ...withAmounts,
      aboveCeiling: true,
      error:
        check.maxBeyondPoints > 0 ? `${past}: máximo de ${formatPercent(check.maxPercent)} com o flex.` : `${past}.`,
    };
  }
  const flex = lineFlex(
    { listPrice, quantity, discountPercent: discount, ceilingPercent: ceiling.ceilingPercent },
    policy,
  );
  return { ...withAmounts, flex };
}

/** Where a line's ceiling comes from, in the words a representative uses. */
export function ceilingSourceText(c: LineCeiling): string {
  switch (c.source) {
    case 'rule':
      return `regra "${c.rule?.descricao ?? ''}"`;
    case 'category':
      return 'seu teto para a categoria do produto';
    case 'representative':
      return 'seu teto padrão';
    case 'default':
      return 'teto padrão da empresa';
  }
}

/** What a line adds to or takes from the flex balance, in pt-BR; null when neither. */
export function lineFlexText(l: LinePreview): string | null {
  if (!l.flex || !l.ceiling || l.discount === null) return null;
  if (l.flex.spent > 0) {
    return (
      `Usa ${formatMoney(l.flex.spent)} do saldo flex: ${formatPercent(l.discount)} passa o teto de ` +
      `${formatPercent(l.ceiling.ceilingPercent)} (${ceilingSourceText(l.ceiling)}).`
    );
  }
  if (l.flex.earned > 0) return `+${formatMoney(l.flex.earned)} no saldo flex quando o pedido for aprovado.`;
  return null;
}

export interface CartFlex {
  /** What the order earns (counted when it is approved) and spends (reserved when it arrives). */
  earned: number;
  spent: number;
  /** The synced balance; null before the device holds one (the server decides). */
  balance: number | null;
  /** What the outbox's orders, not yet on the server, already take from it. */
  reserved: number;
  /** The balance less the outbox's orders: what this order may spend. */
  available: number | null;
  /** The available balance after this order; null when unknown. */
  after: number | null;
  /** Whether the available balance covers the order; null when unknown. */
  covered: boolean | null;
}

/** Whether the tenant runs flex at all: with it off the cart says nothing of a balance. */
export const flexOn = (policy: FlexPolicy | undefined) =>
  !!policy && (policy.creditSharePercent > 0 || policy.maxBeyondCeilingPoints > 0);

/**
 * The order's flex against the balance this device holds, less what its queued orders spend
 * (the server reserves theirs first). What the order earns never pays for its own lines.
 */
export function cartFlex(lines: readonly LinePreview[], balance: number | null, reserved: number): CartFlex {
  const earned = sumMoney(lines.map((l) => l.flex?.earned ?? 0));
  const spent = sumMoney(lines.map((l) => l.flex?.spent ?? 0));
  const available = balance === null ? null : subtractMoney(balance, reserved);
  return {
    earned,
    spent,
    balance,
    reserved,
    available,
    after: available === null ? null : subtractMoney(available, spent),
    // An order that spends nothing needs no balance, whatever the queue took of it.
    covered: available === null ? null : spent === 0 || spent <= available,
  };
}

/** What the outbox's orders spend of the flex balance, priced as the cart prices them. */
export function queuedFlexSpent(q: QueuedOrders, ctx: CartContext): number {
  const spent: number[] = [];
  for (const { draft } of q.drafts) {
    const draftCtx = { ...ctx, idPauta: pautaOfDraft(q, draft) };
    for (const line of linesOfDraft(draft)) {
      spent.push(previewLine(line, q.products.get(String(line.idProduto)) ?? null, draftCtx).flex?.spent ?? 0);
    }
  }
  return sumMoney(spent);
}

/** Why the order cannot be queued for its flex, in pt-BR; null when it can (or the server decides). */
export function flexRefusal(f: CartFlex): string | null {
  if (f.covered !== false || f.available === null) return null;
  const queued = f.reserved > 0 ? ` (${formatMoney(f.reserved)} já reservados por pedidos na fila)` : '';
  return (
    `O saldo flex não cobre este pedido: ele usa ${formatMoney(f.spent)} e o saldo disponível é ` +
    `${formatMoney(f.available)}${queued}. Reduza os descontos acima do teto.`
  );
}

export interface CartCredit {
  /** "Limite disponível R$ 4.210,00 · este pedido R$ 5.300,00" */
  line: string;
  /** What the tenant's policy makes of an order beyond it; null within it or under `ignore`. */
  warning: string | null;
  beyond: boolean;
}

/**
 * The order against the client's available credit as the device knows it. Under `block` the
 * cart warns but still queues: the server judges on today's figures, which may differ
 * (docs/credit-and-flex.md, "On the phone").
 */
export function cartCredit(credit: DeviceCredit | null, orderTotal: number, policy: CreditPolicy): CartCredit | null {
  if (!credit) return null;
  const total = round2(orderTotal);
  const line = `Limite disponível ${formatMoney(credit.available)} · este pedido ${formatMoney(total)}`;
  const beyond = total > credit.available;
  if (!beyond || policy === 'ignore') return { line, warning: null, beyond };
  const excess = `Este pedido passa ${formatMoney(subtractMoney(total, credit.available))} do crédito disponível do cliente`;
  return {
    line,
    beyond,
    warning:
      policy === 'flag'
        ? `${excess}: vai para o aprovador marcado como acima do crédito.`
        : `${excess}: a empresa bloqueia pedidos acima do crédito, e o servidor deve recusá-lo se os números de hoje forem os mesmos.`,
  };
}

/**
 * The server's reasons about a line of a refused order, matched by product (the cart holds a
 * product once; a reason's `line` is its position in the draft, which removing a line shifts).
 * A reason about the discount stands until the discount changes: a rule deleted on the server
 * may still be on this device, so the local check alone could pass it. Once the discount
 * changes, the local check (same engine) speaks instead.
 */
export function serverReasonsFor(reasons: readonly SyncOrderReason[], l: LinePreview): SyncOrderReason[] {
  return reasons.filter(
    (r) =>
      r.idProduto === l.input.idProduto &&
      (r.code === 'DISCOUNT_ABOVE_CEILING'
        ? r.descontoPercent === l.discount && !l.aboveCeiling
        : r.code === 'FLEX_BALANCE_INSUFFICIENT'
          ? r.descontoPercent === l.discount
          : true),
  );
}

export function cartTotals(lines: readonly LinePreview[]) {
  return orderTotals(lines.flatMap((l) => (l.amounts ? [l.amounts] : [])));
}

/** Why a client cannot receive an order, in pt-BR; null when it can. */
export function clientBlockReason(client: Pick<ClientDoc, 'financialStatus' | 'idPauta'>): string | null {
  if (client.financialStatus === 'blocked') return 'Bloqueado no financeiro: não pode receber pedidos.';
  if (client.idPauta === null || client.idPauta === undefined) return 'Sem pauta de preços: fale com o escritório.';
  return null;
}

/**
 * The payment terms the client may buy on: the company's active terms (ajustes 'empresa'),
 * narrowed to the client's own list where the ERP restricts it.
 */
export function allowedTerms(
  terms: readonly PaymentTerm[],
  client: Pick<ClientDoc, 'paymentTermIds'> | null,
): PaymentTerm[] {
  const only = client?.paymentTermIds;
  return only ? terms.filter((t) => only.includes(t.id)) : [...terms];
}

/** The term the cart starts with: the one chosen, else the client's default when it is allowed. */
export function chosenTerm(
  allowed: readonly PaymentTerm[],
  client: Pick<ClientDoc, 'paymentTermId'> | null,
  chosen: number | null,
): PaymentTerm | null {
  const id = chosen ?? client?.paymentTermId ?? null;
  return allowed.find((t) => t.id === id) ?? null;
}

export interface CartForm {
  client: ClientDoc | null;
  endEntrega: string;
  observacao: string;
  lines: readonly LinePreview[];
  /**
   * The payment term chosen, and the terms the client may use: when this device knows none
   * (a company document from before terms), the order goes without and the server applies the
   * client's default.
   */
  payment?: { chosen: PaymentTerm | null; allowed: readonly PaymentTerm[] };
  /** The order's flex against the balance; a balance known not to cover it stops the order. */
  flex?: CartFlex | null;
}

export type DraftResult = { ok: true; draft: OrderCreate } | { ok: false; errors: string[] };

/**
 * The body of POST /orders from the cart, validated with the shared contract, or every
 * problem in pt-BR: the order is never queued with something the cart already knows is wrong.
 */
export function draftOf(form: CartForm): DraftResult {
  const errors: string[] = [];
  if (!form.client) errors.push('Escolha o cliente.');
  else {
    const blocked = clientBlockReason(form.client);
    if (blocked) errors.push(`Este cliente não pode receber pedidos. ${blocked}`);
  }
  if (form.lines.length === 0) errors.push('Adicione pelo menos um produto.');
  form.lines.forEach((l, i) => {
    if (l.error) errors.push(`Linha ${i + 1} (${l.product?.description ?? l.input.idProduto}): ${l.error}`);
  });
  const endEntrega = form.endEntrega.trim();
  // The server refuses NO_DELIVERY_ADDRESS too: approval would write the address into the ERP.
  if (form.client && endEntrega === '')
    errors.push('Informe o endereço de entrega: o cliente não tem endereço no cadastro do ERP.');
  if (endEntrega !== '' && endEntrega.length < 5)
    errors.push('O endereço de entrega precisa de pelo menos 5 caracteres.');
  if (endEntrega.length > 200) errors.push('O endereço de entrega pode ter até 200 caracteres.');
  if (form.observacao.trim().length > 500) errors.push('A observação pode ter até 500 caracteres.');
  const flexWrong = form.flex ? flexRefusal(form.flex) : null;
  if (flexWrong) errors.push(flexWrong);
  const term = form.payment?.chosen ?? null;
  if (form.client && !term && form.payment?.allowed.length) errors.push('Escolha a condição de pagamento.');
  if (errors.length || !form.client) return { ok: false, errors };
  const body = {
    idCliente: Number(form.client.id),
    ...(term ? { idCondicao: term.id } : {}),
    ...(endEntrega ? { endEntrega } : {}),
    ...(form.observacao.trim() ? { observacao: form.observacao.trim() } : {}),
    itens: form.lines.map((l) => ({
      idProduto: l.input.idProduto,
      quantidade: l.quantity as number,
      descontoPercent: l.discount as number,
    })),
  };
  const parsed = ZOrderCreate.safeParse(body);
  if (!parsed.success)
    return { ok: false, errors: parsed.error.issues.map((i) => `${i.path.join('.') || 'pedido'}: ${i.message}`) };
  return { ok: true, draft: parsed.data };
}

/** The cart lines of a queued or refused draft, to correct it. */
export function linesOfDraft(draft: OrderCreate): CartLineInput[] {
  return draft.itens.map((i) => ({
    idProduto: i.idProduto,
    quantidade: toInputText(i.quantidade),
    desconto: toInputText(i.descontoPercent),
  }));
}
