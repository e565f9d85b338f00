// Errors the app could not handle, reported by client/src/error-reporting.ts, so operators see
// them in the same logs as the server's. Public (an error may come before or after a login),
// small (16 KiB), and rate-limited per user, or per address without a valid token: a broken
// build in a loop must not flood the logs.

import { CLIENT_ERROR_MAX_BYTES, ZClientError } from '@campo/shared';
import { plural } from '@campo/shared/format';
import { createRoute } from '@hono/zod-openapi';
import { clientAddress } from '../auth/routes.ts';
import type { TokenSigner } from '../auth/tokens.ts';
import { DomainError } from '../errors.ts';
import { limitBodyTo } from '../http/middleware.ts';
import { problem, router } from '../http/openapi.ts';
import { log } from '../log.ts';

/** Reports one user (or address) may send per window; more answer 429 and are not logged. */
export const CLIENT_ERROR_LIMIT = 10;
export const CLIENT_ERROR_WINDOW_MS = 60_000;

const route = createRoute({
  method: 'post',
  path: '/client-errors',
  tags: ['health'],
  summary: 'Report an error the app could not handle',
  description: `Logged as one warn line (\`client error\`) with the user when the bearer token is valid. No token needed. At most ${CLIENT_ERROR_LIMIT} reports a minute per user, or per address without a token; the body is at most ${CLIENT_ERROR_MAX_BYTES / 1024} KiB.`,
  request: { body: { content: { 'application/json': { schema: ZClientError } }, required: true } },
  responses: {
    204: { description: 'Logged' },
    400: problem('Invalid report: every bad field is listed in `errors`', 'VALIDATION_FAILED'),
    413: problem('Report larger than 16 KiB', 'PAYLOAD_TOO_LARGE'),
    429: problem(
      'Too many reports from this user or address; `retryAfterSeconds` says when to try again',
      'TOO_MANY_CLIENT_ERRORS',
    ),
  },
});

/** A fixed window per key, in this process's memory: enough to keep one device from flooding. */
export function createWindowLimiter(limit: number, windowMs: number, now = () => Date.now()) {
  const windows = new Map<string, { start: number; count: number }>();
  return (key: string): number | null => {
    const t = now();
    if (windows.size > 10_000) {
      for (const [k, w] of windows) if (t - w.start >= windowMs) windows.delete(k);
    }
    let w = windows.get(key);
    if (!w || t - w.start >= windowMs) {
      w = { start: t, count: 0 };
      windows.set(key, w);
    }
    w.count++;
    // null: allowed; otherwise the seconds until the window ends.
    return w.count <= limit ? null : Math.max(1, Math.ceil((w.start + windowMs - t) / 1000));
  };
}

export function clientErrorRoutes(deps: { signer: TokenSigner; trustProxy?: number; limit?: number }) {
  const allow = createWindowLimiter(deps.limit ?? CLIENT_ERROR_LIMIT, CLIENT_ERROR_WINDOW_MS);
  const app = router();
  app.use(
    '/client-errors',
    limitBodyTo(
      CLIENT_ERROR_MAX_BYTES,
      () =>
        new DomainError('PAYLOAD_TOO_LARGE', `O relatório de erro passa de ${CLIENT_ERROR_MAX_BYTES / 1024} KiB.`, {
          maxBytes: CLIENT_ERROR_MAX_BYTES,
        }),
    ),
  );
  return app.openapi(route, async (c) => {
    const token = c.req.header('authorization')?.match(/^Bearer (\S+)$/i)?.[1];
    const claims = token ? await deps.signer.verify(token) : null;
    const address = clientAddress(c, deps.trustProxy ?? 0);
    const wait = allow(claims ? `user:${claims.userId}` : `addr:${address}`);
    if (wait !== null) {
      throw new DomainError(
        'TOO_MANY_CLIENT_ERRORS',
        `Muitos relatórios de erro em pouco tempo. Tente de novo em ${plural(wait, 'segundo', 'segundos')}.`,
        { retryAfterSeconds: wait },
      );
    }
    const report = c.req.valid('json');
    log.warn('client error', {
      ...report,
      address,
      ...(claims ? { userId: claims.userId, tenant: claims.idEmpresa, role: claims.role } : {}),
      userAgent: c.req.header('user-agent')?.slice(0, 300),
    });
    return c.body(null, 204);
  });
}
