// Writes of the first download into an empty collection straight to RxDB's Dexie table
// (docs/sync.md, "First download in the browser"). RxDB's own write reads every document first
// to check for conflicts (one IndexedDB get per document: 0.5 to 0.75 s of the main thread for
// 22,000 documents in the download's profiles), deep-copies each one into Dexie's form, and
// touches the attachments table; none of that is needed for documents that cannot be there
// yet. The collection still emits the change event its queries and the catalog's search listen
// to, as RxDB's write does.
import { now, type RxCollection, type RxStorageChangeEvent } from 'rxdb';

interface DexieInternals {
  dexieDb: { transaction(mode: 'rw', table: unknown, scope: () => Promise<unknown>): Promise<unknown> };
  dexieTable: { bulkPut(docs: readonly object[]): Promise<unknown> };
  booleanIndexes: readonly string[];
}

interface DexieInstance {
  internals: Promise<DexieInternals>;
  changes$: { next(bulk: unknown): void };
  schema: { attachments?: unknown };
}

/** How long a full disk's deletion of a collection's database is waited for. */
const DELETE_WAIT_MS = 5000;

/** True once the deletion is done; false when it is still waiting after DELETE_WAIT_MS. */
function deleteWithin(deletion: Promise<void>): Promise<boolean> {
  return Promise.race([
    deletion.then(() => true),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), DELETE_WAIT_MS)),
  ]);
}

/** Numbers this module's event bulks (see their id below). */
let bulks = 0;

/** Documents as the replication pulls them: without RxDB's bookkeeping fields. */
export type PlainDoc = Record<string, unknown> & { id: string };

/**
 * A writer of new documents to the collection, or null when its storage is not RxDB's Dexie
 * storage in the form this relies on (the caller then writes through RxDB). The caller must
 * never hand it a document the collection already holds.
 */
export async function firstWriter(
  collection: RxCollection,
  databaseToken: string,
): Promise<((docs: readonly PlainDoc[]) => Promise<void>) | null> {
  const instance = (collection.storageInstance as unknown as { originalStorageInstance?: unknown })
    .originalStorageInstance as Partial<DexieInstance> | undefined;
  const internals = await instance?.internals;
  // Dexie's form of a document differs from RxDB's only in its indexed booleans (stored as
  // '0'/'1'), which for these schemas is `_deleted` alone, and in field names starting with a
  // pipe, which they have none of.
  if (
    !instance?.changes$ ||
    !internals?.dexieTable ||
    instance.schema?.attachments ||
    internals.booleanIndexes.length !== 1 ||
    internals.booleanIndexes[0] !== '_deleted'
  )
    return null;
  const { dexieDb, dexieTable } = internals;
  const changes$ = instance.changes$;
  const database = collection.database as unknown as { lockedRun<T>(fn: () => Promise<T>): Promise<T> };
  const revision = `1-${databaseToken}`;
  return async (docs) => {
    if (!docs.length) return;
    const meta = { lwt: now() };
    const stored = docs.map((d) => ({ ...d, _deleted: false, _rev: revision, _meta: meta, _attachments: {} }));
    // Counted as a storage operation in progress, as RxDB's wrapper counts its writes.
    await database.lockedRun(() =>
      dexieDb.transaction('rw', dexieTable, () => dexieTable.bulkPut(stored.map((d) => ({ ...d, _deleted: '0' })))),
    );
    const events: RxStorageChangeEvent<PlainDoc>[] = stored.map((d) => ({
      documentId: d.id,
      operation: 'INSERT',
      documentData: d as never,
      previousDocumentData: undefined,
    }));
    const last = stored[stored.length - 1] as (typeof stored)[number];
    changes$.next({
      // Unique in the database: RxDB drops an event bulk whose id it emitted in the last minute
      // (its guard against a bulk heard twice), whichever collection it was for.
      id: `campo-first-write-${collection.name}-${databaseToken}-${++bulks}`,
      events,
      checkpoint: { id: last.id, lwt: meta.lwt },
      context: 'campo-first-download',
    });
  };
}

