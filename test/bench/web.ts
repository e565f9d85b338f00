// The built app and the API served in-process over HTTP, for the benchmarks that drive Chromium.
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { SYNC_COLLECTIONS } from '@campo/shared';
import { serve } from '@hono/node-server';
import type pg from 'pg';
import { createApp } from '../../server/src/app.ts';
import { createDb } from '../../server/src/db/kysely.ts';
import { refreshCollection } from '../../server/src/sync/service.ts';
import { BENCH_JWT_SECRET } from './setup.ts';

const WEB_ROOT = fileURLToPath(new URL('../../client/dist/', import.meta.url));

export interface BenchWeb {
  server: Server;
  url: string;
  close(): Promise<void>;
}

type FetchApp = (req: Request) => Response | Promise<Response>;

/**
 * Serves the app from client/dist on a free port, with the tenant's change log already current
 * (the server's schedule keeps it so before anyone logs in); `wrap` puts something in front;
 * `productImagesDir` is the folder of product photos it serves.
 */
export async function serveBenchWeb(
  serverPool: pg.Pool,
  idEmpresa: number,
  wrap?: (fetchApp: FetchApp) => FetchApp,
  productImagesDir?: string,
): Promise<BenchWeb> {
  const app = createApp({
    pool: serverPool,
    webRoot: WEB_ROOT,
    config: {
      jwtSecret: BENCH_JWT_SECRET,
      tokenTtlHours: 1,
      devLogin: false,
      ...(productImagesDir ? { productImages: { dir: productImagesDir } } : {}),
    },
  });
  const server = await new Promise<Server>((resolve) => {
    const fetch: FetchApp = wrap ? wrap((req) => app.fetch(req)) : (req) => app.fetch(req);
    const s = serve({ fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    s.once('listening', () => resolve(s));
  });
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  for (const colecao of SYNC_COLLECTIONS) await refreshCollection(createDb(serverPool), idEmpresa, colecao);
  return {
    server,
    url,
    async close() {
      server.closeAllConnections();
      if (server.listening) await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** The code of the product the server sends last in a first pull (the search that proves the catalog whole). */
export async function lastProductCode(pool: pg.Pool, idEmpresa: number): Promise<string> {
  const { rows } = await pool.query<{ cod: string }>(
    `select dados::json->>'code' as cod from app.sync_alteracoes
      where id_empresa = $1 and colecao = 'produtos' and dados::json->>'active' = 'true'
      order by xid desc, revisao desc limit 1`,
    [idEmpresa],
  );
  return rows[0]?.cod ?? '';
}
