import { randomUUID } from 'node:crypto';
import type { Hook } from '@hono/zod-openapi';
import type { Context, ErrorHandler, MiddlewareHandler, NotFoundHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { routePath } from 'hono/route';
import { secureHeaders } from 'hono/secure-headers';
import { type DatabaseAvailability, databaseUnavailable, isDatabaseUnavailable } from '../db/availability.ts';
import { DomainError, validationFailed } from '../errors.ts';
import { log, withRequestId } from '../log.ts';
import { httpDuration } from '../metrics.ts';
import type { AppEnv } from './env.ts';
import { fieldErrors, problemResponse } from './problem.ts';

const REQUEST_ID = /^[\w.-]{8,64}$/;

/**
 * Gives every request an id (kept from X-Request-Id when sane), runs the rest of the request
 * with it in the log context (so every line a service writes for it carries it), then logs
 * one JSON line for the request and observes its duration by route pattern.
 */
export const requestLog: MiddlewareHandler<AppEnv> = async (c, next) => {
  const given = c.req.header('x-request-id');
  const requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
  c.set('requestId', requestId);
  c.header('X-Request-Id', requestId);
  const started = performance.now();
  await withRequestId(requestId, next);
  const seconds = (performance.now() - started) / 1000;
  // The pattern of the route that answered, never the raw path: one series per route.
  const pattern = routePath(c);
  const route = !pattern || (c.res.status === 404 && pattern.endsWith('*')) ? 'unmatched' : pattern;
  httpDuration.observe({ method: c.req.method, route, status: String(c.res.status) }, seconds);
  const auth = c.get('auth');
  // Outside the context on purpose: requestId is a field of this line like any other.
  log.info('request', {
    requestId,
    method: c.req.method,
    path: c.req.path,
    route,
    status: c.res.status,
    ms: Math.round(seconds * 10_000) / 10,
    ...(auth ? { tenant: auth.idEmpresa, user: auth.login, role: auth.role } : {}),
  });
};

/**
 * Headers of every answer under /api (errors and 404s included: set after the handler and the
 * error handler ran). `nosniff` so a browser never runs a JSON or problem body as something else;
 * the rest of Hono's secure defaults cost nothing on an API. HSTS is set apart, on every answer
 * of the site and only when it went out over HTTPS (strictTransportSecurity, http/proxy.ts).
 */
export const apiSecurityHeaders: MiddlewareHandler<AppEnv> = secureHeaders({ strictTransportSecurity: false });

/**
 * Answers of the API are per user and often personal (prices, clients, tokens): no browser or
 * shared cache may keep them. The app caches what it needs offline in its own store.
 */
export const noStore: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  // A product's photo may stay on the device (private, never in a shared cache): its route says
  // so on its success; any other answer, and every error, is no-store.
  const own = c.res.headers.get('Cache-Control');
  if (own?.startsWith('private,') && (c.res.status === 200 || c.res.status === 304)) return;
  c.res.headers.set('Cache-Control', 'no-store');
};

/** Largest request body: 1 MiB, enough for a logo (500 KiB) and any form; a replication push (up to 100 documents, an order up to 300 lines each) may take 8 MiB. */
export const BODY_LIMIT_BYTES = 1024 * 1024;
export const SYNC_PUSH_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

const tooLarge = (max: number) =>
  new DomainError('PAYLOAD_TOO_LARGE', `O corpo da requisição passa de ${Math.round(max / 1024)} KiB.`, {
    maxBytes: max,
  });
/**
 * Hono's bodyLimit, with the declared length read from the headers first: Hono's asks the
 * request for its body stream before looking at Content-Length, and on the node adapter that
 * builds the whole WHATWG Request and makes the handler read the body through web streams instead
 * of the adapter's direct read (about a quarter of the API server's CPU per POST /orders,
 * docs/benchmarks.md). Node's parser never delivers more than a valid Content-Length says, and
 * refuses one sent with Transfer-Encoding, so the declared length is the body's; a body without
 * one (chunked, or a Request built in process) is counted as it streams.
 */
export const limitBodyTo = (
  max: number,
  refuse: () => DomainError = () => tooLarge(max),
): MiddlewareHandler<AppEnv> => {
  const streamed = bodyLimit({
    maxSize: max,
    onError: () => {
      throw refuse();
    },
  });
  return (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const declared = c.req.header('content-length');
    if (declared !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (Number(declared) > max) throw refuse();
      return next();
    }
    return streamed(c, next);
  };
};
const limits = new Map([BODY_LIMIT_BYTES, SYNC_PUSH_BODY_LIMIT_BYTES].map((max) => [max, limitBodyTo(max)]));

/**
 * An answer sent before the request's body has arrived whole (a 413, or a 401 or 415 refused
 * before reading) must say `Connection: close`: the node adapter stops reading the rest and
 * destroys the socket once it has drained a little, so keep-alive made a phone reuse a dead
 * socket for its next request and get ECONNRESET. Reading every refused body to the end instead
 * would let anyone make the server read without limit.
 */