/**
 * Empties a collection by deleting its Dexie database, for a disk that is full: over its quota
 * Chromium refuses every read-write transaction, a clear() or a deletion through RxDB included
 * (RxDB's writes a tombstone as large as each document), while deleting a database is always
 * allowed and gives its room back at once; it is then opened again, empty. The
 * collection still emits a deletion per document, so its queries and the catalog's in-memory
 * search follow. Returns how many documents went; null when the storage is not RxDB's Dexie in
 * the form this relies on.
 */
export async function clearStraight(collection: RxCollection, databaseToken: string): Promise<number | null> {
  const instance = (collection.storageInstance as unknown as { originalStorageInstance?: unknown })
    .originalStorageInstance as Partial<DexieInstance> | undefined;
  const internals = (await instance?.internals) as
    | (DexieInternals & {
        dexieDb: { delete(options: { disableAutoOpen: boolean }): Promise<void>; open(): Promise<unknown> };
        dexieTable: { toArray(): Promise<Record<string, unknown>[]> };
      })
    | undefined;
  if (!instance?.changes$ || !internals?.dexieTable || internals.booleanIndexes[0] !== '_deleted') return null;
  const { dexieDb, dexieTable } = internals;
  const database = collection.database as unknown as { lockedRun<T>(fn: () => Promise<T>): Promise<T> };
  let removed: Record<string, unknown>[] = [];
  await database.lockedRun(async () => {
    removed = (await dexieTable.toArray()).filter((d) => d._deleted !== '1');
    // The deletion waits for every connection to the database to close; Chromium has been seen
    // to keep it "blocked" until the page reloads. Past a few seconds it is left to finish then
    // (the outbox must not wait for it), and the database stays closed until the app reopens.
    const deleted = await deleteWithin(dexieDb.delete({ disableAutoOpen: false }));
    // RxDB opens its Dexie databases itself (no auto-open): made again, empty, for what comes next.
    if (deleted) await dexieDb.open();
  });
  if (!removed.length) return 0;
  const lwt = now();
  const events: RxStorageChangeEvent<PlainDoc>[] = removed.map((raw) => {
    const previous = { ...raw, _deleted: false } as unknown as PlainDoc;
    return {
      documentId: String(raw.id),
      operation: 'DELETE',
      documentData: { ...previous, _deleted: true, _meta: { lwt } } as never,
      previousDocumentData: previous as never,
    };
  });
  const last = removed[removed.length - 1] as Record<string, unknown>;
  instance.changes$.next({
    id: `campo-clear-${collection.name}-${databaseToken}-${++bulks}`,
    events,
    checkpoint: { id: String(last.id), lwt },
    context: 'campo-storage-full',
  });
  return removed.length;
}

/**
 * Closes a storage instance and deletes the Dexie database behind it (a cancelled replication's
 * meta data: its checkpoint and a copy of every document it pulled, as large as the
 * collection). Closed first, whether or not its replication managed to (a cancel whose last
 * checkpoint write failed never closes it), so that RxDB forgets the connection and the next
 * replication opens a new one. True when it was RxDB's Dexie storage and is gone.
 */
export async function deleteStorage(storageInstance: unknown): Promise<boolean> {
  const instance = ((storageInstance as { originalStorageInstance?: unknown } | undefined)?.originalStorageInstance ??
    storageInstance) as
    | { internals?: Promise<{ dexieDb?: { delete(): Promise<void> } }>; close?: () => Promise<unknown> }
    | undefined;
  const internals = await instance?.internals?.catch(() => undefined);
  if (!internals?.dexieDb) return false;
  await instance?.close?.().catch(() => undefined);
  await deleteWithin(internals.dexieDb.delete());
  return true;
}
