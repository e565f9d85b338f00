// The cart's arithmetic and checks, kept pure so they can be tested without a browser. Every
// ceiling, pre-fill and total comes from the shared engine (discount-engine.ts, orders.ts): the
// server runs the same code when the order arrives, so what the cart shows is what it decides,
// unless a rule or ceiling changed on the server meanwhile.
import {
  type CartLineContext,
  checkLineDiscount,
  type DiscountRule,
  describeCeiling,
  type LineCeiling,
  lineAmounts,
  lineCeiling,
  type OrderCreate,
  orderTotals,
  type PaymentTerm,
  type RepresentativeCeilings,
  ruleFromDocument,
  ZOrderCreate,
} from '@campo/shared';
import type { ClientDoc, ProductDoc, RuleDoc, SettingsDoc } from '../../db/schemas.ts';
import { formatPercent, parseDecimal, toInputText } from '../../kit/order-format.ts';

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

const hasPlaces = (n: number, places: number) => {
  const f = 10 ** places;
  return Math.abs(n * f - Math.round(n * f)) < 1e-6;
};

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
    !hasPlaces(quantity, 3)
  )
    return { ...out, error: 'Informe uma quantidade maior que zero, com até 3 casas decimais.' };
  if (discount === null || !Number.isFinite(discount) || discount < 0 || discount > 100 || !hasPlaces(discount, 2))
    return { ...out, quantity, error: 'O desconto deve ficar entre 0 e 100%, com até 2 casas decimais.' };
  const amounts = lineAmounts(listPrice, quantity, discount);
  const withAmounts = { ...out, quantity, discount, amounts };
  if (ceiling) {
    const check = checkLineDiscount(discount, ceiling);
    if (!check.ok)
      return {
        ...withAmounts,
        aboveCeiling: true,
        error: `Desconto de ${formatPercent(discount)} acima do ${describeCeiling(ceiling)}.`,
      };
  }
  return withAmounts;
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
