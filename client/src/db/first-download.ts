// The first download of produtos and clientes into an empty store, beside RxDB's replication
// (firstDownload below; docs/sync.md, "First download in the browser").
import { SYNC_LIMIT_MAX, type SyncCollection, type SyncPull } from '@campo/shared';
import type { RxCollection } from 'rxdb';
import { type CampoDatabase, collectionOf } from './database.ts';
import { firstWriter, type PlainDoc } from './first-write.ts';
import { isQuotaError } from './storage-pressure.ts';
import { localFields } from './sync-handlers.ts';
import type { SyncHealthStore } from './sync-health.ts';
import { httpError, type SyncHttp } from './sync-http.ts';
import type { SyncStateStore } from './sync-state.ts';

/**
 * Read-only collections whose first download skips RxDB's replication bookkeeping: the big
 * ones (tens of thousands of products, thousands of clients); the rest is too small to matter.
 */
export const FIRST_DOWNLOAD = new Set<SyncCollection>(['produtos', 'clientes']);

/**
 * The first download asks for pages this many times the replication's (10 requests for 20,000
 * products instead of 40: with pages of 500 the writer waited for the server half the time) and
 * writes each in slices of the replication's size, one transaction each: a larger write is a
 * longer main-thread task (2,000 documents made 1.7 s tasks against 0.5 s, docs/benchmarks.md).
 */
const FIRST_DOWNLOAD_SLICES = 4;

/** Slices fetched ahead of the writes, which are the slower part: two pages. */
const FIRST_DOWNLOAD_AHEAD = 2 * FIRST_DOWNLOAD_SLICES;

/** A slice of a fetched page; the page's checkpoint is on its last slice. */
interface Slice {
  documents: unknown[];
  checkpoint: string | undefined;
  /** The last slice of a short page: the collection is downloaded. */
  final: boolean;
}

/** Gives the main thread back between pages, so a tap is not kept waiting by the download. */
function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** What the download needs of the replication it runs for. */
export interface FirstDownloadHost {
  db: CampoDatabase;
  http: Pick<SyncHttp, 'pullInTurn'>;
  syncState: SyncStateStore;
  health: SyncHealthStore;
  stopped: () => boolean;
  onQuotaExceeded?: (collection: SyncCollection, err: unknown) => void;
}

/**
 * The first download of a big read-only collection into an empty store, outside RxDB's
 * replication (docs/sync.md, "First download in the browser"): pages are written straight to
 * the collection's Dexie table (first-write.ts), the next ones already on their way, and the main thread is given
 * back between writes. The replication then starts from the checkpoint of the last page
 * written (RxDB takes `initialCheckpoint` only when it has none stored), so an interrupted
 * download goes on from there. Resolves with that checkpoint, or undefined when nothing was written.
 */
