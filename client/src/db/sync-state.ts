// What the UI shows about replication: per collection and overall, when it last worked, how
// far the first download got, and what is wrong in words a representative understands. The
// replication handlers report into it; it holds no RxDB object so it can be tested alone.
import type { SyncCollection } from '@campo/shared';
import { BehaviorSubject, distinctUntilChanged, map, type Observable } from 'rxjs';

export type SyncErrorKind = 'offline' | 'unauthorized' | 'update' | 'server' | 'busy' | 'refused' | 'unknown';

/** What the app shows when the server no longer serves this app's protocol (426). */
export const UPDATE_REQUIRED_MESSAGE = 'Atualize o app para continuar sincronizando.';

export interface SyncError {
  kind: SyncErrorKind;
  /** Plain pt-BR, for a banner. */
  message: string;
  /** HTTP status, when the server answered. */
  status?: number;
  /** The problem's machine code, when the server sent one. */
  code?: string;
}

export interface CollectionSyncState {
  /** Last pull or push the server answered (ISO 8601, device clock). */
  lastSuccessAt: string | null;
  /** Documents received since the replication started (the first download's progress). */
  received: number;
  /** Documents pushed and answered since the replication started. */
  sent: number;
  /** The first download reached the server's current state. */
  initialDone: boolean;
  error: SyncError | null;
}

export interface SyncState {
  /** The last request reached the server (the device is not cut off). */
  online: boolean;
  /** The change stream is open: changes arrive within seconds rather than on the next retry. */
  live: boolean;
  collections: Partial<Record<SyncCollection, CollectionSyncState>>;
  initial: { done: number; total: number; received: number };
  lastSuccessAt: string | null;
  /** The most important current error: an expired session before a lost connection. */
  error: SyncError | null;
  /**
   * The server refused this app's protocol version (426): replication has stopped, the store
   * and its outbox are kept, and syncing resumes once the app is updated.
   */
  updateRequired: { minVersion: number | null } | null;
}

/** A failed request, with what the server said. */
export class SyncHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    detail: string,
    /** The oldest protocol the server serves, from a 426 problem. */
    readonly minVersion?: number,
  ) {
    super(`HTTP ${status}${code ? ` ${code}` : ''}: ${detail}`);
    this.name = 'SyncHttpError';
  }
}

/** A push that had no answer for too long and was cut by a restart (sync-watchdog.ts). */
export class SyncStalledError extends Error {
  constructor() {
    super('push stalled: restarted');
    this.name = 'SyncStalledError';
  }
}

export function describeSyncError(err: unknown): SyncError {
  if (err instanceof SyncStalledError)
    return { kind: 'server', message: 'O envio ficou sem resposta e foi reiniciado.' };
  if (err instanceof SyncHttpError) {
    const base = { status: err.status, ...(err.code ? { code: err.code } : {}) };
    if (err.status === 401) return { kind: 'unauthorized', message: 'Sessão expirada. Entre novamente.', ...base };
    if (err.status === 426) return { kind: 'update', message: UPDATE_REQUIRED_MESSAGE, ...base };
    // A version newer than the server's: a rolling deploy has not reached this server yet.
    if (err.code === 'SYNC_VERSION_UNSUPPORTED')
      return { kind: 'server', message: 'O servidor está sendo atualizado; tentaremos de novo em instantes.', ...base };
    if (err.status === 403) return { kind: 'unauthorized', message: 'Sem permissão para sincronizar.', ...base };
    if (err.code === 'SYNC_BUSY')
      return {
        kind: 'busy',
        message: 'Muitos aparelhos sincronizando agora: este está na fila e continua sozinho.',
        ...base,
      };
    if (err.status === 409)
      return { kind: 'busy', message: 'O servidor ainda está processando um envio; tentaremos de novo.', ...base };
    if (err.status >= 500)
      return { kind: 'server', message: 'Servidor indisponível; tentaremos de novo em instantes.', ...base };
    return { kind: 'refused', message: 'O servidor recusou a sincronização; tentaremos de novo.', ...base };
  }
  // fetch rejects with a TypeError when the server cannot be reached at all.
  if (err instanceof TypeError || (err instanceof Error && /fetch|network|ECONN|socket/i.test(err.message))) {
    return { kind: 'offline', message: 'Sem conexão com o servidor.' };
  }
  return { kind: 'unknown', message: 'Erro ao sincronizar; tentaremos de novo.' };
}

