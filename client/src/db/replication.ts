// Replication of the local store with the server (docs/sync.md, "Client module"): one RxDB
// replication per collection over the pull/push endpoints, driven by the server's change
// stream. Whatever fails (network, restart, 5xx) is retried by RxDB from the last checkpoint it
// stored, and a push is only taken as done when the server answered it, so nothing is lost.
import {
  backoffDelay,
  type Problem,
  SYNC_LIMIT_MAX,
  SYNC_PROTOCOL_VERSION,
  SYNC_PUSH_MAX,
  SYNC_VERSION_HEADER,
  SYNC_WRITABLE,
  type SyncCollection,
  type SyncPull,
  type SyncWritableCollection,
} from '@campo/shared';
import type { ReplicationPullOptions, RxCollection, RxReplicationPullStreamItem } from 'rxdb';
import { type RxReplicationState, replicateRxCollection } from 'rxdb/plugins/replication';
import { BehaviorSubject, type Observable, Subject } from 'rxjs';
import { type CampoDatabase, collectionOf } from './database.ts';
import { deleteStorage, firstWriter, type PlainDoc } from './first-write.ts';
import { refetchingPull, stamped } from './refetch.ts';
import { type CampoDocTypes, clientSearchKey, INDEX_DEFAULTS, productSearchKey } from './schemas.ts';
import { isQuotaError } from './storage-pressure.ts';
import { createSyncHealth, type SyncHealthStore } from './sync-health.ts';
import { createSyncState, SyncHttpError, SyncStalledError, type SyncStateStore } from './sync-state.ts';

export interface ReplicationOptions {
  /** Origin of the server ('' for the page's own); the routes are under /api/v1. */
  baseUrl: string;
  /** The current bearer token; null when logged out (requests then fail as 401). */
  getToken: () => string | null | Promise<string | null>;
  /** The server refused the token (expired or revoked): the session module logs out and wipes. */
  onUnauthorized?: () => void | Promise<void>;
  /**
   * The server no longer serves this app's protocol (426 SYNC_VERSION_UNSUPPORTED): the
   * replication has stopped, the store and its outbox are kept, and the app must update.
   */
  onUpdateRequired?: () => void | Promise<void>;
  fetch?: typeof fetch;
  /** Only these collections (of those the user's role replicates); all by default. */
  collections?: readonly SyncCollection[];
  /** Page sizes of the pull, per collection (defaults: PULL_BATCH). */
  pullBatchSize?: Partial<Record<SyncCollection, number>>;
  /** Wait before retrying a failed pull or push. */
  retryTimeMs?: number;
  /** Change stream reconnection: first wait, doubled up to the maximum. */
  streamBackoffMs?: { first: number; max: number };
  /** Pull period when the server runs without a change stream (503 SYNC_STREAM_DISABLED). */
  pollMs?: number;
  /**
   * A stream silent for this long is taken as dead and reopened: the server sends a heartbeat
   * every 25 s, and a connection cut without a FIN (a phone changing networks) never ends.
   */
  streamStaleMs?: number;
  /**
   * The first download of produtos and clientes into an empty store bypasses RxDB's
   * replication (see firstDownload); false keeps RxDB's own, for comparison and tests.
   */
  firstDownload?: boolean;
  /**
   * Where the per-item tries and errors and the last complete pulls are kept (sync-health.ts);
   * a fresh one in memory by default.
   */
  health?: SyncHealthStore;
  /**
   * A write of pulled documents failed for want of room (QuotaExceededError): the app frees
   * the catalog's bulk data (storage-pressure.ts) and tells the representative.
   */
  onQuotaExceeded?: (collection: SyncCollection, err: unknown) => void;
}

