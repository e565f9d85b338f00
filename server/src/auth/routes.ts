import { ZDevLoginRequest, ZLoginRequest, ZSession, ZSessionUser } from '@campo/shared';
import { getConnInfo } from '@hono/node-server/conninfo';
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Db } from '../db/kysely.ts';
import type { AppEnv } from '../http/env.ts';
import { bearer, errorResponses, json, problem, router } from '../http/openapi.ts';
import { HttpProblem } from '../http/problem.ts';
import { devLogin, login } from './service.ts';
import type { TokenSigner } from './tokens.ts';

const loginRoute = createRoute({
  method: 'post',
  path: '/auth/login',
  tags: ['auth'],
  summary: 'Log in with login and password',
  description:
    'Failed attempts are limited per login and client address: after 10 within 15 minutes, 429 TOO_MANY_LOGIN_ATTEMPTS with Retry-After until the window passes (docs/security.md). A successful login clears the count.',
  request: { body: { required: true, content: { 'application/json': { schema: ZLoginRequest } } } },
  responses: {
    200: json(ZSession, 'A bearer token and who it belongs to'),
    400: errorResponses[400],
    401: errorResponses[401],
    429: problem('Too many failed attempts for this login from this address: wait Retry-After seconds'),
  },
});

const devLoginRoute = createRoute({
  method: 'post',
  path: '/auth/dev-login',
  tags: ['auth'],
  summary: 'Development login without password',
  description: 'Answers only when the server runs with DEV_LOGIN=1, which it refuses in production; 404 otherwise.',
  request: { body: { required: true, content: { 'application/json': { schema: ZDevLoginRequest } } } },
  responses: {
    200: json(ZSession, 'A bearer token and who it belongs to'),
    400: errorResponses[400],
    401: errorResponses[401],
    404: errorResponses[404],
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
 * The client's address: the socket's, or with trustProxy the first X-Forwarded-For entry (the
 * load balancer's own address would otherwise put every user behind one limit).
 */
function clientAddress(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded.slice(0, 100);
  }
  try {
    return getConnInfo(c).remote.address ?? 'desconhecido';
  } catch {
    // In-process requests (tests, app.request) have no socket.
    return 'desconhecido';
  }
}

export function authRoutes(deps: { db: Db; signer: TokenSigner; devLoginEnabled: boolean; trustProxy?: boolean }) {
  return router()
    .openapi(loginRoute, async (c) => {
      const body = c.req.valid('json');
      const address = clientAddress(c, deps.trustProxy ?? false);
      return c.json(await login(deps.db, deps.signer, body.login, body.password, address), 200);
    })
    .openapi(devLoginRoute, async (c) => {
      if (!deps.devLoginEnabled) {
        throw new HttpProblem(404, 'ROUTE_NOT_FOUND', 'Rota não encontrada', 'Login de desenvolvimento desativado.');
      }
      return c.json(await devLogin(deps.db, deps.signer, c.req.valid('json').login), 200);
    });
}
