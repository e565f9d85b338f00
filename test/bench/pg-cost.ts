// What a benchmark costs PostgreSQL itself. Campo runs inside the client's ERP database, so
// every millisecond of PostgreSQL CPU it spends is taken from the ERP: throughput alone hides
// that (a fast machine absorbs a wasteful path). Two independent measures per phase:
// pg_stat_statements (statements, planning and execution time, per statement) and the CPU time
// the kernel charged to every PostgreSQL process (backends and background workers alike).
import type pg from 'pg';
import { childrenCpuMs, clusterCpuMs } from './cpu.ts';

/** Server settings a benchmark's embedded PostgreSQL needs for statementCost (planning time included). */
export const PG_STAT_SETTINGS = [
  'shared_preload_libraries=pg_stat_statements',
  'pg_stat_statements.track=all',
  'pg_stat_statements.track_planning=on',
  'pg_stat_statements.max=5000',
];

export interface StatementCost {
  query: string;
  calls: number;
  planMs: number;
  execMs: number;
}

export interface PhaseCost {
  /** Every statement clients sent in the phase (BEGIN and COMMIT included), by statement text. */
  statements: StatementCost[];
  calls: number;
  planMs: number;
  execMs: number;
  /** CPU charged to PostgreSQL's processes during the phase. */
  processCpuMs: number;
}

/** Measures what `run` costs PostgreSQL. `pool` is a superuser pool on a database with the extension. */
export async function measurePhase(pool: pg.Pool, postmasterPid: number, run: () => Promise<void>): Promise<PhaseCost> {
  await pool.query('create extension if not exists pg_stat_statements');
  // A cluster in service writes its WAL into old segments its checkpoints recycled; a new one
  // creates each 16 MB segment as the last fills, zeroing it while every commit waits (about
  // 40 ms every 4 s at the orders' rate). The checkpoint recycles the setup's segments ahead.
  await pool.query('checkpoint');
  await pool.query('select pg_stat_statements_reset()');
  const cpuBefore = clusterCpuMs(postmasterPid);
  const sampler = process.env.BENCH_WAITS ? sampleWaits(pool) : null;
  const liveBefore = sampler ? childrenCpuMs(postmasterPid) : null;
  await run();
  const processCpuMs = clusterCpuMs(postmasterPid) - cpuBefore;
  if (sampler && liveBefore) {
    process.stderr.write(`wait events (samples):\n${await sampler.stop()}\n`);
    const top = [...childrenCpuMs(postmasterPid)]
      .map(([pid, p]) => [`${p.title} [${pid}]`, p.ms - (liveBefore.get(pid)?.ms ?? 0)] as const)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12);
    process.stderr.write(
      `PostgreSQL CPU (ms) of ${processCpuMs.toFixed(0)}, by live process:\n${top.map(([k, d]) => `${d.toFixed(0).padStart(7)}  ${k}`).join('\n')}\n`,
    );
  }
  const { rows } = await pool.query<{ query: string; calls: number; plan_ms: number; exec_ms: number }>(
    `select query, calls::float8 as calls, total_plan_time as plan_ms, total_exec_time as exec_ms
       from pg_stat_statements
      where query not like '%pg_stat_statements%'
        -- What the client sent: a statement's time includes the statements it ran itself
        -- (functions, foreign-key checks), which track=all also lists.
        and toplevel
      order by total_plan_time + total_exec_time desc`,
  );
  const statements = rows.map((r) => ({ query: r.query, calls: r.calls, planMs: r.plan_ms, execMs: r.exec_ms }));
  const sum = (f: (s: StatementCost) => number) => statements.reduce((a, s) => a + f(s), 0);
  return {
    statements,
    calls: sum((s) => s.calls),
    planMs: sum((s) => s.planMs),
    execMs: sum((s) => s.execMs),
    processCpuMs,
  };
}

/** A statement's text on one short line, for a table. */
export function shortQuery(query: string, max = 90): string {
  const flat = query.replace(/\s+/g, ' ').trim();
  return `\`${(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat).replace(/\|/g, '\\|').replace(/`/g, "'")}\``;
}

/**
 * BENCH_WAITS=1: samples what the busy backends wait on while the phase runs (a diagnosis
 * aid; the sampling costs PostgreSQL CPU, so figures of such a run are not recorded).
 */
function sampleWaits(pool: pg.Pool) {
  const counts = new Map<string, number>();
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await pool.query<{ w: string }>(
        `select coalesce(wait_event_type || ':' || wait_event, 'CPU') || '  ' || left(regexp_replace(query, '\\s+', ' ', 'g'), 70) as w
           from pg_stat_activity
          where state = 'active' and backend_type = 'client backend' and pid <> pg_backend_pid()`,
      );
      for (const r of rows) counts.set(r.w, (counts.get(r.w) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return [...counts]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 15)
        .map(([w, n]) => `${String(n).padStart(6)}  ${w}`)
        .join('\n');
    },
  };
}
