// The replication's requests to the sync routes: each names the protocol it speaks and carries
// the session's token; a 401 (the session is over) or a 426 (this app is older than the server
// accepts) stops the whole replication, and a pull waits its turn while the server is busy.
import { type Problem, SYNC_PROTOCOL_VERSION, SYNC_VERSION_HEADER, type SyncCollection } from '@campo/shared';
import { SyncHttpError, type SyncStateStore } from './sync-state.ts';

const API = '/api/v1/sync';

export async function httpError(res: Response): Promise<SyncHttpError> {
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
 * How the requests reach the server: the part of the replication's options (replication.ts,
 * ReplicationOptions) they need. Declared here, below the replication, so the replication's
 * files import downwards only (no circle through a type: client/src/structure.node.test.ts).
 */
export interface SyncHttpOptions {
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
}

/** What the requests need of the replication they serve. */
export interface SyncHttpHost {
  syncState: SyncStateStore;
  /** Aborted when the replication stops: a wait for the server's turn ends with it. */
  signal: AbortSignal;
  stopped: () => boolean;
  stop: () => Promise<void>;
}

export interface SyncHttp {
  /**
   * A request to `/api/v1/sync<path>` (or `<root><path>`: a visit's photo goes to /api/v1/visits
   * before the visit's push); a 401 or 426 stops the replication and throws.
   */
  request(path: string, init?: RequestInit, root?: string): Promise<Response>;
  /**
   * A pull page, waiting its turn while the server says it is busy (503 SYNC_BUSY: too many
   * devices downloading at once; docs/sync.md, "Morning burst"). The device keeps its place in
   * the server's line, so it asks again after Retry-After rather than RxDB's fixed retry time.
   */
  pullInTurn(collection: SyncCollection, checkpoint: string | undefined, limit: number): Promise<Response>;
}

export function createSyncHttp(options: SyncHttpOptions, host: SyncHttpHost): SyncHttp {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const { syncState } = host;
  let unauthorizedCalled = false;
  let updateRequiredCalled = false;

  const unauthorized = async (err: SyncHttpError) => {
    if (unauthorizedCalled) return;
    unauthorizedCalled = true;
    // Shown whichever request heard it first; nothing after it runs to clear it.
    syncState.stream({ live: false, error: err });
    // Stop first: the session module wipes the store, which must not race a pull.
    void host.stop();
    await options.onUnauthorized?.();
  };

  // This app is older than the server accepts. Stop, do not wipe: the outbox (queued orders,
  // unpushed cards, replies, registrations) stays in the store, and the updated app pushes it
  // from the same checkpoints once it speaks a version the server serves (schemas.ts, "Versions").
  const updateRequired = async (err: SyncHttpError) => {
    if (updateRequiredCalled) return;
    updateRequiredCalled = true;
    syncState.updateRequired(err);
    void host.stop();
    await options.onUpdateRequired?.();
  };

  const request = async (path: string, init: RequestInit = {}, root = API): Promise<Response> => {
    const token = await options.getToken();
    const headers = new Headers(init.headers);
    if (token) headers.set('authorization', `Bearer ${token}`);
    // Every request names the protocol it speaks, so the server can refuse one too old (426).
    headers.set(SYNC_VERSION_HEADER, String(SYNC_PROTOCOL_VERSION));
    const res = await doFetch(`${options.baseUrl}${root}${path}`, { ...init, headers });
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

  /** Waits, or less when the replication stops. */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      host.signal.addEventListener('abort', done);
      function done() {
        clearTimeout(timer);
        host.signal.removeEventListener('abort', done);
        resolve();
      }
    });

  const pullInTurn = async (collection: SyncCollection, checkpoint: string | undefined, limit: number) => {
    for (;;) {
      const res = await pullPage(collection, checkpoint, limit);
      if (res.status !== 503 || host.stopped()) return res;
      const err = await httpError(res);
      if (err.code !== 'SYNC_BUSY') throw err;
      syncState.failure(collection, err);
      const seconds = Number(res.headers.get('retry-after'));
      await pause(Math.min(60, Number.isFinite(seconds) && seconds > 0 ? seconds : 2) * 1000);
      if (host.stopped()) throw err;
    }
  };

  return { request, pullInTurn };
}
