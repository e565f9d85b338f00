// What the ERP invoiced of an order, for GET /orders/{id}: its invoices (cancelled ones kept
// and marked, so that a number the client quotes is recognised) and, per line, the quantity
// invoiced and still open. An order may be invoiced over several invoices; the ERP's
// invoice lines name products, not order lines, so each product's invoiced quantity fills
// the order's lines of that product in line order. Invoice lines are optional in the ERP
// contract (app.notas_itens_erp): an invoice always has lines, so one that counts and has
// none here means the ERP does not tell them, and what was invoiced of each line is then
// unknown (null), not zero.
import { ORDER_INVOICES_MAX, type Order, type OrderDetail, QUANTITY_SCALE, roundDecimal } from '@campo/shared';
import type { Tx } from '../db/scope.ts';
import * as q from './queries.ts';

/** Quantities are numeric(14,3): rounded by their digits so that sums and differences come out exact. */
const qty = (n: number) => roundDecimal(n, QUANTITY_SCALE);

export async function withInvoices(tx: Tx, idEmpresa: number, order: Order): Promise<OrderDetail> {
  return (await withInvoicesAll(tx, idEmpresa, [order]))[0] as OrderDetail;
}

/**
 * withInvoices for many orders in two reads (the pedidos documents of a refresh, a few
 * thousand orders at a time): the orders' invoices, at most ORDER_INVOICES_MAX each, and
 * their lines.
 */
export async function withInvoicesAll(tx: Tx, idEmpresa: number, orders: readonly Order[]): Promise<OrderDetail[]> {
  const erpIds = orders.flatMap((o) => (o.erpIdPedido === null ? [] : [o.erpIdPedido]));
  const invoices = erpIds.length === 0 ? [] : await q.selectOrdersInvoices(tx, idEmpresa, erpIds);
  const lines = await q.selectInvoiceLines(
    tx,
    idEmpresa,
    invoices.flatMap((i) => (i.id_nota === null ? [] : [i.id_nota])),
  );
  const byOrder = new Map<number, Invoice[]>();
  for (const i of invoices) {
    const list = byOrder.get(i.id_pedido as number) ?? [];
    if (list.length < ORDER_INVOICES_MAX) list.push(i);
    byOrder.set(i.id_pedido as number, list);
  }
  const linesOf = new Map<number | null, Line[]>();
  for (const l of lines) linesOf.set(l.id_nota, [...(linesOf.get(l.id_nota) ?? []), l]);
  return orders.map((o) => {
    const mine = o.erpIdPedido === null ? [] : (byOrder.get(o.erpIdPedido) ?? []);
    return detailOf(o, mine, linesOf);
  });
}

/** An order the ERP has not invoiced yet (just created, or approved in this transaction). */
export const notInvoiced = (order: Order): OrderDetail => detailOf(order, [], new Map());

type Invoice = Awaited<ReturnType<typeof q.selectOrdersInvoices>>[number];
type Line = Awaited<ReturnType<typeof q.selectInvoiceLines>>[number];

function detailOf(
  order: Order,
  invoices: readonly Invoice[],
  linesOf: ReadonlyMap<number | null, Line[]>,
): OrderDetail {
  const lines = invoices.flatMap((i) => linesOf.get(i.id_nota) ?? []);
  const cancelled = new Set(invoices.filter((i) => i.cancelada).map((i) => i.id_nota));
  const withLines = new Set(lines.map((l) => l.id_nota));
  const known = invoices.every((i) => i.cancelada || withLines.has(i.id_nota));
  const shipped = new Map<number, number>();
  for (const l of lines) {
    if (cancelled.has(l.id_nota) || l.id_produto === null) continue;
    shipped.set(l.id_produto, qty((shipped.get(l.id_produto) ?? 0) + Number(l.quantidade ?? 0)));
  }
  return {
    ...order,
    itens: order.itens.map((line) => {
      if (!known) return { ...line, quantidadeFaturada: null, quantidadeAberta: null };
      const left = shipped.get(line.idProduto) ?? 0;
      const invoiced = Math.min(left, line.quantidade);
      shipped.set(line.idProduto, qty(left - invoiced));
      return { ...line, quantidadeFaturada: invoiced, quantidadeAberta: qty(Math.max(line.quantidade - invoiced, 0)) };
    }),
    invoices: invoices.map((i) => ({
      numero: i.num_nota ?? 0,
      serie: i.serie ?? '',
      emissao: i.emissao,
      valor: Number(i.valor_total ?? 0),
      cancelada: i.cancelada === true,
      itens: (linesOf.get(i.id_nota) ?? []).map((l) => ({
        idProduto: l.id_produto ?? 0,
        quantidade: Number(l.quantidade ?? 0),
        valor: Number(l.valor_total ?? 0),
      })),
    })),
  };
}
