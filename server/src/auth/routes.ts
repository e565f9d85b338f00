import { ZDevLoginRequest, ZLoginRequest, ZSession, ZSessionUser } from '@campo/shared';
import { getConnInfo } from '@hono/node-server/conninfo';
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Db } from '../db/kysely.ts';
import { DomainError } from '../errors.ts';
import type { AppEnv } from '../http/env.ts';
import { bearer, errorResponses, json, problem, router } from '../http/openapi.ts';
import { forwardedEntry } from '../http/proxy.ts';
import { createHashGate, type HashGateOptions } from './hash-gate.ts';
import { devLogin, login } from './service.ts';
import type { TokenSigner } from './tokens.ts';

const loginRoute = createRoute({
  method: 'post',
  path: '/auth/login',
  tags: ['auth'],
  summary: 'Log in with login and password',
  description:
    "A login is unique within its company (tenant), not across companies. With `empresa` (the company's code, its head office's id_empresa) the password is checked against that company's user only. Without it, against every active user holding the login (the same number of checks whatever the login, so an unknown login and a wrong password cost and answer the same: 401 INVALID_CREDENTIALS); a login held by one user logs in, and a login held by several answers 409 LOGIN_COMPANY_REQUIRED when the password opens any of them, the same answer whichever and however many, naming no company: the request is sent again with `empresa`. Attempts are limited per login, company named (or none) and client address (10 within 15 minutes) and per client address across logins (50 within 15 minutes): past either, 429 TOO_MANY_LOGIN_ATTEMPTS with Retry-After until the window passes, even with the right password (docs/security.md). A successful login clears the count of the user it logged in, and no other. 503 LOGIN_BUSY with Retry-After when the server is checking too many passwords at once.",
  request: { body: { required: true, content: { 'application/json': { schema: ZLoginRequest } } } },
  responses: {
    200: json(ZSession, 'A bearer token and who it belongs to'),
    400: errorResponses[400],
    401: problem('Wrong login or password, or a disabled user', 'INVALID_CREDENTIALS'),
    409: problem(
      'The login is held in more than one company and the password opens one of them: send `empresa` (no company is named)',
      'LOGIN_COMPANY_REQUIRED',
    ),
    429: problem(
      'Too many attempts for this login from this address, or from this address: wait Retry-After seconds',
      'TOO_MANY_LOGIN_ATTEMPTS',
    ),
    503: problem('Too many logins being checked at once: retry after Retry-After seconds', 'LOGIN_BUSY'),
  },
});

const devLoginRoute = createRoute({
  method: 'post',
  path: '/auth/dev-login',
  tags: ['auth'],
  summary: 'Development login without password',
  description:
    'Answers only when the server runs with DEV_LOGIN=1, which it refuses in production; 404 otherwise. A login held in several companies needs `empresa` (409 LOGIN_COMPANY_REQUIRED, naming none).',
  request: { body: { required: true, content: { 'application/json': { schema: ZDevLoginRequest } } } },
  responses: {
    200: json(ZSession, 'A bearer token and who it belongs to'),
    400: errorResponses[400],
    401: problem('No active user with this login', 'INVALID_CREDENTIALS'),
    409: problem('The login is held in more than one company: send `empresa`', 'LOGIN_COMPANY_REQUIRED'),
    404: problem('Development login is off (DEV_LOGIN unset)', 'ROUTE_NOT_FOUND'),
  },
});

export const meRoute = createRoute({
  method: 'get',
  path: '/auth/me',
  tags: ['auth'],
  summary: 'Who the token belongs to',
  security: bearer,
  responses: { 200: json(ZSessionUser, 'The caller'), 401: errorResponses[401] },
});

/**
 * The client's address: the socket's, or behind `trustedHops` proxies the X-Forwarded-For entry
 * the outermost trusted proxy added. Each proxy appends the address it was reached from, so
 * that entry is the `trustedHops`-th from the right; everything left of it was written by the
 * client and may be forged (the first entry is whatever the client sent). With fewer entries than
 * hops, the leftmost, as Express's `trust proxy` does. Without this the load balancer's own address
 * would put every user behind one limit.
 */
export function clientAddress(c: Context<AppEnv>, trustedHops: number): string {
  const forwarded = forwardedEntry(c.req.header('x-forwarded-for'), trustedHops);
  if (forwarded) return forwarded.slice(0, 100);
  try {
    return getConnInfo(c).remote.address ?? 'desconhecido';
  } catch {
    // In-process requests (tests, app.request) have no socket.
    return 'desconhecido';
  }
}

export function authRoutes(deps: {
  db: Db;
  signer: TokenSigner;
  devLoginEnabled: boolean;
  /** How many proxies in front of the server append to X-Forwarded-For (TRUST_PROXY); 0: none. */
  trustProxy?: number;
  hashGate?: HashGateOptions;
}) {
  const gate = createHashGate(deps.hashGate);
  return router()
    .openapi(loginRoute, async (c) => {
      const body = c.req.valid('json');
      const address = clientAddress(c, deps.trustProxy ?? 0);
      return c.json(await login(deps.db, deps.signer, body, address, gate), 200);
    })
    .openapi(devLoginRoute, async (c) => {
      if (!deps.devLoginEnabled) {
        throw new DomainError('ROUTE_NOT_FOUND', 'Login de desenvolvimento desativado.');
      }
      const body = c.req.valid('json');
      return c.json(await devLogin(deps.db, deps.signer, body.login, body.empresa), 200);
    });
}
