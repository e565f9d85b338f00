import { ZDevLoginRequest, ZLoginRequest, ZSession, ZSessionUser } from '@campo/shared';
import { createRoute } from '@hono/zod-openapi';
import type { Db } from '../db/kysely.ts';
import { bearer, errorResponses, json, router } from '../http/openapi.ts';
import { HttpProblem } from '../http/problem.ts';
import { devLogin, login } from './service.ts';
import type { TokenSigner } from './tokens.ts';

const loginRoute = createRoute({
  method: 'post',
  path: '/auth/login',
  tags: ['auth'],
  summary: 'Log in with login and password',
  request: { body: { required: true, content: { 'application/json': { schema: ZLoginRequest } } } },
  responses: {
    200: json(ZSession, 'A bearer token and who it belongs to'),
    400: errorResponses[400],
    401: errorResponses[401],
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

export function authRoutes(deps: { db: Db; signer: TokenSigner; devLoginEnabled: boolean }) {
  return router()
    .openapi(loginRoute, async (c) => {
      const body = c.req.valid('json');
      return c.json(await login(deps.db, deps.signer, body.login, body.password), 200);
    })
    .openapi(devLoginRoute, async (c) => {
      if (!deps.devLoginEnabled) {
        throw new HttpProblem(404, 'ROUTE_NOT_FOUND', 'Rota não encontrada', 'Login de desenvolvimento desativado.');
      }
      return c.json(await devLogin(deps.db, deps.signer, c.req.valid('json').login), 200);
    });
}
