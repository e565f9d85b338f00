// Structured JSON lines on stdout (pino): one object per event, so a log shipper needs no
// parser. Every line written while a request is being served carries that request's id,
// whoever writes it (a service, the SSE stream, the error handler): the id lives in an
// AsyncLocalStorage the request middleware opens, and pino's mixin reads it per line.
import { AsyncLocalStorage } from 'node:async_hooks';
import { pino } from 'pino';

type Fields = Record<string, unknown>;

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
type Level = (typeof LEVELS)[number];

function levelOf(value: string | undefined): Level {
  const v = value?.trim().toLowerCase();
  // A mistyped LOG_LEVEL must not stop the server: it logs at info, the production default.
  return LEVELS.includes(v as Level) ? (v as Level) : 'info';
}

/** What the logs must never hold: credentials in headers, and passwords in any logged object. */
export const REDACTED_PATHS = [
  'authorization',
  'cookie',
  'password',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  '*.authorization',
  '*.cookie',
  '*.password',
  '*.newPassword',
  '*.headers.authorization',
  '*.headers.cookie',
];

interface RequestContext {
  requestId: string;
}

const requestContext = new AsyncLocalStorage<RequestContext>();

/** Runs fn with requestId attached to every log line written inside it, however deep or late. */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return requestContext.run({ requestId }, fn);
}

/**
 * Runs fn outside any request's log context: for long-lived things a request happens to start
 * (the LISTEN connection opened by the first stream), whose later lines belong to no request.
 */
export function outsideRequest<T>(fn: () => T): T {
  return requestContext.exit(fn);
}

/** The id of the request being served, if any (e.g. to record it on an outbox row). */
export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}

// process.stdout rather than pino's own file descriptor writer: on Linux it writes pipes and
// files synchronously as well, and tests can watch what is written.
export function createLogger(destination: pino.DestinationStream = process.stdout) {
  return pino(
    {
      // LOG_LEVEL=warn keeps request lines out of test output; production logs info and up.
      level: levelOf(process.env.LOG_LEVEL),
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      mixin: () => {
        const ctx = requestContext.getStore();
        return ctx ? { requestId: ctx.requestId } : {};
      },
      // A requestId given explicitly (the push worker logging the request that queued a
      // message) wins over the one of the context it is written in.
      mixinMergeStrategy: (merge, mixin) => Object.assign(mixin, merge),
    },
    destination,
  );
}

/** The process's pino logger; `logger.level` may be changed at run time (tests do). */
export const logger = createLogger();

/** The call shape Campo's code uses: message first, then the fields of the line. */
export const log = {
  debug: (msg: string, fields?: Fields) => logger.debug(fields ?? {}, msg),
  info: (msg: string, fields?: Fields) => logger.info(fields ?? {}, msg),
  warn: (msg: string, fields?: Fields) => logger.warn(fields ?? {}, msg),
  error: (msg: string, fields?: Fields) => logger.error(fields ?? {}, msg),
};
