import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { unauthorized } from '../errors.ts';
import type { AppEnv } from '../http/env.ts';
import type { Authenticator } from './service.ts';

/** Requires a valid bearer token; the caller lands in c.var.auth. */
export function requireAuth(authenticate: Authenticator): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // No route but middleware matched: let it fall through to the 404 problem.
    if (!matchedRoutes(c).some((r) => r.method !== 'ALL')) return next();
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+([\w-]+\.[\w-]+\.[\w-]+)$/i.exec(header);
    if (!match?.[1]) throw unauthorized();
    const auth = await authenticate(match[1]);
    if (!auth) {
      c.header('WWW-Authenticate', 'Bearer error="invalid_token"');
      throw unauthorized('Sessão expirada ou revogada. Faça login novamente.');
    }
    c.set('auth', auth);
    const token = match[1];
    c.set('sessionAlive', async () => (await authenticate(token)) !== null);
    await next();
  };
}
