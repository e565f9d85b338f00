// Prometheus metrics (prom-client), one registry per process. `campo serve` publishes it at
// GET /metrics on METRICS_PORT, a port of its own that the load balancer does not forward,
// so the API needs no token for it and the figures never leave the private network
// (docs/deployment.md, "Metrics"). Everything here only counts: no metric can fail a request.
import { Hono } from 'hono';
import type pg from 'pg';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

export const registry = new Registry();
// CPU, memory, event-loop delay, GC: what tells a slow process from a slow database.
collectDefaultMetrics({ register: registry });

export const httpDuration = new Histogram({
  name: 'campo_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method, route pattern (e.g. /api/v1/orders/:id) and status',
  labelNames: ['method', 'route', 'status'] as const,
  // From a cached catalog read to a large replication push.
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

const poolAcquire = new Histogram({
  name: 'campo_db_pool_acquire_seconds',
  help: 'Time a query or transaction waited for a connection of the database pool',
  buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

// Pools are held weakly: tests build many apps over pools they end; a gauge must not keep them.
const pools = new Set<WeakRef<pg.Pool>>();
const instrumented = new WeakSet<pg.Pool>();
const livePools = () => {
  const out: pg.Pool[] = [];
  for (const ref of pools) {
    const p = ref.deref();
    if (p) out.push(p);
    else pools.delete(ref);
  }
  return out;
};
const poolGauge = (name: string, help: string, read: (p: pg.Pool) => number) =>
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(livePools().reduce((n, p) => n + read(p), 0));
    },
  });
poolGauge(
  'campo_db_pool_waiting',
  'Queries and transactions waiting for a free pool connection now',
  (p) => p.waitingCount,
);
poolGauge('campo_db_pool_connections', 'Connections the pool holds now (idle and in use)', (p) => p.totalCount);
poolGauge('campo_db_pool_idle', 'Idle connections of the pool now', (p) => p.idleCount);

/** Counts a pool's waits: every pool.query and Kysely transaction goes through pool.connect. */
export function instrumentPool(pool: pg.Pool): void {
  if (instrumented.has(pool)) return;
  instrumented.add(pool);
  pools.add(new WeakRef(pool));
  const connect = pool.connect.bind(pool) as (cb?: (...args: unknown[]) => void) => unknown;
  (pool as { connect: unknown }).connect = (cb?: (...args: unknown[]) => void) => {
    const end = poolAcquire.startTimer();
    if (cb) {
      return connect((...args: unknown[]) => {
        end();
        cb(...args);
      });
    }
    return (connect() as Promise<pg.PoolClient>).finally(end);
  };
}

export const sseStreamsOpen = new Gauge({
  name: 'campo_sse_streams_open',
  help: 'GET /sync/stream event streams open now on this process',
  registers: [registry],
});

export const databaseAvailable = new Gauge({
  name: 'campo_database_available',
  help: 'Whether the database answers, as this process last saw it: 0 from the first request answered 503 DATABASE_UNAVAILABLE until a statement goes through again',
  registers: [registry],
});
databaseAvailable.set(1);

const refreshDuration = new Histogram({
  name: 'campo_sync_refresh_duration_seconds',
  help: "Time to refresh one tenant's replication change log, by outcome (ok, error)",
  labelNames: ['outcome'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
  registers: [registry],
});
const lastRefreshed = new Map<number, number>();
const startedAt = Date.now();
new Gauge({
  name: 'campo_sync_refresh_lag_seconds',
  help: 'Seconds since the least recently refreshed tenant was last refreshed without error (since start before the first)',
  registers: [registry],
  collect() {
    const oldest = lastRefreshed.size ? Math.min(...lastRefreshed.values()) : startedAt;
    this.set((Date.now() - oldest) / 1000);
  },
});

export const pullPagesByServer = new Counter({
  name: 'campo_sync_pull_pages_total',
  help: 'Pull pages read with DATABASE_REPLICA_URL set, by where: replica (the standby had replayed far enough) or primary (it had not, or failed)',
  labelNames: ['source'] as const,
  registers: [registry],
});

/** The refresh schedule's hook (sync/schedule.ts): one call per tenant refreshed. */
export function recordRefresh(r: { idEmpresa: number; ms: number; ok: boolean }): void {
  refreshDuration.observe({ outcome: r.ok ? 'ok' : 'error' }, r.ms / 1000);
  if (r.ok) lastRefreshed.set(r.idEmpresa, Date.now());
}

export const pushGivenUp = new Counter({
  name: 'campo_push_given_up_total',
  help: 'Push messages given up (attempts exhausted, expired, or refused by the push service)',
  registers: [registry],
});
export const pushDeliveries = new Counter({
  name: 'campo_push_deliveries_total',
  help: 'Push requests a push service accepted',
  registers: [registry],
});

let outboxPool: pg.Pool | null = null;
new Gauge({
  name: 'campo_push_outbox_depth',
  help: 'Push messages waiting in app.push_outbox (not sent, not given up), every tenant',
  registers: [registry],
  async collect() {
    if (!outboxPool) return;
    try {
      const { rows } = await outboxPool.query<{ n: number }>('select app.push_outbox_pendentes() as n');
      this.set(rows[0]?.n ?? 0);
    } catch {
      // The database down or not provisioned: -1 says "unknown" rather than a reassuring 0.
      this.set(-1);
    }
  },
});

/** Publishes the outbox depth of this pool's database, read on each scrape (a count over the pending-rows index). */
export function watchOutboxDepth(pool: pg.Pool): void {
  outboxPool = pool;
}

export const ordersTotal = new Counter({
  name: 'campo_orders_total',
  help: 'Orders by outcome: created, refused (422 ORDER_REFUSED), approved, rejected',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/** The app that answers GET /metrics in the Prometheus text format. */
export function metricsApp() {
  return new Hono().get('/metrics', async (c) =>
    c.body(await registry.metrics(), 200, { 'Content-Type': registry.contentType }),
  );
}
