// Live change announcements (docs/sync.md, "Change stream"), the listening half: the
// changes are announced by their writers (changelog/notices.ts) with NOTIFY campo_sync. Each
// process holds one LISTEN connection (the hub) and fans the announcements out to its open SSE
// streams, filtered by tenant and representative.
import { backoffDelay } from '@campo/shared';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import pg from 'pg';
import { scopeOf } from '../auth/authorize.ts';
import { SYNC_CHANNEL, type SyncChange } from '../changelog/notices.ts';
import { DEFAULT_CONNECT_TIMEOUT_MS } from '../db/pool.ts';
import { DomainError } from '../errors.ts';
import type { AppEnv, AuthContext } from '../http/env.ts';
import { log as defaultLog, outsideRequest } from '../log.ts';
import { sseStreamsOpen } from '../metrics.ts';

/** Default pause between heartbeat events of a stream. */
export const HEARTBEAT_MS = 25_000;

/** Who listens: a tenant, and a representative (their changes and the tenant-wide ones) or null (all). */
export interface ChangeFilter {
  idEmpresa: number;
  codVendedor: number | null;
}

/**
 * `change`: a collection changed; `resync`: announcements may have been lost (the hub
 * reconnected); `closed`: the hub is shutting down (the streams end).
 */
export type HubEvent = { type: 'change'; colecao: string } | { type: 'resync' } | { type: 'closed' };

export interface HubLog {
  debug?(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
}

export interface ChangeHub {
  /** Starts listening if not yet; returns the unsubscribe function. */
  subscribe(filter: ChangeFilter, onEvent: (event: HubEvent) => void): () => void;
  /** Resolves once the LISTEN connection is up (starting it if needed). */
  listening(): Promise<void>;
  close(): Promise<void>;
}

export interface ChangeHubOptions {
  connectionString: string;
  log?: HubLog;
  /** First reconnection delay, doubled per failure up to retryMaxMs (defaults 250 ms and 30 s). */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** How long opening the LISTEN connection may take before it counts as a failure to retry. */
  connectTimeoutMs?: number;
}

/** The application_name of the LISTEN connection (it shows in pg_stat_activity). */
export const LISTENER_NAME = 'campo-sync-listener';

export function matches(filter: ChangeFilter, change: SyncChange): boolean {
  if (change.idEmpresa !== filter.idEmpresa) return false;
  return filter.codVendedor === null || change.codVendedor === null || change.codVendedor === filter.codVendedor;
}

function parseChange(payload: string | undefined): SyncChange | null {
  if (!payload) return null;
  try {
    const v = JSON.parse(payload) as Partial<SyncChange>;
    if (typeof v.idEmpresa !== 'number' || typeof v.colecao !== 'string') return null;
    return {
      idEmpresa: v.idEmpresa,
      colecao: v.colecao,
      codVendedor: typeof v.codVendedor === 'number' ? v.codVendedor : null,
      ...(typeof v.requestId === 'string' ? { requestId: v.requestId } : {}),
      ...(typeof v.requests === 'number' ? { requests: v.requests } : {}),
    };
  } catch {
    return null;
  }
}

/**
 * One dedicated LISTEN connection per process, opened lazily by the first subscriber (or
 * `listening()`), reconnected with exponential backoff whenever it drops. After a reconnection
 * every subscriber gets a `resync`, since announcements made meanwhile were not heard.
 */
export function createChangeHub(options: ChangeHubOptions): ChangeHub {
  const log = options.log ?? defaultLog;
  const retryBase = options.retryBaseMs ?? 250;
  const retryMax = options.retryMaxMs ?? 30_000;
  const subscribers = new Set<{ filter: ChangeFilter; onEvent: (e: HubEvent) => void }>();
  let client: pg.Client | null = null;
  let started = false;
  let closed = false;
  let failures = 0;
  let everConnected = false;
  let timer: NodeJS.Timeout | null = null;
  let waiters: (() => void)[] = [];
  let up = false;

  const emit = (change: SyncChange | null) => {
    for (const s of subscribers) {
      if (change === null) s.onEvent({ type: 'resync' });
      else if (matches(s.filter, change)) s.onEvent({ type: 'change', colecao: change.colecao });
    }
  };

  const scheduleReconnect = () => {
    if (closed || timer) return;
    const delay = backoffDelay(failures, retryBase, retryMax);
    failures++;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, delay);
  };

