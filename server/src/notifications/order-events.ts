// The spec's three push events, ready for the order service to call inside the transaction
// that creates, approves or rejects the order. The spec leaves the content of the messages
// open; they say what happened, to which client and for how much, and open the order.
import { formatBrl } from '@campo/shared';
import { type DrawnNumber, splicedBytes } from '../db/drawn.ts';
import type { Tx } from '../db/scope.ts';
import { type EnqueuedPush, enqueuePush, enqueuePushTo, outboxRows } from './outbox.ts';
import {
  outboxInsertSql,
  type PendingApprovalAudience,
  pendingApprovalAudienceItems,
  selectPendingApprovalAudience,
} from './queries.ts';

export interface OrderForPush {
  idEmpresa: number;
  /** app.pedidos.id: the app opens /pedidos/{id}. */
  id: number;
  /** num_ped_sar: the number people use. */
  numPedSar: number;
  codVendedor: number;
  nomeCliente: string;
  valorTotal: number;
}

/** A supervisor may have just approved the order on the phone; a day later the badge says it all. */
const PENDING_TTL_SECONDS = 24 * 60 * 60;
/** A representative may stay offline in the field for days and still wants to know. */
const DECISION_TTL_SECONDS = 7 * 24 * 60 * 60;

const common = (order: OrderForPush) => ({
  url: `/pedidos/${order.id}`,
  // One notification per order on a device: a later one about the same order replaces it.
  tag: `pedido-${order.id}`,
  orderId: order.id,
});

/** A new order awaits approval: its representative's supervisors and the tenant's managers. */
export async function notifyOrderPendingApproval(tx: Tx, order: OrderForPush): Promise<EnqueuedPush> {
  const audience = await selectPendingApprovalAudience(tx, order.idEmpresa, order.codVendedor);
  return enqueuePushTo(tx, pendingApproval(order, audience), audience.aprovadores);
}

/**
 * The audience of notifyOrderPendingApproval as select-list items, for the order's own
 * context statement; pendingApprovalOutbox then writes the messages inside the order's last
 * statement. Same recipients and message, two round trips fewer on every order.
 */
export const pendingApprovalAudienceSql = pendingApprovalAudienceItems;
export type { PendingApprovalAudience };

/**
 * The outbox insert for a new order (null when no approver has a device), to run as a CTE of
 * the statement that draws the order's number: `drawn`'s placeholder stands for it in `order`.
 */
export function pendingApprovalOutbox(order: OrderForPush, audience: PendingApprovalAudience, drawn: DrawnNumber) {
  const rows = outboxRows(pendingApproval(order, audience), audience.aprovadores);
  const first = rows[0];
  return first ? outboxInsertSql(rows, splicedBytes(first.payload.toString('utf8'), drawn)) : null;
}

function pendingApproval(order: OrderForPush, audience: PendingApprovalAudience) {
  const rep = audience.nome_vendedor ?? `Vendedor ${order.codVendedor}`;
  return {
    idEmpresa: order.idEmpresa,
    notification: {
      type: 'order.pending_approval' as const,
      title: `Pedido ${order.numPedSar} aguarda aprovação`,
      body: `${rep} · ${order.nomeCliente} · ${formatBrl(order.valorTotal)}`,
      ...common(order),
    },
    ttlSeconds: PENDING_TTL_SECONDS,
  };
}

export type OrderDecision = { status: 'approved' } | { status: 'rejected'; reason: string };

/** The order was approved or rejected: its representative. */
export async function notifyOrderDecided(tx: Tx, order: OrderForPush, decision: OrderDecision): Promise<EnqueuedPush> {
  const approved = decision.status === 'approved';
  return enqueuePush(tx, {
    idEmpresa: order.idEmpresa,
    to: { representative: order.codVendedor },
    notification: {
      type: approved ? 'order.approved' : 'order.rejected',
      title: `Pedido ${order.numPedSar} ${approved ? 'aprovado' : 'rejeitado'}`,
      body: approved
        ? `${order.nomeCliente} · ${formatBrl(order.valorTotal)}`
        : `${order.nomeCliente} · Motivo: ${decision.reason}`,
      ...common(order),
    },
    ttlSeconds: DECISION_TTL_SECONDS,
  });
}
