// The pull after a store upgrade (docs/sync.md, "Refetch after an upgrade"). A migration keeps
// what a document holds, but a store of an older release may hold documents without a field
// the server sends today (pulled before the server had it, or emptied by the migration of a
// release that set it to null), and its checkpoint is past them: they would never come again.
// So every checkpoint the replication stores names the version of the store that reached it
// (its schemas' version), and a collection whose checkpoint was reached by a store older than
// its REFETCH_SINCE is pulled from the beginning once. A checkpoint without a version was
// stored before this existed: it counts as version 0, which also heals a phone that an earlier
// release's migration emptied.
//
// Only master documents are pulled again; RxDB's downstream never writes one over a local
// document with a write not pushed yet (it leaves that to the push and the conflict handler),
// so the outbox is untouched. Pedidos and cadastros, which gained no server field, are never
// pulled again.
import type { SyncCollection } from '@campo/shared';
import { REFETCH_SINCE } from './schemas.ts';

/** A pull checkpoint as RxDB stores it: the server's opaque string, and the store that reached it. */
export interface StoreCheckpoint {
  checkpoint: string;
  /** The version of the store that stored it (its schemas'); absent before this release. */
  store?: number;
}

type PullHandler<C> = (stored: C | undefined, batchSize: number) => Promise<{ documents: never[]; checkpoint: C }>;

/** What of a collection the refetch needs: its name and the version of the store it is in. */
interface StoreCollection {
  readonly name: string;
  readonly schema: { readonly version: number };
}

/** The checkpoint, as reached by the collection's store version. */
export function stamped<C extends StoreCheckpoint>(collection: StoreCollection, checkpoint: C): C {
  return { ...checkpoint, store: collection.schema.version };
}

/** The stored checkpoint was reached by a store that may lack fields the server sends. */
export function mustRefetch(collection: SyncCollection, stored: StoreCheckpoint | undefined): boolean {
  if (!stored) return false;
  return (stored.store ?? 0) < (REFETCH_SINCE[collection] ?? 0);
}

/**
 * The collection's pull handler, started from the beginning when its stored checkpoint is
 * stale (mustRefetch), and stamping every checkpoint it returns. RxDB stores a page's checkpoint
 * only after writing its documents, so an app closed during the refetch resumes it from the
 * last page written, and once one is stored the refetch is over.
 */
export function refetchingPull<C extends StoreCheckpoint>(
  collection: StoreCollection,
  handler: PullHandler<C>,
): PullHandler<C> {
  const name = collection.name as SyncCollection;
  return async (stored, batchSize) => {
    const page = await handler(mustRefetch(name, stored) ? undefined : stored, batchSize);
    return { ...page, checkpoint: stamped(collection, page.checkpoint) };
  };
}
