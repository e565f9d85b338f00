// Orders: the contracts of POST/GET /orders and of the approval routes, and the pure rules
// both sides share (status mapping, line and order totals), so the cart shows exactly the
// totals the server will store.
import { z } from 'zod';
import { ORDER_REASON_CODES, pickCodes } from './errors.ts';
import { ORDER_INVOICES_MAX, ZOrderInvoice } from './invoices.ts';
import { amountCents, cents, fromCents, fromUnits, PRICE_SCALE, priceUnits, toUnits } from './money.ts';

export const ORDER_STATUSES = ['pending_approval', 'approved', 'invoiced', 'rejected', 'cancelled'] as const;
export const ZOrderStatus = z
  .enum(ORDER_STATUSES)
  .describe(
    'pending_approval (situa 1), approved (2), invoiced (3, from the ERP), rejected (4), cancelled (5, from the ERP: its order cancelled or deleted there)',
  );
export type OrderStatus = z.infer<typeof ZOrderStatus>;

/** situa in app.pedidos ↔ the API's status. */
export const SITUA: Record<OrderStatus, 1 | 2 | 3 | 4 | 5> = {
  pending_approval: 1,
  approved: 2,
  invoiced: 3,
  rejected: 4,
  cancelled: 5,
};
/** The status in pt-BR, for text people read (the API's `status` stays the English code). */
export const ORDER_STATUS_LABEL: Record<OrderStatus, string> = {
  pending_approval: 'pendente de aprovação',
  approved: 'aprovado',
  invoiced: 'faturado',
  rejected: 'rejeitado',
  cancelled: 'cancelado no ERP',
};

export function statusOfSitua(situa: number): OrderStatus {
  const found = ORDER_STATUSES.find((s) => SITUA[s] === situa);
  if (!found) throw new Error(`unknown situa ${situa}`);
  return found;
}

// Where they lived before money.ts: callers importing them from here keep working.
export { round2, round4 } from './money.ts';

/**
 * Sold unit price (4 decimals, as the ERP stores it), the line's gross at the list price and
 * its total (2 decimals), each rounded once, half away from zero, in exact decimals (money.ts,
 * docs/money.md): the same digits SQL's round() gives on the ERP's numeric columns.
 */
export function lineAmounts(listPrice: number, quantity: number, discountPercent: number) {
  const unit = priceUnits(listPrice, discountPercent);
  const gross = amountCents(toUnits(listPrice, PRICE_SCALE), quantity);
  const total = amountCents(unit, quantity);
  return {
    unitPrice: fromUnits(unit, PRICE_SCALE),
    gross: fromCents(gross),
    total: fromCents(total),
    discount: fromCents(gross - total),
  };
}

/** The order's gross and total: its lines' added in centavos (no rounding of its own). */
export function orderTotals(lines: { gross: number; total: number }[]) {
  const gross = lines.reduce((s, l) => s + cents(l.gross), 0n);
  const total = lines.reduce((s, l) => s + cents(l.total), 0n);
  return { gross: fromCents(gross), total: fromCents(total), discount: fromCents(gross - total) };
}

/** Idempotency-Key: a UUID or another opaque token, optionally as a quoted sf-string. */
export const IDEMPOTENCY_KEY = /^"?([A-Za-z0-9][A-Za-z0-9_.:-]{7,127})"?$/;

export const ZOrderLineInput = z
  .object({
    idProduto: z.number().int().positive().max(2_147_483_647).describe('Product id (vw_produtos.id_produto)'),
    quantidade: z
      .number()
      .positive()
      .max(1_000_000)
      .multipleOf(0.001)
      .describe('Quantity in the product unit, up to 3 decimals'),
    descontoPercent: z
      .number()
      .min(-100)
      .max(100)
      .multipleOf(0.01)
      .default(0)
      .describe(
        'Discount on the list price, percent with up to 2 decimals; negative sells above the list (an acréscimo, which earns flex); at most the line ceiling, or beyond it within the flex maximum while the flex balance covers it',
      ),
  })
  .strict()
  .describe('One order line as the representative entered it; prices come from the server');

export const ZOrderCreate = z
  .object({
    idCliente: z
      .number()
      .int()
      .positive()
      .max(2_147_483_647)
      .describe("Client (ERP corrent id) of the representative's portfolio"),
    idPauta: z
      .number()
      .int()
      .positive()
      .max(2_147_483_647)
      .optional()
      .describe("Price list; defaults to the client's own. Rules are matched by this pauta"),
    endEntrega: z
      .string()
      .trim()
      .min(5)
      .max(200)
      .optional()
      .describe(
        "Delivery address; defaults to the client's address. Required when the client has none in the ERP (no street or no city): without it the order is refused with NO_DELIVERY_ADDRESS",
      ),
    observacao: z.string().trim().max(500).optional().describe('Free note for the order, sent to the ERP'),
    idCondicao: z
      .number()
      .int()
      .positive()
      .max(2_147_483_647)
      .optional()
      .describe(
        "Payment term (vw_condicoes_pagamento.id_condicao); defaults to the client's own. Must be active and, when the ERP restricts the client's terms, one of them (PAYMENT_TERM_NOT_ALLOWED); without it and without a default the order carries none and the ERP applies its own (the app always asks for one)",
      ),
    itens: z
      .array(ZOrderLineInput)
      .min(1)
      .max(300)
      .refine((items) => new Set(items.map((i) => i.idProduto)).size === items.length, {
        message: 'um produto aparece em mais de uma linha',
      })
      .describe('The lines, 1 to 300, each product once'),
  })
  .strict()
  .describe('A new order. Identity, prices, ceilings and totals are the server’s: any such field sent is refused.');