const SEVERITY: Record<SyncErrorKind, number> = {
  unauthorized: 6,
  update: 5,
  offline: 4,
  server: 3,
  refused: 2,
  busy: 1,
  unknown: 0,
};

function emptyCollection(): CollectionSyncState {
  return { lastSuccessAt: null, received: 0, sent: 0, initialDone: false, error: null };
}

function summarize(
  collections: Partial<Record<SyncCollection, CollectionSyncState>>,
  online: boolean,
  live: boolean,
  streamError: SyncError | null,
  updateRequired: SyncState['updateRequired'],
): SyncState {
  const list = Object.values(collections);
  let lastSuccessAt: string | null = null;
  let error: SyncError | null = streamError;
  for (const c of list) {
    if (c.lastSuccessAt && (!lastSuccessAt || c.lastSuccessAt > lastSuccessAt)) lastSuccessAt = c.lastSuccessAt;
    if (c.error && (!error || SEVERITY[c.error.kind] > SEVERITY[error.kind])) error = c.error;
  }
  return {
    online,
    live,
    collections,
    initial: {
      done: list.filter((c) => c.initialDone).length,
      total: list.length,
      received: list.reduce((n, c) => n + c.received, 0),
    },
    lastSuccessAt,
    error,
    updateRequired,
  };
}

export interface SyncStateStore {
  readonly state$: Observable<SyncState>;
  get(): SyncState;
  /** One collection's state, for a screen that cares about one (the outbox, the catalog). */
  collection$(name: SyncCollection): Observable<CollectionSyncState | undefined>;
  success(name: SyncCollection, counts: { received?: number; sent?: number }): void;
  failure(name: SyncCollection, err: unknown): void;
  initialDone(name: SyncCollection): void;
  stream(status: { live: boolean; error?: unknown }): void;
  /** The server answered 426: the app must update; replication has stopped. */
  updateRequired(err: unknown): void;
}

export function createSyncState(collections: readonly SyncCollection[], now = () => new Date()): SyncStateStore {
  let perCollection: Partial<Record<SyncCollection, CollectionSyncState>> = Object.fromEntries(
    collections.map((c) => [c, emptyCollection()]),
  );
  let online = false;
  let live = false;
  let streamError: SyncError | null = null;
  let update: SyncState['updateRequired'] = null;
  const subject = new BehaviorSubject<SyncState>(summarize(perCollection, online, live, streamError, update));
  const emit = () => subject.next(summarize(perCollection, online, live, streamError, update));
  const patch = (name: SyncCollection, change: (c: CollectionSyncState) => CollectionSyncState) => {
    perCollection = { ...perCollection, [name]: change(perCollection[name] ?? emptyCollection()) };
  };
  return {
    state$: subject.asObservable(),
    get: () => subject.getValue(),
    collection$: (name) =>
      subject.pipe(
        map((s) => s.collections[name]),
        distinctUntilChanged(),
      ),
    success(name, counts) {
      online = true;
      // The server answered, so a "no connection" on the stream is stale too.
      if (streamError?.kind === 'offline') streamError = null;
      patch(name, (c) => ({
        ...c,
        lastSuccessAt: now().toISOString(),
        received: c.received + (counts.received ?? 0),
        sent: c.sent + (counts.sent ?? 0),
        error: null,
      }));
      emit();
    },
    failure(name, err) {
      const error = describeSyncError(err);
      if (error.kind === 'offline') online = false;
      patch(name, (c) => ({ ...c, error }));
      emit();
    },
    initialDone(name) {
      patch(name, (c) => ({ ...c, initialDone: true }));
      emit();
    },
    stream(status) {
      live = status.live;
      if (status.live) {
        online = true;
        streamError = null;
      } else if (status.error !== undefined) {
        streamError = describeSyncError(status.error);
        if (streamError.kind === 'offline') online = false;
      }
      emit();
    },
    updateRequired(err) {
      // The server answered, so the device is online; nothing syncs until the app updates.
      online = true;
      live = false;
      streamError = describeSyncError(err);
      update = { minVersion: err instanceof SyncHttpError ? (err.minVersion ?? null) : null };
      emit();
    },
  };
}
