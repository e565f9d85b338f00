// A full disk (QuotaExceededError) must never cost the outbox: queued orders, cards, tickets and
// registrations are the only copy of the representative's work, while the catalog's products
// are the bulk of the store (tens of thousands of documents) and come back from the server
// whenever there is room. So the products give way first: their replication stops and forgets
// its checkpoint, their table is emptied, and the outbox's write is tried again.
import type { SyncCollection } from '@campo/shared';
import type { RxCollection } from 'rxdb';
import type { CampoDatabase } from './database.ts';
import { clearStraight } from './first-write.ts';

/** The collection whose data gives way first: the largest, and the one the server resends whole. */
export const BULK_COLLECTION: SyncCollection = 'produtos';

/**
 * Whether an error is, or carries, the browser's QuotaExceededError: IndexedDB's own, Dexie's
 * wrapper (`inner`), or RxDB's error whose `parameters.errors` hold it as plain JSON.
 */
export function isQuotaError(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 6) return false;
  const e = err as Record<string, unknown>;
  if (e.name === 'QuotaExceededError' || (typeof e.message === 'string' && /QuotaExceeded/i.test(e.message)))
    return true;
  const nested = [e.inner, e.cause, e.error, ...(Array.isArray(e.errors) ? e.errors : [])];
  const parameters = e.parameters as Record<string, unknown> | undefined;
  if (parameters && typeof parameters === 'object') {
    nested.push(parameters.error, ...(Array.isArray(parameters.errors) ? parameters.errors : []));
  }
  return nested.some((n) => isQuotaError(n, depth + 1));
}

export interface BulkDropper {
  /** Stops a collection's replication, empties it, forgets its checkpoint (CampoReplication.reset). */
  reset(collection: SyncCollection, empty: () => Promise<unknown>): Promise<void>;
}

/**
 * Empties the bulk collection to make room; resolves with how many documents went (0 when it
 * was already empty). Several callers at once share one drop.
 */
export function bulkDropper(db: CampoDatabase, replication: BulkDropper): () => Promise<number> {
  let running: Promise<number> | null = null;
  return () => {
    running ??= (async () => {
      try {
        const collection = db.collections[BULK_COLLECTION] as RxCollection | undefined;
        if (!collection) return 0;
        let dropped = 0;
        await replication.reset(BULK_COLLECTION, async () => {
          const cleared = await clearStraight(collection, db.token);
          if (cleared !== null) {
            dropped = cleared;
            return;
          }
          // Not Dexie's table as first-write.ts knows it: RxDB's own removal, which may need room.
          const docs = await collection.find().exec();
          await collection.bulkRemove(docs.map((d) => d.primary));
          dropped = docs.length;
        });
        return dropped;
      } finally {
        running = null;
      }
    })();
    return running;
  };
}

/**
 * Runs an outbox write; when the disk is full, makes room (`makeRoom`) and writes again once.
 * A second failure is the representative's to solve, in words.
 */
export async function writeFirst<T>(
  write: () => Promise<T>,
  makeRoom: (() => Promise<unknown>) | undefined,
): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!makeRoom || !isQuotaError(err)) throw err;
    await makeRoom();
    try {
      return await write();
    } catch (again) {
      if (isQuotaError(again)) throw new StorageFullError();
      throw again;
    }
  }
}

export class StorageFullError extends Error {
  override name = 'StorageFullError';
  constructor() {
    super(
      'O aparelho está sem espaço e isto não pôde ser guardado. Libere espaço (apague fotos, vídeos ou apps que não usa) e tente de novo.',
    );
  }
}