export async function firstDownload(
  host: FirstDownloadHost,
  collection: SyncCollection,
  limit: number,
): Promise<string | undefined> {
  const { db, syncState, health } = host;
  const rx = collectionOf(db, collection) as unknown as RxCollection<Record<string, unknown>>;
  // As the replication does (waitForLeadership): only one tab downloads.
  await db.waitForLeadership();
  if (host.stopped() || (await rx.count().exec()) > 0) return undefined;
  const modifier = localFields(collection) ?? ((d: Record<string, unknown>) => d);
  const direct = await firstWriter(rx as never, db.token);
  /** Ids this download wrote, which a direct write must not be handed again. */
  const stored = new Set<string>();
  const fetchLimit = Math.min(SYNC_LIMIT_MAX, limit * FIRST_DOWNLOAD_SLICES);
  const fetchPage = async (checkpoint: string | undefined): Promise<SyncPull> => {
    const res = await host.http.pullInTurn(collection, checkpoint, fetchLimit);
    if (!res.ok) throw await httpError(res);
    return (await res.json()) as SyncPull;
  };
  // Pages are fetched ahead while the last ones are written, a slice per transaction:
  // coalescing what had arrived (up to 4 slices) made 250 ms tasks and was no sooner than one
  // slice per write (100 ms, and a third sooner in the same window), since the catalog's
  // search no longer re-reads the store on each write (data/product-search.ts).
  const arrived: Slice[] = [];
  let fetching = true;
  let quit = false;
  let failed: unknown;
  let wakeWriter: (() => void) | undefined;
  let wakeFetcher: (() => void) | undefined;
  const fetcher = (async () => {
    try {
      let checkpoint: string | undefined;
      while (!host.stopped() && !quit) {
        while (arrived.length >= FIRST_DOWNLOAD_AHEAD && !host.stopped() && !quit) {
          await new Promise<void>((r) => {
            wakeFetcher = r;
          });
        }
        if (host.stopped() || quit) break;
        const page = await fetchPage(checkpoint);
        const short = page.documents.length < fetchLimit;
        for (let i = 0; i < page.documents.length || i === 0; i += limit) {
          const end = i + limit >= page.documents.length;
          arrived.push({
            documents: page.documents.slice(i, i + limit),
            checkpoint: end ? page.checkpoint : undefined,
            final: end && short,
          });
        }
        wakeWriter?.();
        if (short) break;
        checkpoint = page.checkpoint;
      }
    } catch (err) {
      failed = err;
    } finally {
      fetching = false;
      wakeWriter?.();
    }
  })();
  let written: string | undefined;
  /** The last slice's direct write while it commits, then its bookkeeping. */
  let committing: Promise<void> = Promise.resolve();
  const sliceDone = (slice: Slice) => {
    if (slice.checkpoint !== undefined) written = slice.checkpoint;
    syncState.success(collection, { received: slice.documents.length });
    // A short page is the server's state: the collection is downloaded. RxDB's own first
    // cycle, which follows, also reads every document written here once (its upstream
    // pass), which only "Sincronizado" would otherwise wait for.
    if (slice.final) {
      syncState.initialDone(collection);
      health.pullComplete(collection);
    }
  };
  try {
    while (!host.stopped()) {
      if (!arrived.length) {
        if (!fetching) break;
        await new Promise<void>((r) => {
          wakeWriter = r;
        });
        continue;
      }
      const slice = arrived.shift() as Slice;
      wakeFetcher?.();
      const live: Record<string, unknown>[] = [];
      const gone: string[] = [];
      for (const raw of slice.documents as Record<string, unknown>[]) {
        if (raw._deleted) gone.push(String(raw.id));
        else {
          const { _deleted, ...doc } = modifier(raw);
          live.push(doc);
        }
      }
      if (direct) {
        // A document sent twice while the download ran is already there: RxDB writes it again.
        const fresh: PlainDoc[] = [];
        const again: Record<string, unknown>[] = [];
        for (const doc of live) {
          const id = String(doc.id);
          if (stored.has(id)) again.push(doc);
          else {
            stored.add(id);
            fresh.push(doc as PlainDoc);
          }
        }
        if (!again.length && !gone.length) {
          // Issued before the last slice's commit is awaited: the main thread hands this one to
          // IndexedDB while the browser commits that one (it runs them in the order issued, and
          // none of these documents is in an earlier slice).
          const write = direct(fresh);
          const previous = committing;
          committing = previous.then(() => write).then(() => sliceDone(slice));
          committing.catch(() => undefined);
          await previous;
          await yieldToMain();
          continue;
        }
        await committing;
        await direct(fresh);
        if (again.length) await rx.bulkUpsert(again);
      } else if (live.length) {
        // Straight to the storage (its wrapper stamps _rev and _meta, and the collection
        // still emits the change the catalog's queries listen to), without the RxDocuments
        // bulkInsert would build; a document already there (sent twice while the download
        // ran) is upserted instead.
        const { error } = await rx.storageInstance.bulkWrite(
          live.map((doc) => ({ document: { ...doc, _deleted: false, _attachments: {} } as never })),
          'campo-first-download',
        );
        const again = new Set(error.filter((e) => e.status === 409).map((e) => e.documentId));
        if (error.length > again.size) throw new Error(`falha ao gravar ${collection}: ${error[0]?.status}`);
        if (again.size) await rx.bulkUpsert(live.filter((d) => again.has(String(d.id))));
      }
      if (gone.length) await rx.bulkRemove(gone);
      sliceDone(slice);
      await yieldToMain();
    }
    await committing;
    if (failed) throw failed;
  } catch (err) {
    // The replication retries from the last page written.
    syncState.failure(collection, err);
    if (isQuotaError(err)) host.onQuotaExceeded?.(collection, err);
  } finally {
    quit = true;
    wakeFetcher?.();
    await fetcher;
    // Stopped or failed with a write still committing: its checkpoint counts once it has.
    await committing.catch(() => undefined);
  }
  return written;
}
