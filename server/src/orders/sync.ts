// Collection pedidos: a representative's orders on their devices, and the push of the orders
// their outbox queued (docs/sync.md). A queued order is a command: pushing it calls
// createOrder, the very function behind POST /orders, with the document id as the
// Idempotency-Key, so a push retried after a lost answer, or sent by a second device, finds
// the order already created and answers it again. A refusal is never stored: it comes back as
// the master state (status refused, a reason per line), the device shows it, and the fixed
// order is pushed again under the same key (only a created order binds its key).
import {
  IDEMPOTENCY_KEY,
  type RefusalReason,
  type SyncOrder,
  type SyncOrderReason,
  type SyncPushRow,
  ZOrderCreate,
} from '@campo/shared';
import { scopeOf } from '../auth/authorize.ts';
import { answerOf } from '../changelog/push-answer.ts';
import type { Db } from '../db/kysely.ts';
import { withScope } from '../db/scope.ts';
import { DomainError } from '../errors.ts';
import type { AuthContext } from '../http/env.ts';
import { orderSyncDoc } from './documents.ts';
import { notInvoiced, withInvoices } from './invoices.ts';
import { loadOrders } from './load.ts';
import * as q from './queries.ts';
import { createOrder } from './service.ts';

function refusedDoc(row: SyncPushRow, reasons: SyncOrderReason[], now: Date): SyncOrder {
  const d = row.newDocumentState as Partial<SyncOrder>;
  return {
    id: row.newDocumentState.id,
    status: 'refused',
    draft: d.draft ?? null,
    order: null,
    reasons,
    queuedAt: typeof d.queuedAt === 'string' ? d.queuedAt : null,
    updatedAt: now.toISOString(),
    _deleted: false,
  };
}

const reasonsOf = (problem: DomainError): SyncOrderReason[] => {
  const reasons = problem.extra.reasons as RefusalReason[] | undefined;
  if (reasons?.length) return reasons;
  const errors = problem.extra.errors as { path: string; message: string }[] | undefined;
  if (errors?.length) return errors.map((e) => ({ code: problem.code, message: `${e.path}: ${e.message}` }));
  return [{ code: problem.code, message: problem.detail }];
};

/** The order this user created with the key, as the device should hold it; null when none. */
async function orderOfKey(db: Db, auth: AuthContext, key: string): Promise<SyncOrder | null> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const found = await q.selectIdempotencyKey(tx, auth.idEmpresa, auth.userId, key);
    if (!found?.id_pedido) return null;
    const order = (await loadOrders(tx, auth.idEmpresa, [found.id_pedido])).get(found.id_pedido);
    return order ? (orderSyncDoc(await withInvoices(tx, auth.idEmpresa, order), key).doc as SyncOrder) : null;
  });
}

/** How long a push waits for another request creating the same order, and how many times. */
const IN_FLIGHT_WAIT = '10s';
const IN_FLIGHT_TRIES = 5;

const inFlight = (err: unknown) => err instanceof DomainError && err.code === 'IDEMPOTENCY_KEY_IN_FLIGHT';

/**
 * Waits until the request creating the order under the key is done: true then, false when the
 * wait ran out (that request is stuck; the push then answers 409 and RxDB retries it).
 */
async function awaitKey(db: Db, auth: AuthContext, key: string): Promise<boolean> {
  try {
    await withScope(db, scopeOf(auth), (tx) => q.waitForOrderKey(tx, auth.idEmpresa, auth.userId, key, IN_FLIGHT_WAIT));
    return true;
  } catch (err) {
    if ((err as { code?: unknown } | null)?.code === '55P03') return false;
    throw err;
  }
}

/**
 * One pushed order: the master state the device must adopt, or null when the device's state
 * stands (a discarded refusal, a document unchanged since the server's answer).
 * A key in flight on another request (the same push sent twice at once, a second device) is
 * waited for, and its order answered: never a 409 for the whole batch, whose other rows would
 * wait for RxDB's retry. Only a wait that runs out still throws the 409.
 */
async function pushOne(db: Db, auth: AuthContext, row: SyncPushRow, now: Date): Promise<SyncOrder | null> {
  const key = row.newDocumentState.id;
  if (!IDEMPOTENCY_KEY.test(key)) {
    return refusedDoc(row, [{ code: 'VALIDATION', message: 'O identificador do pedido não é uma chave válida.' }], now);
  }
  const existing = await orderOfKey(db, auth, key);
  if (existing) return existing;
  const state = row.newDocumentState as Partial<SyncOrder>;
  // Discarding a refused order, or re-sending a state the server answered: nothing to do.
  if (row.newDocumentState._deleted === true || state.status !== 'queued') return null;
  const draft = ZOrderCreate.safeParse(state.draft);
  if (!draft.success) {
    return refusedDoc(
      row,
      draft.error.issues.map((i) => ({
        code: 'VALIDATION',
        message: `${['pedido', ...i.path.map(String)].join('.')}: ${i.message}`,
      })),
      now,
    );
  }
  for (let tries = 1; ; tries += 1) {
    try {
      const result = await createOrder(db, auth, key, draft.data, now);
      return orderSyncDoc(notInvoiced(result.body), key).doc as SyncOrder;
    } catch (err) {
      if (inFlight(err) && tries < IN_FLIGHT_TRIES && (await awaitKey(db, auth, key))) {
        // Created by the other request: answered as it stands now. Refused or failed there:
        // this one creates it (or is refused) itself.
        const created = await orderOfKey(db, auth, key);
        if (created) return created;
        continue;
      }
      if (!(err instanceof DomainError) || err.status >= 500 || err.status === 409) throw err;
      return refusedDoc(row, reasonsOf(err), now);
    }
  }
}

/** The server's clock: it reaches the device by pull, never as a conflict (changelog/push-answer.ts). */
const STAMPS = ['updatedAt'] as const;

export async function pushOrders(db: Db, auth: AuthContext, rows: SyncPushRow[], now = new Date()) {
  const masters: (SyncOrder | null)[] = [];
  // One by one, in the order queued: each order is its own transaction, as POST /orders.
  for (const row of rows) masters.push(await pushOne(db, auth, row, now));
  return answerOf(rows, masters, STAMPS);
}
