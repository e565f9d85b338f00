// The refresh schedule. ERP-side changes (a price, a client blocked, an order invoiced, a rule
// expiring at midnight) reach the change log only through a refresh, so every server process
// refreshes every tenant's collections every SYNC_REFRESH_SECONDS. Processes need no
// coordination: the refresh of one collection of a tenant holds an exclusive lock, and a
// second process doing the same refresh right after finds nothing changed.
import { availabilityOf } from '../db/availability.ts';
import type { Db } from '../db/kysely.ts';
import { poolOf } from '../db/pools.ts';
import { refreshAll } from './service.ts';

export interface RefreshLog {
  info(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** Every tenant (head-office company) of the ERP. */
async function tenants(db: Db): Promise<number[]> {
  const rows = await db
    .selectFrom('app.vw_empresas')
    .select('id_empresa')
    .where('matriz', '=', true)
    .orderBy('id_empresa')
    .execute();
  return rows.flatMap((r) => (r.id_empresa === null ? [] : [Number(r.id_empresa)]));
}

/** Told of each tenant's refresh, for metrics (its time, and whether it failed). */
export type RefreshHook = (r: { idEmpresa: number; ms: number; ok: boolean }) => void;

/**
 * One pass over every tenant; a failing tenant is logged and the others still refresh. Never
 * rejects: the schedule runs it in the background, where a rejection would end the process.
 * The database away ends the pass (the next one catches up) and is logged once, by its tracker.
 */
export async function refreshEveryTenant(db: Db, log: RefreshLog, onRefreshed?: RefreshHook): Promise<void> {
  const database = availabilityOf(poolOf(db));
  let ids: number[];
  try {
    ids = await tenants(db);
  } catch (err) {
    if (!database.failed(err))
      log.error('sync refresh failed', { error: err instanceof Error ? err.message : String(err) });
    return;
  }
  for (const idEmpresa of ids) {
    const started = Date.now();
    try {
      const counts = await refreshAll(db, idEmpresa);
      const changed = Object.values(counts).reduce((n, c) => n + c.inserted + c.updated + c.deleted, 0);
      log.info('sync refresh', { idEmpresa, changed, ms: Date.now() - started });
      onRefreshed?.({ idEmpresa, ms: Date.now() - started, ok: true });
    } catch (err) {
      onRefreshed?.({ idEmpresa, ms: Date.now() - started, ok: false });
      if (database.failed(err)) return;
      log.error('sync refresh failed', { idEmpresa, error: err instanceof Error ? err.message : String(err) });
    }
  }
}

export function startSyncRefresher(opts: {
  db: Db;
  intervalSeconds: number;
  log: RefreshLog;
  onRefreshed?: RefreshHook;
}) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const schedule = () => {
    if (stopped || opts.intervalSeconds === 0) return;
    timer = setTimeout(() => {
      running = refreshEveryTenant(opts.db, opts.log, opts.onRefreshed).finally(schedule);
    }, opts.intervalSeconds * 1000);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
