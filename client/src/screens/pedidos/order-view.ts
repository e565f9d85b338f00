// One shape for an order on screen, in print and in the PDF, whether the server holds it (its
// lines carry the snapshot the server stored) or it is still a draft on the device (priced here
// with the shared engine, as a preview).
import type { Order, OrderCreate } from '@campo/shared';
import { clientDisplayName } from '@campo/shared/format';
import { useCompany } from '../../data/company.ts';
import type { OutboxEntry } from '../../db/outbox.ts';
import type { ClientDoc } from '../../db/schemas.ts';
import { cartTotals, linesOfDraft, previewLine } from './cart-model.ts';
import { useCartContext, useClients, useProducts } from './data.ts';

export interface ShownLine {
  seq: number;
  idProduto: number;
  code: string;
  description: string;
  unit: string | null;
  quantity: number | null;
  listPrice: number | null;
  discountPercent: number | null;
  unitPrice: number | null;
  total: number | null;
  ceilingPercent: number | null;
  rule: string | null;
}

export interface ShownOrder {
  /** True while the server does not hold it: prices and totals are this device's preview. */
  preview: boolean;
  clientName: string;
  clientDocument: string | null;
  address: string | null;
  observacao: string | null;
  idPauta: number | null;
  /** The payment term by name; null on an order placed before terms existed. */
  paymentTerm: string | null;
  lines: ShownLine[];
  totals: { gross: number; discount: number; total: number };
}

/**
 * The order as the server holds it. `client`, the portfolio's record when the device has it,
 * names the client by the one rule (trade name first) even on an order stored before the
 * server copied names that way.
 */
export function fromServer(order: Order, client?: ClientDoc): ShownOrder {
  return {
    preview: false,
    clientName: (client && clientDisplayName(client)) || order.nomeCliente,
    clientDocument: order.cnpjCpfCliente,
    address: order.endEntrega,
    observacao: order.observacao,
    idPauta: order.idPauta,
    paymentTerm: order.condicaoPagamento?.descricao ?? null,
    lines: order.itens.map((l) => ({
      seq: l.seq,
      idProduto: l.idProduto,
      code: l.codProduto,
      description: l.descricao,
      unit: null,
      quantity: l.quantidade,
      listPrice: l.precoTabela,
      discountPercent: l.descontoPercent,
      unitPrice: l.precoUnitario,
      total: l.valorTotal,
      ceilingPercent: l.tetoPercent,
      rule: l.regra?.descricao ?? null,
    })),
    totals: { gross: order.valorBruto, discount: order.valorDesconto, total: order.valorTotal },
  };
}

/** The order of an outbox entry, priced on this device when it is still a draft. */
export function useShownOrder(entry: OutboxEntry | null | undefined): ShownOrder | null {
  const draft: OrderCreate | null = entry && !entry.order ? entry.draft : null;
  const idCliente = entry?.order?.idCliente ?? entry?.draft?.idCliente;
  const clients = useClients(idCliente !== undefined ? [String(idCliente)] : []);
  const products = useProducts(draft ? draft.itens.map((i) => String(i.idProduto)) : []);
  const client = idCliente !== undefined ? clients.get(String(idCliente)) : undefined;
  const idPauta = draft?.idPauta ?? client?.idPauta ?? null;
  const { ctx } = useCartContext(idPauta);
  const terms = useCompany()?.paymentTerms ?? [];
  if (!entry) return null;
  if (entry.order) return fromServer(entry.order, client);
  if (!draft) return null;
  const previews = linesOfDraft(draft).map((l) => previewLine(l, products.get(String(l.idProduto)) ?? null, ctx));
  return {
    preview: true,
    clientName: (client && clientDisplayName(client)) || `Cliente ${draft.idCliente}`,
    clientDocument: client?.document ?? null,
    address: draft.endEntrega ?? client?.deliveryAddress ?? null,
    observacao: draft.observacao ?? null,
    idPauta,
    // A draft without a term (queued before terms) gets the client's default on the server.
    paymentTerm:
      terms.find((t) => t.id === (draft.idCondicao ?? client?.paymentTermId))?.descricao ??
      (draft.idCondicao === undefined ? 'Padrão do cliente' : `Condição ${draft.idCondicao}`),
    lines: previews.map((p, i) => ({
      seq: i + 1,
      idProduto: p.input.idProduto,
      code: p.product?.code ?? String(p.input.idProduto),
      description: p.product?.description ?? `Produto ${p.input.idProduto}`,
      unit: p.product?.unit ?? null,
      quantity: p.quantity,
      listPrice: p.listPrice,
      discountPercent: p.discount,
      unitPrice: p.amounts?.unitPrice ?? null,
      total: p.amounts?.total ?? null,
      ceilingPercent: p.ceiling?.ceilingPercent ?? null,
      rule: p.ceiling?.rule?.descricao ?? null,
    })),
    totals: cartTotals(previews),
  };
}
