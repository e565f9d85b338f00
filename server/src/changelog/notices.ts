// Change announcements, the writing half of the change stream (docs/sync.md, "Change
// stream"). A change is announced with NOTIFY campo_sync inside the transaction that makes it,
// so PostgreSQL delivers it only on commit, and to every server process; sync/stream.ts
// listens and fans the announcements out to the devices' streams. Devices are only told
// *which collection* changed: they pull it through the checkpoints.
import { sql } from 'kysely';
import type pg from 'pg';
import { availabilityOf } from '../db/availability.ts';
import type { Db } from '../db/kysely.ts';
import { poolOf } from '../db/pools.ts';
import { PREPARED } from '../db/prepared.ts';
import type { Tx } from '../db/scope.ts';
import { currentRequestId, log as defaultLog, outsideRequest } from '../log.ts';

export const SYNC_CHANNEL = 'campo_sync';

/** What changed: a collection of a tenant, for one representative or (null) for everyone. */
export interface SyncChange {
  idEmpresa: number;
  colecao: string;
  codVendedor: number | null;
  /** The request whose transaction made the change, so the listener's log line names it. */
  requestId?: string;
  /** How many requests made it, when one notice stands for several (announceCommitted); the first is requestId. */
  requests?: number;
}

/**
 * Announces a change in the caller's transaction: delivered to every listening process when
 * (and only if) the transaction commits. The payload holds only numbers and ASCII.
 */
export async function announceChange(tx: Tx, change: SyncChange): Promise<void> {
  await sql`select pg_notify(${SYNC_CHANNEL}, ${changeNotice(change)})`.execute(tx);
}

/**
 * Announces a change its caller's transaction has already committed, in the background: the
 * caller does not wait for it. For the busiest writer, the order: a NOTIFY inside a
 * transaction holds PostgreSQL's one notification lock from before the commit until its WAL
 * is flushed, so every order waited for the previous order's flush; a NOTIFY on its own writes
 * no WAL. Awaited, the notice's statement queued for a pool connection behind other orders'
 * transactions before the order could answer (docs/sync.md, "Several server processes").
 *
 * One notice statement at a time per pool: the changes announced while one is under way go
 * out together in the next, each (tenant, collection, representative) once, so a busy process
 * sends a few statements a second rather than one per order, and each listening process wakes
 * once for them. A notice that failed is logged. Should the process stop before a notice went
 * out, the devices hear of the change at their next pull (the app pulls on start, on
 * reconnection and on any later change of the collection); `campo serve` waits for the notices
 * (noticesSent) before closing its pool.
 */
export function announceCommitted(db: Db, change: SyncChange): void {
  const pool = poolOf(db);
  let notices = pendingNotices.get(pool);
  if (!notices) {
    notices = { waiting: new Map(), sending: null };
    pendingNotices.set(pool, notices);
  }
  const key = `${change.idEmpresa}:${change.colecao}:${change.codVendedor ?? ''}`;
  const same = notices.waiting.get(key);
  if (same) same.requests = (same.requests ?? 1) + 1;
  else notices.waiting.set(key, { ...change, requestId: change.requestId ?? currentRequestId() });
  // Later batches are other requests' too: the sender's lines belong to none.
  notices.sending ??= outsideRequest(() => sendNotices(db, notices));
}

interface Notices {
  /** The changes announced since the last statement went out, by tenant, collection and representative. */
  waiting: Map<string, SyncChange>;
  /** The statements under way, until none is left to send. */
  sending: Promise<void> | null;
}

const pendingNotices = new WeakMap<pg.Pool, Notices>();

async function sendNotices(db: Db, notices: Notices): Promise<void> {
  // The rest of this turn of the event loop first: the orders committed at the same moment go together.
  await new Promise((resolve) => setImmediate(resolve));
  while (notices.waiting.size > 0) {
    const batch = [...notices.waiting.values()].map(changeNotice);
    notices.waiting.clear();
    await sql`${sql.raw(PREPARED)}select pg_notify(${SYNC_CHANNEL}, n) from unnest(${batch}::text[]) n`
      .execute(db)
      .catch((err: unknown) => {
        const fields = { error: err instanceof Error ? err.message : String(err) };
        // The database away is logged once, by its tracker. As when the process stops before a
        // notice went out, the devices hear of the change at their next pull; and a listener that
        // lost its connection in the same outage tells every stream to resync once it is back.
        if (availabilityOf(poolOf(db)).failed(err)) defaultLog.debug('sync: a change notice was not sent', fields);
        else defaultLog.warn('sync: a change notice was not sent', fields);
      });
  }
  notices.sending = null;
}

/** Resolves once every change announced on this pool so far went out (or failed to). */
export async function noticesSent(pool: pg.Pool): Promise<void> {
  for (let sending = pendingNotices.get(pool)?.sending; sending; sending = pendingNotices.get(pool)?.sending) {
    await sending;
  }
}

/** The payload of a change's NOTIFY (for statements that announce as they write). */
export function changeNotice(change: SyncChange): string {
  return JSON.stringify({
    idEmpresa: change.idEmpresa,
    colecao: change.colecao,
    codVendedor: change.codVendedor,
    requestId: change.requestId ?? currentRequestId(),
    ...(change.requests ? { requests: change.requests } : {}),
  });
}
