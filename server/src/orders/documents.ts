// Collection pedidos as documents: what a representative's devices hold of their orders
// (docs/sync.md). A leaf of the domain: the service, the push and the collection's definition
// read it; it reads only the domain's queries (and the flex ledger's moves, for the orders the
// ERP cancels).
import { type OrderDetail, SITUA, type SyncOrder } from '@campo/shared';
import { touchSqlDocuments } from '../changelog/changelog.ts';
import type { SyncDoc } from '../changelog/collection.ts';
import { portfolioDocuments } from '../clients/portfolio-documents.ts';
import type { Tx } from '../db/scope.ts';
import { releaseFlex, reverseFlexCredit } from '../flex/service.ts';
import { withInvoicesAll } from './invoices.ts';
import { loadOrders } from './load.ts';
import * as q from './queries.ts';

/** Decided orders older than this leave the devices; pending ones stay whatever their age. */
export const ORDER_WINDOW_DAYS = 90;

/**
 * The device's document of an order, with what the ERP invoiced of it (issue #41): a new or
 * partial invoice changes the document, hence its hash, so the next refresh of pedidos sends
 * it even when the ERP order's status stays the same.
 */
export function orderSyncDoc(order: OrderDetail, key: string | null): SyncDoc {
  const id = key ?? `pedido-${order.id}`;
  const doc: SyncOrder = {
    id,
    status: order.status,
    draft: null,
    order,
    reasons: [],
    queuedAt: null,
    // The history's last entry is the latest change (the first one is the creation).
    updatedAt: order.historico.at(-1)?.em ?? order.criadoEm,
    _deleted: false,
  };
  return { chave: String(order.id), escopo: order.codVendedor, documento: id, doc };
}

export async function loadOrderDocs(tx: Tx, idEmpresa: number, chaves: string[] | null): Promise<SyncDoc[]> {
  const ids = chaves === null ? null : chaves.map(Number).filter(Number.isSafeInteger);
  const rows = await q.selectReplicatedOrders(tx, idEmpresa, ORDER_WINDOW_DAYS, ids);
  const keys = new Map(rows.map((r) => [r.id, r.chave]));
  const docs: SyncDoc[] = [];
  // Bounded batches: a refresh of a busy tenant reads its window a few thousand orders at a time.
  const all = rows.map((r) => r.id);
  for (let i = 0; i < all.length; i += 2000) {
    const orders = await loadOrders(tx, idEmpresa, all.slice(i, i + 2000));
    for (const order of await withInvoicesAll(tx, idEmpresa, [...orders.values()])) {
      docs.push(orderSyncDoc(order, keys.get(order.id) ?? null));
    }
  }
  return docs;
}

/**
 * What the ERP did to approved orders becomes their status (docs/orders.md, "Status"), and each
 * end gives back what the order held (docs/credit-and-flex.md, "When the ERP ends an order"):
 *
 * - invoiced: it leaves its client's open Campo orders (its receivable counts instead);
 * - cancelled or deleted in the ERP: it leaves them too, its flex reservation is released and
 *   what its approval credited is taken back (as much as the balance holds), each move writing
 *   the representative's flex document.
 *
 * The clients' documents are written again in the same transaction. Runs in the caller's scope:
 * a representative's reconciles their own orders. Returns the ids of the orders that moved.
 */
export async function reconcileErpOrderEnds(tx: Tx, idEmpresa: number): Promise<number[]> {
  const moved = await q.reconcileErpEnds(tx, idEmpresa);
  for (const end of moved) {
    if (end.situa !== SITUA.cancelled) continue;
    const move = { idEmpresa, codVendedor: end.cod_vendedor, idPedido: end.id, by: 'erp', motivo: end.motivo };
    if (end.flex_usado > 0) await releaseFlex(tx, move);
    if (end.flex_gerado > 0) await reverseFlexCredit(tx, move);
  }
  if (moved.length > 0) {
    const clients = [...new Set(moved.map((m) => m.id_cliente))];
    await touchSqlDocuments(tx, idEmpresa, portfolioDocuments, null, clients);
  }
  return moved.map((m) => m.id);
}

/**
 * Before a refresh of pedidos: the orders the ERP ended (reconcileErpOrderEnds), so the refresh
 * that follows records the new documents and devices pull them.
 */
export async function reconcileBeforeRefresh(tx: Tx, idEmpresa: number): Promise<void> {
  await reconcileErpOrderEnds(tx, idEmpresa);
}