export type OrderCreate = z.infer<typeof ZOrderCreate>;

const ZRuleRef = z
  .object({
    id: z.number().int().describe('Discount rule id'),
    descricao: z.string().describe('Discount rule description'),
  })
  .describe('A discount rule, by id and description');

/** The figures an order beyond the client's available credit is refused with (CREDIT_LIMIT_EXCEEDED). */
export const ZCreditRefusal = z
  .object({
    limit: z.number().describe("The client's credit limit, in BRL"),
    openReceivables: z.number().describe("The client's open receivables in the ERP, in BRL"),
    openOrders: z.number().describe("The client's Campo orders pending approval or approved, in BRL"),
    orderTotal: z.number().describe("This order's total, in BRL"),
    available: z.number().describe('What was available: limit less the open amounts (may be negative), in BRL'),
  })
  .describe("The client's credit when the server judged the order");

/** Why an order is refused: codes of the one list (errors.ts), two of them also a problem's. */
export const REFUSAL_CODES = [
  ...pickCodes('CLIENT_NOT_IN_PORTFOLIO', 'PRICE_LIST_NOT_FOUND', 'FLEX_BALANCE_INSUFFICIENT'),
  ...ORDER_REASON_CODES,
] as const;
export const ZFlexRefusal = z
  .object({
    saldo: z.number().describe("The representative's flex balance now, BRL"),
    necessario: z.number().describe('What the whole order needed from it, BRL'),
    linha: z.number().describe('What this line needed from it, BRL'),
  })
  .describe('Why the flex balance did not cover the order: the balance now and what it needed');

export const ZRefusalReason = z
  .object({
    code: z.enum(REFUSAL_CODES).describe('Why: a stable code the app can act on'),
    message: z.string().describe('The reason in plain pt-BR, naming the line, the discount, the ceiling and the rule'),
    line: z.number().int().optional().describe('1-based position of the refused line in itens, when a line is refused'),
    idProduto: z.number().int().optional().describe('Product of the refused line'),
    descontoPercent: z.number().optional().describe('The discount asked'),
    tetoPercent: z.number().optional().describe('The ceiling that applied'),
    regra: ZRuleRef.nullable()
      .optional()
      .describe('The discount rule that set the ceiling, or null when the base ceiling applied'),
    credit: ZCreditRefusal.optional().describe('The credit figures, when the reason is CREDIT_LIMIT_EXCEEDED'),
    flex: ZFlexRefusal.optional().describe('The flex figures, when the reason is FLEX_BALANCE_INSUFFICIENT'),
  })
  .describe('One reason an order was refused');
export type RefusalReason = z.infer<typeof ZRefusalReason>;

export const ZOrderLine = z
  .object({
    seq: z.number().int().describe('Line number, from 1'),
    idProduto: z.number().int().describe('Product id'),
    codProduto: z.string().describe('Product code'),
    descricao: z.string().describe('Product description at order time'),
    categoria: z.string().nullable().describe('productCategory at order time'),
    quantidade: z.number().describe('Quantity'),
    precoTabela: z.number().describe('List price on the pauta at order time'),
    precoUnitario: z.number().describe('Sold unit price: list price less the discount'),
    descontoPercent: z.number().describe('Discount given, percent'),
    tetoPercent: z.number().nullable().describe('The ceiling the line was checked against'),
    regra: ZRuleRef.nullable().describe('The rule that set the ceiling, when one did'),
    idPauta: z.number().int().nullable().describe('Price list of the line'),
    valorTotal: z.number().describe('Line total'),
    flexGerado: z
      .number()
      .optional()
      .describe('What the line earns for the flex balance at approval, BRL (absent in answers from before flex)'),
    flexUsado: z
      .number()
      .optional()
      .describe(
        'What the line took from the flex balance, beyond its ceiling, BRL (absent in answers from before flex)',
      ),
  })
  .describe('An order line with its snapshot');

export const ZPaymentTerm = z
  .object({
    id: z.number().int().describe('Payment term id (vw_condicoes_pagamento.id_condicao)'),
    descricao: z.string().describe("How the ERP names it: 'À vista', '28/35/42 dias'"),
  })
  .describe('A payment term (condição de pagamento)');
export type PaymentTerm = z.infer<typeof ZPaymentTerm>;

