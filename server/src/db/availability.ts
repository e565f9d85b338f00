// The database away: restarting, failing over, its connections killed, or refusing new ones.
// Nothing is wrong with the request then, and the same request succeeds once the database is
// back, so the answer is 503 DATABASE_UNAVAILABLE with Retry-After, never 500 INTERNAL_ERROR
// (which says "bug" to the operator and to every client). The outage is logged once, as what
// it is, when it starts and when it ends, rather than as a stack trace per request; the pool
// recovers by itself (pg.Pool discards broken clients and connects anew), so no restart.
import type pg from 'pg';
import { DomainError } from '../errors.ts';
import { log as defaultLog, outsideRequest } from '../log.ts';
import { databaseAvailable } from '../metrics.ts';

/** Seconds a client is asked to wait: about what a PostgreSQL restart or a failover takes. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * SQLSTATEs of a server going away or not taking connections: admin_shutdown (57P01, a fast or
 * immediate stop, pg_terminate_backend), crash_shutdown (57P02), cannot_connect_now (57P03,
 * starting up or shutting down), idle_session_timeout (57P05), too_many_connections (53300),
 * and class 08, connection exceptions, but for 08P01: a protocol violation is a bug of the
 * client, and the same request would fail again.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '57P05', '53300']);
const isConnectionException = (code: string) => /^08[0-9A-Z]{3}$/.test(code) && code !== '08P01';

/** What the socket says when the server cannot be reached or the connection breaks. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * node-postgres' own messages for a connection lost or never made: the socket closed under a
 * query ("Connection terminated unexpectedly"), a query sent to a client already broken, the
 * pool's or the client's connection timeout.
 */
const DRIVER_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|Connection terminated due to connection timeout)/;

/** Whether `err` says the database cannot be reached right now (rather than refusing this statement). */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (typeof err !== 'object' || err === null || depth > 3) return false;
  const { code, message, cause, errors } = err as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string') {
    if (UNAVAILABLE_SQLSTATES.has(code) || isConnectionException(code) || NETWORK_CODES.has(code)) return true;
  }
  if (typeof message === 'string' && DRIVER_MESSAGES.test(message)) return true;
  // A host name with several addresses (localhost: ::1 and 127.0.0.1) fails with an AggregateError.
  if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}

/** The answer while the database is away. */
export const databaseUnavailable = (): DomainError<'DATABASE_UNAVAILABLE'> =>
  new DomainError(
    'DATABASE_UNAVAILABLE',
    'O banco de dados está indisponível no momento (reiniciando ou sem conexão). Tente de novo em alguns segundos.',
    { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS },
  );

export interface AvailabilityLog {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
}

/** One pool's view of whether its database answers; every part of the process reports here. */
export interface DatabaseAvailability {
  readonly available: boolean;
  /**
   * Whether `err` says the database is away. The first such failure of an outage is logged (a
   * warning) and starts a probe that notices the end; later ones are only counted.
   */
  failed(err: unknown): boolean;
  /** A statement went through: an outage, if any, is over. */
  succeeded(): void;
}

export interface AvailabilityOptions {
  log?: AvailabilityLog;
  /** First probe after the outage starts, doubled up to probeMaxMs (defaults 500 ms and 5 s). */
  probeMs?: number;
  probeMaxMs?: number;
}

const trackers = new WeakMap<pg.Pool, DatabaseAvailability>();

/**
 * The tracker of `pool`'s database, made by the first caller (the app, the readiness route,
 * the push worker and the refresh schedule share it, so an outage is logged once whoever saw it).
 */
export function availabilityOf(pool: pg.Pool, options: AvailabilityOptions = {}): DatabaseAvailability {
  let tracker = trackers.get(pool);
  if (!tracker) {
    tracker = createAvailability(pool, options);
    trackers.set(pool, tracker);
  }
  return tracker;
}

function createAvailability(pool: pg.Pool, options: AvailabilityOptions): DatabaseAvailability {
  const log = options.log ?? defaultLog;
  const probeMs = options.probeMs ?? 500;
  const probeMaxMs = options.probeMaxMs ?? 5000;
  let since: number | null = null;
  let refused = 0;
  let timer: NodeJS.Timeout | null = null;

  const back = () => {
    if (since === null) return;
    if (timer) clearTimeout(timer);
    timer = null;
    const unavailableMs = Date.now() - since;
    // The outage's end belongs to no request, whichever noticed it.
    outsideRequest(() => log.info('database available again', { unavailableMs, failures: refused }));
    since = null;
    refused = 0;
    databaseAvailable.set(1);
  };

  // Requests alone would notice the end only at the next one, and the first probe waits a
  // little: the statements that were in flight when the connections broke all fail within a
  // moment, and belong to the same outage.
  const probe = (delay: number) => {
    timer = setTimeout(() => {
      timer = null;
      if (since === null || pool.ending) return;
      pool.query('select 1').then(back, () => {
        if (since !== null && !pool.ending) probe(Math.min(delay * 2, probeMaxMs));
      });
    }, delay);
    // The probe alone must not keep a process alive that is otherwise done.
    timer.unref();
  };

  return {
    get available() {
      return since === null;
    },
    failed(err) {
      if (!isDatabaseUnavailable(err)) return false;
      refused++;
      if (since !== null) return true;
      since = Date.now();
      databaseAvailable.set(0);
      const e = err as { message?: unknown; code?: unknown };
      log.warn('database unavailable: answering 503 DATABASE_UNAVAILABLE until it is back', {
        error: typeof e.message === 'string' ? e.message : String(err),
        ...(typeof e.code === 'string' ? { code: e.code } : {}),
      });
      // The warning names the request that met the outage first; the probe's lines name none.
      outsideRequest(() => probe(probeMs));
      return true;
    },
    succeeded: back,
  };
}
