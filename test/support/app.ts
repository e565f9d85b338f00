import type pg from 'pg';
import { type AppConfig, createApp } from '../../server/src/app.ts';
import type { ChangeHub } from '../../server/src/sync/stream.ts';
import { serverRolePool } from './pg.ts';
import { checkedFetch } from './response-contract.ts';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256!';

/**
 * The API on the test database. It connects as the server's role (not the superuser the test
 * uses for set-up), so row-level security binds it as it does in production; `asOwner` keeps
 * the given pool, for tests of an unprovisioned database.
 */
export function testApp(
  pool: pg.Pool,
  config: Partial<AppConfig> = {},
  options: { asOwner?: boolean; hub?: ChangeHub; webRoot?: string; syncMinVersion?: number } = {},
) {
  const url = pool.options.connectionString;
  const serverPool = !options.asOwner && url ? serverRolePool(url) : pool;
  const app = createApp({
    pool: serverPool,
    ...(options.hub ? { hub: options.hub } : {}),
    ...(options.webRoot ? { webRoot: options.webRoot } : {}),
    ...(options.syncMinVersion ? { syncMinVersion: options.syncMinVersion } : {}),
    config: { jwtSecret: TEST_JWT_SECRET, tokenTtlHours: 1, devLogin: false, ...config },
  });
  // Every answer, through app.request or app.fetch (browser and replication tests too), is
  // checked against its route's schema in the OpenAPI document (response-contract.ts).
  app.fetch = checkedFetch(app.fetch);
  return app;
}