export const ZOrderHistoryEntry = z
  .object({
    de: ZOrderStatus.nullable().describe('Status before; null when the order was created'),
    para: ZOrderStatus.describe('Status after'),
    usuario: z.string().describe('Who made the change (login), or "erp" for invoicing'),
    nomeUsuario: z
      .string()
      .nullable()
      .optional()
      .describe(
        'The name of who made the change, for people to read; null for the ERP or a login that no longer exists',
      ),
    motivo: z.string().nullable().describe('Reason, for rejections'),
    em: z.string().describe('When (ISO 8601)'),
  })
  .describe('A status change');

/** The client's credit as the server judged the order when it arrived (docs/credit-and-flex.md). */
export const ZOrderCredit = z
  .object({
    limit: z.number().describe("The client's credit limit when the order arrived, in BRL"),
    open: z
      .number()
      .describe('What the client owed then: open receivables plus Campo orders pending or approved, in BRL'),
    available: z.number().describe('Limit less the open amount, before this order (may be negative), in BRL'),
    exceeded: z
      .boolean()
      .describe("Whether the order went beyond the available credit (accepted under the 'flag' or 'ignore' policy)"),
  })
  .nullable()
  .optional()
  .describe(
    "The client's credit as the server judged the order when it arrived; null when the client had no limit (no check). Absent on answers stored before credit was checked",
  );

export const ZOrderSummary = z
  .object({
    id: z.number().int().describe('Order id'),
    numPedSar: z.number().int().describe('Order number assigned by Campo, per tenant'),
    status: ZOrderStatus,
    codVendedor: z.number().int().describe('Representative'),
    idCliente: z.number().int().describe('Client'),
    nomeCliente: z.string().describe('Client name copied at creation'),
    valorTotal: z.number().describe('Order total'),
    criadoEm: z.string().describe('When the order reached the server (ISO 8601)'),
    // In the list too: the approval queue marks an order beyond the client's credit.
    credit: ZOrderCredit,
  })
  .describe('An order in a list');
export type OrderSummary = z.infer<typeof ZOrderSummary>;

export const ZOrder = ZOrderSummary.extend({
  cnpjCpfCliente: z.string().nullable().describe('Client document copied at creation'),
  endEntrega: z.string().nullable().describe('Delivery address copied at creation'),
  idPauta: z.number().int().nullable().describe('Price list of the order'),
  observacao: z.string().nullable().describe('Note'),
  condicaoPagamento: ZPaymentTerm.nullable().describe(
    'The payment term the order was placed on, as named at creation; null on orders placed before terms existed',
  ),
  valorBruto: z.number().describe('Sum of list price × quantity'),
  valorDesconto: z.number().describe('Bruto less total'),
  motivoRejeicao: z.string().nullable().describe('Why it was rejected'),
  decididoPor: z.string().nullable().describe('Who approved or rejected it (login)'),
  nomeDecididoPor: z
    .string()
    .nullable()
    .optional()
    .describe('The name of who approved or rejected it, for people to read; null while pending'),
  decididoEm: z.string().nullable().describe('When it was approved or rejected'),
  erpIdPedido: z
    .number()
    .int()
    .nullable()
    .describe(
      "The ERP's internal key (pedidos_venda.id_pedido) of the order created on approval; never shown to people",
    ),
  numPedidoErp: z
    .number()
    .int()
    .nullable()
    .describe(
      "The ERP's order number (pedidos_venda.num_pedido), the one the ERP's screens and SAC tickets use: the number to show for the replicated order; null until approved",
    ),
  erpSituacao: z
    .enum(['aberto', 'faturado', 'cancelado'])
    .nullable()
    .describe("The ERP order's situation (vw_sitpedido), once replicated"),
  itens: z.array(ZOrderLine).describe('The lines'),
  historico: z.array(ZOrderHistoryEntry).describe('Status history, oldest first'),
}).describe('An order with its lines and history');
export type Order = z.infer<typeof ZOrder>;

/**
 * GET /orders/{id}: the order with what the ERP invoiced of it. Only this answer carries the
 * invoices (a device reads them from the replicated order once the store carries them).
 */
export const ZOrderDetail = ZOrder.extend({
  itens: z
    .array(
      ZOrderLine.extend({
        quantidadeFaturada: z
          .number()
          .nullable()
          .describe(
            "Quantity of the line on the order's non-cancelled invoices (matched by product, lines in order); null when unknown: the ERP keeps no invoice lines",
          ),
        quantidadeAberta: z
          .number()
          .nullable()
          .describe('Quantity not yet invoiced: ordered less invoiced, never below 0; null when unknown, as above'),
      }),
    )
    .describe('The lines, with what was invoiced of each'),
  invoices: z
    .array(ZOrderInvoice)
    .max(ORDER_INVOICES_MAX)
    .describe(
      `The ERP's invoices of the order, cancelled ones included and marked, oldest first (at most ${ORDER_INVOICES_MAX}); empty until the ERP invoices it`,
    ),
}).describe('An order with its lines, history and invoices');
export type OrderDetail = z.infer<typeof ZOrderDetail>;

export const ZOrderReject = z
  .object({
    motivo: z.string().trim().min(3).max(500).describe('Why the order is rejected (shown to the representative)'),
  })
  .strict()
  .describe('A rejection');
