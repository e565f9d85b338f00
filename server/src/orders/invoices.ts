// What the ERP invoiced of an order, for GET /orders/{id}: its invoices (cancelled ones kept
// and marked, so that a number the client quotes is recognised) and, per line, the quantity
// invoiced and still open. An order may be invoiced over several invoices; the ERP's
// invoice lines name products, not order lines, so each product's invoiced quantity fills
// the order's lines of that product in line order. Invoice lines are optional in the ERP
// contract (app.notas_itens_erp): an invoice always has lines, so one that counts and has
// none here means the ERP does not tell them, and what was invoiced of each line is then
// unknown (null), not zero.
import { ORDER_INVOICES_MAX, type Order, type OrderDetail } from '@campo/shared';
import type { Tx } from '../db/scope.ts';
import * as q from './queries.ts';

/** Quantities are numeric(14,3): rounded so that sums and differences come out exact. */
const qty = (n: number) => Math.round(n * 1000) / 1000;

export async function withInvoices(tx: Tx, idEmpresa: number, order: Order): Promise<OrderDetail> {
  const invoices =
    order.erpIdPedido === null ? [] : await q.selectOrderInvoices(tx, idEmpresa, order.erpIdPedido, ORDER_INVOICES_MAX);
  const lines = await q.selectInvoiceLines(
    tx,
    idEmpresa,
    invoices.flatMap((i) => (i.id_nota === null ? [] : [i.id_nota])),
  );
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
      itens: lines
        .filter((l) => l.id_nota === i.id_nota)
        .map((l) => ({
          idProduto: l.id_produto ?? 0,
          quantidade: Number(l.quantidade ?? 0),
          valor: Number(l.valor_total ?? 0),
        })),
    })),
  };
}
