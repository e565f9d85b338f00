import { serve } from '@hono/node-server';
import type { Pool } from 'pg';
import { createApp } from '../app.ts';
import { noticesSent } from '../changelog/notices.ts';
import { loadServerConfig, pushSettings } from '../config.ts';
import { createDb } from '../db/kysely.ts';
import { createPool } from '../db/pool.ts';
import { log } from '../log.ts';
import { metricsApp, pullPagesByServer, recordRefresh, watchOutboxDepth } from '../metrics.ts';
import { startPushWorker } from '../notifications/worker.ts';
import { startSyncRefresher } from '../sync/schedule.ts';
import { createChangeHub } from '../sync/stream.ts';
import { builtWebRoot, defaultWebRoot } from '../web/routes.ts';
import { preflightLine, preflightProblems } from './preflight.ts';
import { gracefulServer } from './shutdown.ts';

/** Exit code of `campo serve` when the database is not one it can serve (docs/deployment.md). */
export const EXIT_NOT_READY = 3;

/** Refuses to start, with one line on stderr, rather than answer 500 on the first request. */
async function refuseUnlessReady(pool: Pool): Promise<void> {
  let problems: string[];
  try {
    problems = await preflightProblems(pool);
  } catch (err) {
    problems = [];
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`campo: cannot check the database in DATABASE_URL: ${message.split('\n')[0]}\n`);
    await pool.end().catch(() => undefined);
    process.exit(EXIT_NOT_READY);
  }
  if (problems.length === 0) return;
  process.stderr.write(`campo: ${preflightLine(problems)}\n`);
  await pool.end().catch(() => undefined);
  process.exit(EXIT_NOT_READY);
}

export async function serveCommand(opts: { port?: string }): Promise<void> {
  const config = loadServerConfig(opts.port ? { ...process.env, PORT: opts.port } : process.env);
  const poolOptions = {
    prepared: config.DATABASE_PREPARED_STATEMENTS === '1',
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_SECONDS * 1000,
  };
  const pool = createPool(config.DATABASE_URL, config.DATABASE_POOL_SIZE, poolOptions);
  // The pull's fast path alone reads the standby (docs/deployment.md, "Scaling past one machine", 3).
  const replicaPool = config.DATABASE_REPLICA_URL
    ? createPool(config.DATABASE_REPLICA_URL, config.DATABASE_POOL_SIZE, poolOptions)
    : null;
  await refuseUnlessReady(pool);
  const push = pushSettings(config);
  // One LISTEN connection per process, for GET /sync/stream (opened by the first stream). A
  // LISTEN belongs to its session: not through a transaction pooler (docs/deployment.md).
  const hub = createChangeHub({
    connectionString: config.DATABASE_DIRECT_URL ?? config.DATABASE_URL,
    log,
    connectTimeoutMs: poolOptions.connectTimeoutMs,
  });
  const webRoot = config.WEB_ROOT ? builtWebRoot(config.WEB_ROOT) : defaultWebRoot();
  if (!webRoot) {
    log.warn('the app is not built: serving the API only; run `pnpm -F @campo/client build` for the app at /', {
      webRoot: config.WEB_ROOT ?? 'client/dist',
    });
  }
  const app = createApp({
    pool,
    hub,
    ...(replicaPool
      ? { pullReplica: { pool: replicaPool, onPage: (source) => pullPagesByServer.inc({ source }) } }
      : {}),
    ...(webRoot ? { webRoot } : {}),
    config: {
      jwtSecret: config.JWT_SECRET,
      tokenTtlHours: config.TOKEN_TTL_HOURS,
      devLogin: config.DEV_LOGIN === '1',
      trustProxy: config.TRUST_PROXY,
      hstsMaxAgeSeconds: config.HSTS_MAX_AGE_SECONDS,
      push,
      syncGate: { maxDevices: config.SYNC_DOWNLOADS, maxWaitMs: config.SYNC_QUEUE_SECONDS * 1000 },
      syncPageCache: { maxBytes: config.SYNC_PAGE_CACHE_MB * 2 ** 20 },
      productImages: {
        ...(config.PRODUCT_IMAGES_DIR ? { dir: config.PRODUCT_IMAGES_DIR } : {}),
        fetchUrls: config.PRODUCT_IMAGES_URLS === '1',
        cacheBytes: config.PRODUCT_IMAGES_CACHE_MB * 2 ** 20,
      },
      ...(config.MAP_TILE_URL ? { mapTileUrl: config.MAP_TILE_URL } : {}),
      ...(config.MAP_TILE_ATTRIBUTION ? { mapTileAttribution: config.MAP_TILE_ATTRIBUTION } : {}),
    },
  });
  // Every process drains the push outbox; SKIP LOCKED keeps them from sending a message twice.
  const pushWorker = push.vapid ? startPushWorker({ pool, vapid: push.vapid, log }) : null;
  if (!pushWorker) log.warn('push notifications disabled: set VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT');
  const refresher = startSyncRefresher({
    db: createDb(pool),
    intervalSeconds: config.SYNC_REFRESH_SECONDS,
    log,
    onRefreshed: recordRefresh,
  });
  watchOutboxDepth(pool);
  // Its own port, which the load balancer does not forward: GET /metrics needs no token.
  const metricsServer =
    config.METRICS_PORT === undefined
      ? null
      : serve({ fetch: metricsApp().fetch, port: config.METRICS_PORT, hostname: config.HOST }, (info) => {
          log.info('metrics listening', { metricsPort: info.port, url: `http://localhost:${info.port}/metrics` });
        });
  const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
    log.info('listening', { port: info.port, url: `http://localhost:${info.port}` });
  });
  const graceful = gracefulServer(server, log);
  const signal = await new Promise<string>((resolve) => {
    // Ctrl-C reaches a whole process group, and a supervisor may send SIGTERM as well: the
    // first signal starts the shutdown, later ones change nothing.
    process.on('SIGINT', () => resolve('SIGINT'));
    process.on('SIGTERM', () => resolve('SIGTERM'));
  });
  log.info('stopping', { signal, inFlight: graceful.inFlight(), graceSeconds: config.SHUTDOWN_GRACE_SECONDS });
  const orderly = await graceful.shutdown({
    graceMs: config.SHUTDOWN_GRACE_SECONDS * 1000,
    // The change streams end first: they never end by themselves.
    beforeClose: async () => {
      metricsServer?.close();
      await hub.close();
    },
    cleanup: async () => {
      await Promise.all([pushWorker?.stop(), refresher.stop()]);
      // The orders answered before the shutdown: their change notices still go out.
      await noticesSent(pool);
      await pool.end();
      await replicaPool?.end();
    },
  });
  log.info('stopped', { orderly });
  // Whatever is still pending (a query of a request cut at the end of the grace period, a
  // timer) must not keep the process alive past the grace period a supervisor counts on.
  process.exit(0);
}
