import { serve } from '@hono/node-server';
import { createApp } from '../app.ts';
import { loadServerConfig, pushSettings } from '../config.ts';
import { createDb } from '../db/kysely.ts';
import { createPool } from '../db/pool.ts';
import { log } from '../log.ts';
import { metricsApp, recordRefresh, watchOutboxDepth } from '../metrics.ts';
import { startPushWorker } from '../notifications/worker.ts';
import { startSyncRefresher } from '../sync/schedule.ts';
import { createChangeHub } from '../sync/stream.ts';
import { builtWebRoot, defaultWebRoot } from '../web/routes.ts';

export async function serveCommand(opts: { port?: string }): Promise<void> {
  const config = loadServerConfig(opts.port ? { ...process.env, PORT: opts.port } : process.env);
  const pool = createPool(config.DATABASE_URL);
  const push = pushSettings(config);
  // One LISTEN connection per process, for GET /sync/stream (opened by the first stream).
  const hub = createChangeHub({ connectionString: config.DATABASE_URL, log });
  const webRoot = config.WEB_ROOT ? builtWebRoot(config.WEB_ROOT) : defaultWebRoot();
  if (!webRoot) {
    log.warn('the app is not built: serving the API only; run `pnpm -F @campo/client build` for the app at /', {
      webRoot: config.WEB_ROOT ?? 'client/dist',
    });
  }
  const app = createApp({
    pool,
    hub,
    ...(webRoot ? { webRoot } : {}),
    config: {
      jwtSecret: config.JWT_SECRET,
      tokenTtlHours: config.TOKEN_TTL_HOURS,
      devLogin: config.DEV_LOGIN === '1',
      trustProxy: config.TRUST_PROXY,
      push,
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
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      // Ctrl-C reaches a whole process group, and a supervisor may send SIGTERM as well.
      if (stopping) return;
      stopping = true;
      log.info('stopping', { signal });
      // Closing the hub first ends the open event streams, which would otherwise keep the
      // server from closing.
      metricsServer?.close();
      void hub.close().finally(() =>
        server.close(() => {
          void Promise.all([pushWorker?.stop(), refresher.stop()]).finally(() => pool.end().finally(resolve));
        }),
      );
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}