export interface CampoReplication {
  readonly syncState: SyncStateStore;
  readonly health: SyncHealthStore;
  /** When this replication started (ISO 8601): the watchdog's clock for a push never tried. */
  readonly startedAt: string;
  readonly states: Partial<{ [C in SyncCollection]: RxReplicationState<CampoDocTypes[C], PullCheckpoint> }>;
  /** Ids of pedidos and cadastros documents in a push the server has not answered yet. */
  readonly inFlight$: Observable<ReadonlySet<string>>;
  /**
   * Per writable collection, the documents still waiting to leave the device: in a push not
   * answered yet, or whose last push failed (RxDB retries it). A refusal is an answer, so a
   * refused document is not in it; the outbox shows those.
   */
  readonly unsent$: Observable<Readonly<Partial<Record<SyncWritableCollection, ReadonlySet<string>>>>>;
  /**
   * What the change stream announces: a collection's name, or 'resync'. Screens that read the
   * server directly (a supervisor's pending count) refresh on it rather than only on a timer.
   */
  readonly changes$: Observable<string>;
  /** Every replicated collection has reached the server's state once. */
  awaitInitialSync(): Promise<void>;
  /** Pull everything now and push what is pending; resolves when in sync. */
  syncNow(): Promise<void>;
  /**
   * Cancels one collection's replication and starts it again from its stored checkpoints (the
   * watchdog's cure for a stalled push, and "Sincronizar agora"): a push still waiting for its
   * answer is aborted, and the new replication pushes what is left at once.
   */
  restart(collection: SyncCollection): Promise<void>;
  /**
   * Stops one collection's replication, runs `empty` (a full disk gives its data up), then
   * forgets its checkpoint: restart() downloads it again from the start.
   */
  reset(collection: SyncCollection, empty: () => Promise<unknown>): Promise<void>;
  /** Stopped for good (logout, 401, 426): nothing restarts it. */
  readonly stopped: boolean;
  stop(): Promise<void>;
}

const API = '/api/v1/sync';

/**
 * Big reference collections come in larger pages; the rest is small. Larger pages than 500 did
 * not download the catalog sooner (the time goes into IndexedDB writes, per document) and made
 * each write a longer task on the main thread: 2,000 gave 1.7 s tasks against 0.5 s
 * (docs/benchmarks.md, browser-sync).
 */
const PULL_BATCH: Record<SyncCollection, number> = {
  produtos: 500,
  clientes: 500,
  regras: 200,
  ajustes: 50,
  pedidos: 200,
  funil: 200,
  chamados: 200,
  cadastros: 200,
};

/**
 * RxDB merges checkpoints with Object.assign, which would spread a bare string into its
 * characters: the server's opaque string travels inside an object.
 */
interface PullCheckpoint {
  checkpoint: string;
}

/** Outbox collections whose documents the screens show as "sent" while a push carries them. */
const TRACKED = new Set<SyncCollection>(['pedidos', 'cadastros']);

const RESET_CODES = new Set(['CHECKPOINT_SCOPE', 'CHECKPOINT_INVALID']);

/**
 * Read-only collections whose first download skips RxDB's replication bookkeeping: the big
 * ones (tens of thousands of products, thousands of clients); the rest is too small to matter.
 */
const FIRST_DOWNLOAD = new Set<SyncCollection>(['produtos', 'clientes']);

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

async function httpError(res: Response): Promise<SyncHttpError> {
  const text = await res.text().catch(() => '');
  let problem: Partial<Problem> & { minVersion?: unknown } = {};
  try {
    problem = (JSON.parse(text) as typeof problem) ?? {};
  } catch {
    problem = {};
  }
  const minVersion = typeof problem.minVersion === 'number' ? problem.minVersion : undefined;
  return new SyncHttpError(res.status, problem.code ?? undefined, text.slice(0, 300), minVersion);
}

/**
 * Fields the device adds to what it pulls: the search keys, and the indexed fields a tombstone
 * lacks (Dexie cannot store a document without its indexed fields).
 */
