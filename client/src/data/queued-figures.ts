// The figures of the orders waiting in this device's outbox (queued, or sent and not yet
// answered): the server has not counted them yet, neither in a client's open orders nor
// against the representative's flex balance, so the cart and the client page take them off
// the figures they show (docs/credit-and-flex.md, "On the phone"). Pure: queued-orders.ts
// reads them from the store.
import { availableCredit, lineAmounts, type OrderCreate, sumMoney } from '@campo/shared';
import type { ClientDoc, ProductDoc } from '../db/schemas.ts';

export interface QueuedOrders {
  drafts: { id: string; draft: OrderCreate }[];
  /** The products the drafts name, by id. */
  products: ReadonlyMap<string, ProductDoc>;
  /** The clients the drafts are for, by id. */
  clients: ReadonlyMap<string, ClientDoc>;
}

export const NO_QUEUED: QueuedOrders = { drafts: [], products: new Map(), clients: new Map() };

/** The price list a draft is priced on: its own, else its client's. */
export function pautaOfDraft(q: QueuedOrders, draft: OrderCreate): number | null {
  return draft.idPauta ?? q.clients.get(String(draft.idCliente))?.idPauta ?? null;
}

/**
 * What the client's drafts in the outbox add up to, on this device's prices (as the order view
 * previews them); a line whose product or price the device lacks counts nothing.
 */
export function queuedTotalFor(q: QueuedOrders, idCliente: number): number {
  const totals: number[] = [];
  for (const { draft } of q.drafts) {
    if (draft.idCliente !== idCliente) continue;
    const idPauta = pautaOfDraft(q, draft);
    for (const item of draft.itens) {
      const price = q.products.get(String(item.idProduto))?.prices?.find((p) => p.idPauta === idPauta)?.price;
      if (price !== undefined) totals.push(lineAmounts(price, item.quantidade, item.descontoPercent).total);
    }
  }
  return sumMoney(totals);
}

export interface DeviceCredit {
  limit: number;
  /** Open titles in the ERP, as the client's document last brought them. */
  openReceivables: number;
  /** The client's Campo orders the server holds open (every representative's). */
  openOrders: number;
  /** This device's orders for the client the server has not counted yet. */
  queued: number;
  /** limit − the three; negative when already beyond. */
  available: number;
}

/**
 * The client's available credit as this device can know it, offline: the document's figures
 * less the outbox's orders for the client. Null when the client has no limit (no check).
 */
export function deviceCredit(
  client: Pick<ClientDoc, 'creditLimit' | 'openReceivables' | 'openOrders'>,
  queued: number,
): DeviceCredit | null {
  if (client.creditLimit === null || client.creditLimit === undefined) return null;
  // Absent only from a document an older server sent: nothing known open.
  const openReceivables = client.openReceivables ?? 0;
  const openOrders = client.openOrders ?? 0;
  const available = availableCredit({
    limit: client.creditLimit,
    openReceivables,
    openOrders: sumMoney([openOrders, queued]),
  });
  return { limit: client.creditLimit, openReceivables, openOrders, queued, available: available ?? 0 };
}