export const closeAfterRefusedBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const incoming = (c.env as { incoming?: { complete?: boolean } } | undefined)?.incoming;
  if (c.res.status === 413 || incoming?.complete === false) c.header('Connection', 'close');
};

/** Uploads whose route refuses a body over its own limit (LOGO_TOO_LARGE, VISIT_PHOTO_TOO_LARGE). */
export function ownBodyLimit(path: string): boolean {
  return path.endsWith('/catalog/company/logo') || /\/visits\/[^/]+\/photo$/.test(path);
}

/** Refuses a body over the limit (declared or streamed) with 413 before any handler reads it. */
export const limitBody: MiddlewareHandler<AppEnv> = (c, next) => {
  // The logo and visit photo uploads have their own, tighter limits (500 and 768 KiB) and
  // their own 413 code; wrapping their streams twice would only read further ahead before refusing.
  if (ownBodyLimit(c.req.path)) return next();
  const max = /\/sync\/[^/]+\/push$/.test(c.req.path) ? SYNC_PUSH_BODY_LIMIT_BYTES : BODY_LIMIT_BYTES;
  return (limits.get(max) as MiddlewareHandler<AppEnv>)(c, next);
};

/**
 * NUL in the URL (path or query, `%00`) is refused with 400: no PostgreSQL text holds it and no
 * field of Campo means it. (Bytes that are not UTF-8, such as an encoded lone surrogate, stay
 * percent-encoded ASCII after decoding and are harmless.) Search terms with characters LATIN1
 * lacks are folded by each search (foldSearchText, losslessLikePattern), not refused.
 */
export const refuseNulInUrl: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (/%00/i.test(c.req.url) || c.req.url.includes('\u0000')) {
    throw new DomainError('INVALID_CHARACTER', 'O endereço da requisição tem um caractere nulo.');
  }
  await next();
};

/** PostgreSQL's refusals of text the database's encoding (LATIN1, WIN1252) cannot hold (22P05) or a NUL byte (22021). */
const UNSTORABLE_TEXT = new Set(['22P05', '22021']);

/** Neither a DomainError nor the database away: the unstorable-text safety net, framework refusals, or a 500. */
const unexpected: ErrorHandler<AppEnv> = (err, c) => {
  // Every text input is meant to be escaped, transliterated or folded before it reaches the
  // database; should one be missed, the person gets a 400 that says why, never a 500.
  const pgCode = (err as { code?: unknown }).code;
  if (typeof pgCode === 'string' && UNSTORABLE_TEXT.has(pgCode)) {
    log.warn('text the database cannot hold reached it', { requestId: c.get('requestId'), path: c.req.path, pgCode });
    return problemResponse(
      c,
      new DomainError(
        'UNSUPPORTED_CHARACTER',
        'Um dos textos enviados tem um caractere que não pode ser gravado (por exemplo um caractere nulo).',
      ),
    );
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    if (status === 400 && /json/i.test(err.message)) {
      return problemResponse(c, new DomainError('MALFORMED_JSON', 'O corpo não é um JSON válido.'));
    }
    const detail = err.message || 'A requisição foi recusada.';
    if (status === 413) return problemResponse(c, new DomainError('PAYLOAD_TOO_LARGE', detail));
    if (status === 401) return problemResponse(c, new DomainError('UNAUTHORIZED', detail));
    // Whatever else the framework refuses keeps the framework's status.
    return problemResponse(c, new DomainError('HTTP_ERROR', detail), status);
  }
  if (err instanceof SyntaxError) {
    return problemResponse(c, new DomainError('MALFORMED_JSON', 'O corpo não é um JSON válido.'));
  }
  log.error('unhandled error', {
    requestId: c.get('requestId'),
    path: c.req.path,
    error: err instanceof Error ? { message: err.message, stack: err.stack } : String(err),
  });
  return problemResponse(
    c,
    new DomainError('INTERNAL_ERROR', 'Ocorreu um erro inesperado. Informe o requestId ao suporte.'),
  );
};

/**
 * Errors become problems; anything unexpected is logged with its stack and answered without it.
 * The database away is not unexpected: 503 DATABASE_UNAVAILABLE with Retry-After, reported to
 * the pool's tracker (`database`), which logs the outage once rather than once per request.
 */
export const errorHandler =
  (database?: DatabaseAvailability): ErrorHandler<AppEnv> =>
  (err, c) => {
    if (err instanceof DomainError && err.isProblem()) return problemResponse(c, err);
    if (database ? database.failed(err) : isDatabaseUnavailable(err)) return problemResponse(c, databaseUnavailable());
    return unexpected(err, c);
  };

export const notFound: NotFoundHandler<AppEnv> = (c) =>
  problemResponse(c, new DomainError('ROUTE_NOT_FOUND', `${c.req.method} ${c.req.path}`));

/** Validation failures of any route: 400 with every bad field listed. */
// biome-ignore lint/suspicious/noExplicitAny: the hook is shared by routes of every input type
export const validationHook: Hook<any, AppEnv, any, any> = (result, c: Context<AppEnv>) => {
  if (!result.success)
    return problemResponse(
      c,
      validationFailed(fieldErrors(result.error, result.target === 'json' ? 'body' : result.target)),
    );
};