  const connect = async () => {
    if (closed) return;
    const c = new pg.Client({
      connectionString: options.connectionString,
      application_name: LISTENER_NAME,
      connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    });
    let dropped = false;
    const drop = (err?: Error) => {
      if (dropped) return;
      dropped = true;
      up = false;
      if (client === c) client = null;
      c.end().catch(() => undefined);
      if (!closed) {
        // Once per outage: the attempts that fail while the database is away say nothing new.
        if (failures === 0) log.warn('sync listener dropped; reconnecting', { error: err?.message });
        else log.debug?.('sync listener: reconnection failed', { error: err?.message, attempts: failures });
        scheduleReconnect();
      }
    };
    c.on('error', drop);
    c.on('end', () => drop());
    c.on('notification', (msg) => {
      if (msg.channel === SYNC_CHANNEL) {
        const change = parseChange(msg.payload);
        if (change) {
          log.debug?.('sync change heard', { ...change });
          emit(change);
        }
      }
    });
    try {
      await c.connect();
      await c.query(`listen ${SYNC_CHANNEL}`);
    } catch (err) {
      drop(err as Error);
      return;
    }
    if (closed || dropped) {
      c.end().catch(() => undefined);
      return;
    }
    client = c;
    up = true;
    if (everConnected) {
      log.info('sync listener reconnected', { attempts: failures });
      emit(null);
    }
    failures = 0;
    everConnected = true;
    const ready = waiters;
    waiters = [];
    for (const w of ready) w();
  };

  const start = () => {
    if (started || closed) return;
    started = true;
    // The first subscriber is a request: its id must not stick to the listener's lines.
    outsideRequest(() => void connect());
  };

  return {
    subscribe(filter, onEvent) {
      const entry = { filter, onEvent };
      subscribers.add(entry);
      start();
      return () => {
        subscribers.delete(entry);
      };
    },
    listening() {
      start();
      if (up || closed) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push(resolve));
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      for (const s of [...subscribers]) s.onEvent({ type: 'closed' });
      subscribers.clear();
      const ready = waiters;
      waiters = [];
      for (const w of ready) w();
      const c = client;
      client = null;
      up = false;
      if (c) await c.end().catch(() => undefined);
    },
  };
}

/**
 * The SSE answer of GET /sync/stream: `resync` once the hub listens (the device pulls
 * everything from its checkpoints, covering what happened while it was away), then `change`
 * events `{ colecao }` and a `heartbeat` every heartbeatMs, until the client disconnects, or
 * until its session is revoked (user disabled, password reset): the session is checked again
 * (c.var.sessionAlive, set by the auth middleware) before every event after the first, so a
 * revoked session hears nothing more and its stream ends by the next heartbeat at the latest.
 */
export function streamChanges(c: Context<AppEnv>, hub: ChangeHub | undefined, auth: AuthContext, heartbeatMs: number) {
  if (!hub) {
    throw new DomainError(
      'SYNC_STREAM_DISABLED',
      'Este servidor não envia avisos de alteração: sincronize periodicamente.',
    );
  }
  const scope = scopeOf(auth);
  const sessionAlive = c.get('sessionAlive');
  // nginx holds a proxied answer back until its buffer fills unless told not to: a device would
  // hear of a change minutes late, or only with its heartbeat.
  c.header('X-Accel-Buffering', 'no');
  return streamSSE(c, async (stream) => {
    let over = false;
    let chain = Promise.resolve();
    let end: () => void = () => undefined;
    const ended = new Promise<void>((resolve) => {
      end = () => {
        over = true;
        resolve();
      };
      if (stream.aborted) end();
      else stream.onAbort(end);
    });
    const send = (event: string, data: unknown, recheck = true) => {
      chain = chain.then(async () => {
        if (over || stream.aborted) return;
        // A failed check (database away) keeps the stream: it only says when to pull, and every pull is authorised.
        if (recheck && sessionAlive && !(await sessionAlive().catch(() => true))) return end();
        if (!over && !stream.aborted) await stream.writeSSE({ event, data: JSON.stringify(data) });
      });
    };
    const held: HubEvent[] = [];
    let live = false;
    const unsubscribe = hub.subscribe(scope, (e) => {
      if (e.type === 'closed') end();
      else if (!live) held.push(e);
      else if (e.type === 'resync') send('resync', {});
      else send('change', { colecao: e.colecao });
    });
    let heartbeat: NodeJS.Timeout | undefined;
    sseStreamsOpen.inc();
    try {
      await Promise.race([hub.listening(), ended]);
      // Subscribed and listening before resync: nothing committed after the device's pull is missed.
      send('resync', {}, false);
      heartbeat = setInterval(() => send('heartbeat', {}), heartbeatMs);
      live = true;
      for (const e of held) if (e.type === 'change') send('change', { colecao: e.colecao });
      await ended;
    } finally {
      over = true;
      sseStreamsOpen.dec();
      clearInterval(heartbeat);
      unsubscribe();
      await chain.catch(() => undefined);
    }
  });
}
