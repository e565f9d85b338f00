// Replication of the local store with the server (docs/sync.md, "Client module"): one RxDB
// replication per collection over the pull/push endpoints, driven by the server's change
// stream. Whatever fails (network, restart, 5xx) is retried by RxDB from the last checkpoint it
// stored, and a push is only taken as done when the server answered it, so nothing is lost.
// This file wires the parts: the requests (sync-http.ts), RxDB's handlers (sync-handlers.ts),
// the first download (first-download.ts) and the change stream (change-stream.ts).
import { SYNC_PUSH_MAX, SYNC_WRITABLE, type SyncCollection, type SyncWritableCollection } from '@campo/shared';
import type { ReplicationPullOptions, RxReplicationPullStreamItem } from 'rxdb';
import { type RxReplicationState, replicateRxCollection } from 'rxdb/plugins/replication';
import { type Observable, Subject } from 'rxjs';
import { startChangeStream } from './change-stream.ts';
import { type CampoDatabase, collectionOf } from './database.ts';
import { FIRST_DOWNLOAD, firstDownload } from './first-download.ts';
import { deleteStorage } from './first-write.ts';
import { refetchingPull, stamped } from './refetch.ts';
import type { CampoDocTypes } from './schemas.ts';
import { isQuotaError } from './storage-pressure.ts';
import { createSyncHandlers, localFields, type PullCheckpoint } from './sync-handlers.ts';
import { createSyncHealth, type SyncHealthStore } from './sync-health.ts';
import { createSyncHttp, type SyncHttpOptions } from './sync-http.ts';
import { createSyncState, type SyncStateStore } from './sync-state.ts';
import type { VisitPhotoStore } from './visit-photos.ts';

/** The requests' own options (baseUrl, getToken, onUnauthorized, onUpdateRequired, fetch): sync-http.ts. */
export interface ReplicationOptions extends SyncHttpOptions {
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
  /** Where the visits' photos wait to be sent, before their visits' push (visit-photos.ts). */
  visitPhotos?: VisitPhotoStore;
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
  visitas: 200,
};

export function startReplication(db: CampoDatabase, options: ReplicationOptions): CampoReplication {
  const collections = (options.collections ?? db.campo.collections).filter((c) => db.campo.collections.includes(c));
  const syncState = createSyncState(collections);
  const health = options.health ?? createSyncHealth();
  const startedAt = new Date().toISOString();
  const changes = new Subject<string>();
  const resync$ = Object.fromEntries(collections.map((c) => [c, new Subject<'RESYNC'>()])) as Partial<
    Record<SyncCollection, Subject<'RESYNC'>>
  >;
  const streamAbort = new AbortController();
  let stopped = false;
  const isStopped = () => stopped;
  const http = createSyncHttp(options, {
    syncState,
    signal: streamAbort.signal,
    stopped: isStopped,
    stop: () => stop(),
  });
  const handlers = createSyncHandlers({ http, syncState, health, visitPhotos: options.visitPhotos });
  const downloadHost = {
    db,
    http,
    syncState,
    health,
    stopped: isStopped,
    onQuotaExceeded: (collection: SyncCollection, err: unknown) => options.onQuotaExceeded?.(collection, err),
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
      handler: refetchingPull(collectionOf(db, collection), handlers.pull(collection)),
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
              handler: handlers.push(collection as SyncWritableCollection) as never,
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
      const download = firstDownloads.then(() => firstDownload(downloadHost, collection, batchSize));
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

  const stream = startChangeStream({
    request: http.request,
    syncState,
    signal: streamAbort.signal,
    stopped: isStopped,
    resyncAll,
    announce: (change) => changes.next(change),
    resync: (collection) => resync$[collection as SyncCollection]?.next('RESYNC'),
    backoffMs: options.streamBackoffMs,
    pollMs: options.pollMs,
    staleMs: options.streamStaleMs,
  });

  /** A reset under way per collection: a restart waits for it, or the two would race. */
  const resetting = new Map<SyncCollection, Promise<void>>();
  const restart = async (collection: SyncCollection) => {
    await resetting.get(collection)?.catch(() => undefined);
    const old = states[collection];
    const config = configs.get(collection);
    if (stopped || !old || !config) return;
    if ((SYNC_WRITABLE as readonly SyncCollection[]).includes(collection))
      health.restarted(collection as SyncWritableCollection);
    handlers.abortPush(collection);
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
    // The screens say it is downloading again, not that it is complete and empty (download-state.ts).
    health.pullForgotten(collection);
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
    stream.stop();
    await Promise.all(Object.values(states).map((s) => s.cancel()));
    await stream.done;
  };

  return {
    syncState,
    health,
    startedAt,
    states,
    inFlight$: handlers.inFlight$,
    unsent$: handlers.unsent$,
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