function localFields(
  collection: SyncCollection,
): ((doc: Record<string, unknown>) => Record<string, unknown>) | undefined {
  const defaults = INDEX_DEFAULTS[collection];
  if (!defaults) return undefined;
  const derive =
    collection === 'produtos'
      ? (doc: Record<string, unknown>) => {
          const p = doc as unknown as CampoDocTypes['produtos'];
          return { busca: productSearchKey(p), grupoCodigo: p.grupo ?? -1 };
        }
      : collection === 'clientes'
        ? (doc: Record<string, unknown>) => ({ busca: clientSearchKey(doc as unknown as CampoDocTypes['clientes']) })
        : () => ({});
  return (doc) => (doc._deleted ? { ...defaults, ...doc } : { ...doc, ...derive(doc) });
}

export function startReplication(db: CampoDatabase, options: ReplicationOptions): CampoReplication {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const collections = (options.collections ?? db.campo.collections).filter((c) => db.campo.collections.includes(c));
  const syncState = createSyncState(collections);
  const health = options.health ?? createSyncHealth();
  const startedAt = new Date().toISOString();
  /** Per collection, aborts the push under way when the collection is restarted. */
  const pushAborts = new Map<SyncCollection, AbortController>();
  const pushSignal = (collection: SyncCollection) => {
    let controller = pushAborts.get(collection);
    if (!controller) {
      controller = new AbortController();
      pushAborts.set(collection, controller);
    }
    return controller.signal;
  };
  const inFlight = new BehaviorSubject<ReadonlySet<string>>(new Set());
  const unsent = new BehaviorSubject<Partial<Record<SyncWritableCollection, ReadonlySet<string>>>>({});
  const markUnsent = (collection: SyncWritableCollection, ids: readonly string[], waiting: boolean) => {
    const set = new Set(unsent.getValue()[collection]);
    for (const id of ids) {
      if (waiting) set.add(id);
      else set.delete(id);
    }
    unsent.next({ ...unsent.getValue(), [collection]: set });
  };
  const changes = new Subject<string>();
  const resync$ = Object.fromEntries(collections.map((c) => [c, new Subject<'RESYNC'>()])) as Partial<
    Record<SyncCollection, Subject<'RESYNC'>>
  >;
  const streamAbort = new AbortController();
  let stopped = false;
  let unauthorizedCalled = false;
  let updateRequiredCalled = false;

  const unauthorized = async (err: SyncHttpError) => {
    if (unauthorizedCalled) return;
    unauthorizedCalled = true;
    // Shown whichever request heard it first; nothing after it runs to clear it.
    syncState.stream({ live: false, error: err });
    // Stop first: the session module wipes the store, which must not race a pull.
    void stop();
    await options.onUnauthorized?.();
  };

  // This app is older than the server accepts. Stop, do not wipe: the outbox (queued orders,
  // unpushed cards, replies, registrations) stays in the store, and the updated app pushes it
  // from the same checkpoints once it speaks a version the server serves (schemas.ts, "Versions").
  const updateRequired = async (err: SyncHttpError) => {
    if (updateRequiredCalled) return;
    updateRequiredCalled = true;
    syncState.updateRequired(err);
    void stop();
    await options.onUpdateRequired?.();
  };

  const request = async (path: string, init: RequestInit = {}): Promise<Response> => {
    const token = await options.getToken();
    const headers = new Headers(init.headers);
    if (token) headers.set('authorization', `Bearer ${token}`);
    // Every request names the protocol it speaks, so the server can refuse one too old (426).
    headers.set(SYNC_VERSION_HEADER, String(SYNC_PROTOCOL_VERSION));
    const res = await doFetch(`${options.baseUrl}${API}${path}`, { ...init, headers });
    if (res.status === 401) {
      const err = await httpError(res);
      await unauthorized(err);
      throw err;
    }
    if (res.status === 426) {
      const err = await httpError(res);
      await updateRequired(err);
      throw err;
    }
    return res;
  };

  const pullPage = async (collection: SyncCollection, checkpoint: string | undefined, limit: number) => {
    const query = new URLSearchParams({ limit: String(limit) });
    if (checkpoint) query.set('checkpoint', checkpoint);
    return request(`/${collection}/pull?${query}`);
  };

  /**
   * A pull page, waiting its turn while the server says it is busy (503 SYNC_BUSY: too many
   * devices downloading at once; docs/sync.md, "Morning burst"). The device keeps its place in
   * the server's line, so it asks again after Retry-After rather than RxDB's fixed retry time.
   */
  /** Waits, or less when the replication stops. */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      streamAbort.signal.addEventListener('abort', done);
      function done() {
        clearTimeout(timer);
        streamAbort.signal.removeEventListener('abort', done);
        resolve();
      }
    });

  const pullInTurn = async (collection: SyncCollection, checkpoint: string | undefined, limit: number) => {
    for (;;) {
      const res = await pullPage(collection, checkpoint, limit);
      if (res.status !== 503 || stopped) return res;
      const err = await httpError(res);
      if (err.code !== 'SYNC_BUSY') throw err;
      syncState.failure(collection, err);
      const seconds = Number(res.headers.get('retry-after'));
      await pause(Math.min(60, Number.isFinite(seconds) && seconds > 0 ? seconds : 2) * 1000);
      if (stopped) throw err;
    }
  };

  const pullHandler = (collection: SyncCollection) => async (stored: PullCheckpoint | undefined, batchSize: number) => {
    const checkpoint = stored?.checkpoint;
    try {
      let res = await pullInTurn(collection, checkpoint, batchSize);
      if (res.status === 400 && checkpoint) {
        const err = await httpError(res);
        if (!err.code || !RESET_CODES.has(err.code)) throw err;
        // A checkpoint of another scope would skip documents: start over from the beginning.
        res = await pullInTurn(collection, undefined, batchSize);
      }
      if (!res.ok) throw await httpError(res);
      const body = (await res.json()) as SyncPull;
      syncState.success(collection, { received: body.documents.length });
      // RxDB pulls until a page comes back short: this one reached the server's state.
      if (body.documents.length < batchSize) health.pullComplete(collection);
      return { documents: body.documents as never[], checkpoint: { checkpoint: body.checkpoint } };
    } catch (err) {
      syncState.failure(collection, err);
      throw err;
    }
  };

  const pushHandler = (collection: SyncWritableCollection) => async (rows: unknown[]) => {
    const rowIds = rows.map((r) => (r as { newDocumentState: { id: string } }).newDocumentState.id);
    const ids = TRACKED.has(collection) ? rowIds : [];
    if (ids.length) inFlight.next(new Set([...inFlight.getValue(), ...ids]));
    // Waiting until the server answers; a failure leaves them waiting for RxDB's retry.
    markUnsent(collection, rowIds, true);
    health.pushStarted(collection, rowIds);
    const signal = pushSignal(collection);
    try {
      const res = await request(`/${collection}/push`, {
        method: 'POST',
        signal,
        headers: { 'content-type': 'application/json' },
        // RxDB leaves assumedMasterState undefined for a new document; the contract says null.
        body: JSON.stringify(
          rows.map((r) => {
            const row = r as { assumedMasterState?: unknown; newDocumentState: unknown };
            return { assumedMasterState: row.assumedMasterState ?? null, newDocumentState: row.newDocumentState };
          }),
        ),
      });
      // 409 (the same order still in flight on the server), 5xx and anything unexpected are
      // retried as a whole: the server is idempotent by document id, so a repeat is harmless.
      if (!res.ok) throw await httpError(res);
      const conflicts = (await res.json()) as never[];
      syncState.success(collection, { sent: rows.length });
      markUnsent(collection, rowIds, false);
      health.pushAnswered(collection, rowIds);
      return conflicts;
    } catch (err) {
      if (signal.aborted) {
        // Restarted (the watchdog, or "Sincronizar agora"): the new replication pushes again.
        health.pushFailed(collection, rowIds, new SyncStalledError());
      } else {
        syncState.failure(collection, err);
        health.pushFailed(collection, rowIds, err);
      }
      throw err;
    } finally {
      if (ids.length) {
        const left = new Set(inFlight.getValue());
        for (const id of ids) left.delete(id);
        inFlight.next(left);
      }
    }
  };

  /**
   * The first download of a big read-only collection into an empty store, outside RxDB's
   * replication (docs/sync.md, "First download in the browser"): pages are written straight to
   * the collection's Dexie table (first-write.ts), the next ones already on their way, and the main thread is given
   * back between writes. The replication then starts from the checkpoint of the last page
   * written (RxDB takes `initialCheckpoint` only when it has none stored), so an interrupted
   * download goes on from there. Resolves with that checkpoint, or undefined when nothing was written.
   */
  const firstDownload = async (collection: SyncCollection, limit: number): Promise<string | undefined> => {
    const rx = collectionOf(db, collection) as unknown as RxCollection<Record<string, unknown>>;
    // As the replication does (waitForLeadership): only one tab downloads.
    await db.waitForLeadership();
    if (stopped || (await rx.count().exec()) > 0) return undefined;
    const modifier = localFields(collection) ?? ((d: Record<string, unknown>) => d);
    const direct = await firstWriter(rx as never, db.token);
    /** Ids this download wrote, which a direct write must not be handed again. */
    const stored = new Set<string>();
    const fetchLimit = Math.min(SYNC_LIMIT_MAX, limit * FIRST_DOWNLOAD_SLICES);
    const fetchPage = async (checkpoint: string | undefined): Promise<SyncPull> => {
      const res = await pullInTurn(collection, checkpoint, fetchLimit);
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
        while (!stopped && !quit) {
          while (arrived.length >= FIRST_DOWNLOAD_AHEAD && !stopped && !quit) {
            await new Promise<void>((r) => {
              wakeFetcher = r;
            });
          }
          if (stopped || quit) break;
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
      while (!stopped) {
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
      if (isQuotaError(err)) options.onQuotaExceeded?.(collection, err);
    } finally {
      quit = true;
      wakeFetcher?.();
      await fetcher;
      // Stopped or failed with a write still committing: its checkpoint counts once it has.
      await committing.catch(() => undefined);
    }
    return written;
  };

  const states: CampoReplication['states'] = {};
  /** RxDB writes what a pull brought itself: its failure to write shows only on error$. */
  const watchQuota = (collection: SyncCollection, state: { error$: Observable<unknown> }) => {
    state.error$.subscribe((err) => {
      if (!stopped && isQuotaError(err)) options.onQuotaExceeded?.(collection, err);
    });
  };
  /** What each collection's replication was made with, to make it again on a restart. */
  const configs = new Map<SyncCollection, Parameters<typeof replicateRxCollection>[0]>();
  let firstDownloads: Promise<unknown> = Promise.resolve();
  /** Collections whose data and checkpoint were given up (reset): restarted from the start. */
  const resets = new Set<SyncCollection>();
  for (const collection of collections) {
    const writable = (SYNC_WRITABLE as readonly SyncCollection[]).includes(collection);
    const modifier = localFields(collection);
    const batchSize = options.pullBatchSize?.[collection] ?? PULL_BATCH[collection];
    const bulk = !writable && FIRST_DOWNLOAD.has(collection) && options.firstDownload !== false;
    const pull: ReplicationPullOptions<CampoDocTypes[typeof collection], PullCheckpoint> = {
      // Pulled again from the beginning after an upgrade that added server fields (refetch.ts).
      handler: refetchingPull(collectionOf(db, collection), pullHandler(collection)),
      batchSize,
      stream$: (resync$[collection] as Subject<'RESYNC'>).asObservable() as Observable<
        RxReplicationPullStreamItem<CampoDocTypes[typeof collection], PullCheckpoint>
      >,
      ...(modifier ? { modifier: modifier as never } : {}),
    };
    const config: Parameters<typeof replicateRxCollection<CampoDocTypes[typeof collection], PullCheckpoint>>[0] = {
      // Kept stable across server restarts and URLs so the stored checkpoint is reused.
      replicationIdentifier: `campo-sync-${collection}`,
      collection: collectionOf(db, collection) as never,
      live: true,
      retryTime: options.retryTimeMs ?? 5000,
      waitForLeadership: true,
      autoStart: !bulk,
      pull,
      ...(writable
        ? {
            push: {
              handler: pushHandler(collection as SyncWritableCollection) as never,
              batchSize: Math.min(50, SYNC_PUSH_MAX),
            },
          }
        : {}),
    };
    configs.set(collection, config as never);
    const state = replicateRxCollection<CampoDocTypes[typeof collection], PullCheckpoint>(config);
    (states as Record<string, unknown>)[collection] = state;
    watchQuota(collection, state);
    if (bulk) {
      // One collection at a time, in SYNC_COLLECTIONS' order: the catalog (produtos) is usable
      // before the clients start to compete with it for the main thread and IndexedDB.
      const download = firstDownloads.then(() => firstDownload(collection, batchSize));
      firstDownloads = download.catch(() => undefined);
      void download.then(
        (checkpoint) => {
          // Read by start(): the stored checkpoint, when there is one, wins. A collection reset
          // meanwhile (a full disk) has lost what the download wrote.
          if (resets.has(collection)) return;
          if (checkpoint) pull.initialCheckpoint = stamped(collectionOf(db, collection), { checkpoint });
          if (!stopped) void state.start().catch(() => undefined);
        },
        () => {
          if (!stopped) void state.start().catch(() => undefined);
        },
      );
    }
    void state.awaitInitialReplication().then(
      () => syncState.initialDone(collection),
      () => undefined,
    );
  }

  const resyncAll = () => {
    for (const c of collections) resync$[c]?.next('RESYNC');
  };

  // --- change stream -------------------------------------------------------------------
  const backoff = options.streamBackoffMs ?? { first: 250, max: 30_000 };
  const pollMs = options.pollMs ?? 60_000;
  let wake: (() => void) | undefined;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });

  const onEvent = (event: string, data: string) => {
    if (event === 'resync') {
      resyncAll();
      changes.next('resync');
    } else if (event === 'change') {
      try {
        const { colecao } = JSON.parse(data) as { colecao?: string };
        if (colecao) changes.next(colecao);
        const subject = colecao ? resync$[colecao as SyncCollection] : undefined;
        subject?.next('RESYNC');
      } catch {
        // A malformed announcement is only a hint missed; the next resync covers it.
      }
    }
  };

  const staleMs = options.streamStaleMs ?? 60_000;
  const readStream = async (): Promise<'ended' | 'disabled'> => {
    const connection = new AbortController();
    const abort = () => connection.abort();
    streamAbort.signal.addEventListener('abort', abort);
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const alive = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(abort, staleMs);
    };
    try {
      alive();
      const res = await request('/stream', { headers: { accept: 'text/event-stream' }, signal: connection.signal });
      // Only a server without the change hub means "poll instead"; any other 503 (the database
      // away: DATABASE_UNAVAILABLE) is a failure like a lost network, retried with backoff.
      if (!res.ok || !res.body) {
        const err = await httpError(res);
        if (err.code === 'SYNC_STREAM_DISABLED') return 'disabled';
        throw err;
      }
      syncState.stream({ live: true });
      await readEvents(res.body, (event, data) => {
        alive();
        onEvent(event, data);
      });
      return 'ended';
    } finally {
      clearTimeout(watchdog);
      streamAbort.signal.removeEventListener('abort', abort);
    }
  };

  const runStream = async () => {
    let failures = 0;
    while (!stopped) {
      try {
        const outcome = await readStream();
        if (stopped) break;
        syncState.stream({ live: false });
        if (outcome === 'disabled') {
          // No stream on this server: pull on a timer instead, and look for a stream again later.
          resyncAll();
          await sleep(pollMs);
          continue;
        }
        failures = 0;
      } catch (err) {
        if (stopped) break;
        syncState.stream({ live: false, error: err });
      }
      await sleep(backoffDelay(failures, backoff.first, backoff.max));
      failures++;
    }
  };

  const onOnline = () => wake?.();
  const win = (globalThis as { window?: { addEventListener?: (t: string, f: () => void) => void } }).window;
  win?.addEventListener?.('online', onOnline);
  const streamDone = runStream();

  /** A reset under way per collection: a restart waits for it, or the two would race. */
  const resetting = new Map<SyncCollection, Promise<void>>();
  const restart = async (collection: SyncCollection) => {
    await resetting.get(collection)?.catch(() => undefined);
    const old = states[collection];
    const config = configs.get(collection);
    if (stopped || !old || !config) return;
    if ((SYNC_WRITABLE as readonly SyncCollection[]).includes(collection))
      health.restarted(collection as SyncWritableCollection);
    pushAborts.get(collection)?.abort();
    pushAborts.delete(collection);
    await old.cancel();
    if (stopped || states[collection] !== old) return;
    const state = replicateRxCollection({ ...config, autoStart: true });
    (states as Record<string, unknown>)[collection] = state;
    watchQuota(collection, state);
    void state.awaitInitialReplication().then(
      () => syncState.initialDone(collection),
      () => undefined,
    );
  };

  const reset = (collection: SyncCollection, empty: () => Promise<unknown>): Promise<void> => {
    const running = resetAndEmpty(collection, empty).finally(() => resetting.delete(collection));
    resetting.set(collection, running);
    return running;
  };
  const resetAndEmpty = async (collection: SyncCollection, empty: () => Promise<unknown>) => {
    const state = states[collection];
    const config = configs.get(collection);
    if (!state || !config) return;
    resets.add(collection);
    // The first download's checkpoint would skip what is gone.
    if (config.pull) delete config.pull.initialCheckpoint;
    // Its last checkpoint write may have failed for the same want of room: cancelled all the same.
    await state.cancel().catch(() => undefined);
    await empty();
    // Its meta data (the checkpoint, and a copy of every document pulled) goes too, its whole
    // database at once; else, with room again, a replication of the same identifier that never
    // started removes it. restart() then downloads the collection from the start.
    if (!(await deleteStorage(state.metaInstance).catch(() => false)))
      await replicateRxCollection({ ...config, autoStart: false }).remove();
  };

  const stop = async () => {
    if (stopped) return;
    stopped = true;
    streamAbort.abort();
    wake?.();
    (win as { removeEventListener?: (t: string, f: () => void) => void } | undefined)?.removeEventListener?.(
      'online',
      onOnline,
    );
    await Promise.all(Object.values(states).map((s) => s.cancel()));
    await streamDone;
  };

  return {
    syncState,
    health,
    startedAt,
    states,
    inFlight$: inFlight.asObservable(),
    unsent$: unsent.asObservable(),
    changes$: changes.asObservable(),
    async awaitInitialSync() {
      await Promise.all(Object.values(states).map((s) => s.awaitInitialReplication()));
    },
    async syncNow() {
      resyncAll();
      await Promise.all(Object.values(states).map((s) => s.awaitInSync()));
    },
    restart,
    reset,
    get stopped() {
      return stopped;
    },
    stop,
  };
}

/**
 * Server-sent events over a fetch body (EventSource cannot send the Authorization header).
 * Handles the parts of the format the server uses: `event:`, `data:` (several joined by
 * newlines), comments, CRLF; resolves when the body ends.
 */
export async function readEvents(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: string, data: string) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  const line = (text: string) => {
    if (text === '') {
      if (data.length || event) onEvent(event || 'message', data.join('\n'));
      event = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      for (let nl = buffer.search(/\r\n|\r|\n/); nl >= 0; nl = buffer.search(/\r\n|\r|\n/)) {
        const eol = buffer.startsWith('\r\n', nl) ? 2 : 1;
        // A lone \r at the end may be the first half of \r\n: wait for the next chunk.
        if (buffer[nl] === '\r' && eol === 1 && nl === buffer.length - 1) break;
        line(buffer.slice(0, nl));
        buffer = buffer.slice(nl + eol);
      }
    }
  } finally {
    reader.releaseLock();
  }
}
