// The server's change stream (GET /sync/stream, docs/sync.md "Client module"): its events pull
// the collections they name, a lost stream is reopened with backoff (at once when the browser
// comes back online), and a server without one is pulled on a timer instead.
import { backoffDelay } from '@campo/shared';
import { httpError, type SyncHttp } from './sync-http.ts';
import type { SyncStateStore } from './sync-state.ts';

/** What the stream needs of the replication it drives. */
export interface ChangeStreamHost {
  request: SyncHttp['request'];
  syncState: SyncStateStore;
  /** Aborted when the replication stops: closes the open stream. */
  signal: AbortSignal;
  stopped: () => boolean;
  /** Pull every collection ('resync', and each poll without a stream). */
  resyncAll: () => void;
  /** An event the stream announced: a collection's name, or 'resync'. */
  announce: (change: string) => void;
  /** Pull one collection (a 'change' naming it). */
  resync: (collection: string) => void;
  /** Reconnection: first wait, doubled up to the maximum. */
  backoffMs?: { first: number; max: number };
  /** Pull period when the server runs without a change stream. */
  pollMs?: number;
  /** A stream silent for this long is taken as dead and reopened. */
  staleMs?: number;
}

export interface ChangeStream {
  /** Settles once the replication has stopped and the stream loop has ended. */
  readonly done: Promise<void>;
  /** Ends a wait between connections and stops listening for the browser's `online`. */
  stop(): void;
}

export function startChangeStream(host: ChangeStreamHost): ChangeStream {
  const { syncState } = host;
  const backoff = host.backoffMs ?? { first: 250, max: 30_000 };
  const pollMs = host.pollMs ?? 60_000;
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
      host.resyncAll();
      host.announce('resync');
    } else if (event === 'change') {
      try {
        const { colecao } = JSON.parse(data) as { colecao?: string };
        if (colecao) {
          host.announce(colecao);
          host.resync(colecao);
        }
      } catch {
        // A malformed announcement is only a hint missed; the next resync covers it.
      }
    }
  };

  const staleMs = host.staleMs ?? 60_000;
  const readStream = async (): Promise<'ended' | 'disabled'> => {
    const connection = new AbortController();
    const abort = () => connection.abort();
    host.signal.addEventListener('abort', abort);
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const alive = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(abort, staleMs);
    };
    try {
      alive();
      const res = await host.request('/stream', {
        headers: { accept: 'text/event-stream' },
        signal: connection.signal,
      });
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
      host.signal.removeEventListener('abort', abort);
    }
  };

  const runStream = async () => {
    let failures = 0;
    while (!host.stopped()) {
      try {
        const outcome = await readStream();
        if (host.stopped()) break;
        syncState.stream({ live: false });
        if (outcome === 'disabled') {
          // No stream on this server: pull on a timer instead, and look for a stream again later.
          host.resyncAll();
          await sleep(pollMs);
          continue;
        }
        failures = 0;
      } catch (err) {
        if (host.stopped()) break;
        syncState.stream({ live: false, error: err });
      }
      await sleep(backoffDelay(failures, backoff.first, backoff.max));
      failures++;
    }
  };

  const onOnline = () => wake?.();
  const win = (globalThis as { window?: { addEventListener?: (t: string, f: () => void) => void } }).window;
  win?.addEventListener?.('online', onOnline);
  const done = runStream();

  return {
    done,
    stop() {
      wake?.();
      (win as { removeEventListener?: (t: string, f: () => void) => void } | undefined)?.removeEventListener?.(
        'online',
        onOnline,
      );
    },
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
