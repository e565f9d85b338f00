// CPU time spent by PostgreSQL, for benchmarks on a machine shared with other work: wall time
// moves with the machine's load, the CPU a pull costs the database much less.
import { readdirSync, readFileSync } from 'node:fs';
import type pg from 'pg';

const TICKS_PER_SECOND = 100;

/** utime, stime, cutime, cstime of a process in ticks, its parent and state; null once it is gone. */
function statOf(pid: number): { state: string; ppid: number; self: number; children: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      state: f[0] ?? '',
      ppid: Number(f[1]),
      self: Number(f[11]) + Number(f[12]),
      children: Number(f[13]) + Number(f[14]),
    };
  } catch {
    return null;
  }
}

/** The postmaster's pid: the parent of any backend of the cluster. */
export async function postmasterPid(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ pid: number }>('select pg_backend_pid() as pid');
  const stat = statOf(rows[0]?.pid as number);
  if (!stat) throw new Error('the PostgreSQL backend is not a process of this machine');
  return stat.ppid;
}

/**
 * Milliseconds of CPU the whole cluster has used so far: the postmaster, its live children
 * (backends, background workers) and the children it has reaped (ended backends).
 *
 * A child that ends between the postmaster's figure and the scan of its children would be
 * counted in neither, and one that has ended but is not reaped yet (a zombie) may show no CPU:
 * when a pool closes its idle connections together, whole seconds of CPU went missing so. The
 * reading is taken again until no child is a zombie and the postmaster's reaped figure held
 * across the scan.
 */
export function clusterCpuMs(postmaster: number): number {
  for (let attempt = 0; ; attempt++) {
    const main = statOf(postmaster);
    if (!main) throw new Error(`PostgreSQL (pid ${postmaster}) is gone`);
    const children = [...childrenCpuMs(postmaster).values()];
    const again = statOf(postmaster);
    const settled = again?.children === main.children && children.every((c) => !c.zombie);
    if (settled || attempt === 50) return toMs(main.self + main.children) + children.reduce((ms, c) => ms + c.ms, 0);
    // Synchronous like the rest of the reading: a few milliseconds for the postmaster to reap.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
  }
}

/** Every process of this machine with its command line (arguments joined by spaces) and stat. */
function* processes(): Generator<{
  pid: number;
  cmdline: string | null;
  stat: NonNullable<ReturnType<typeof statOf>>;
}> {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(Number(entry));
    if (!stat) continue;
    let cmdline: string | null = null;
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    } catch {
      // exited meanwhile
    }
    yield { pid: Number(entry), cmdline, stat };
  }
}

/**
 * The children of a process, by pid: their title (`postgres: autovacuum worker`…), CPU so far
 * (ms), and whether they have ended without being reaped yet (a zombie's CPU may read as none).
 */
export function childrenCpuMs(parent: number): Map<number, { title: string; ms: number; zombie: boolean }> {
  const out = new Map<number, { title: string; ms: number; zombie: boolean }>();
  for (const { pid, cmdline, stat } of processes()) {
    if (stat.ppid === parent) {
      out.set(pid, { title: cmdline || String(pid), ms: toMs(stat.self), zombie: stat.state === 'Z' });
    }
  }
  return out;
}

/** CPU of another process of this machine (user + system), ms. */
export function processCpuMs(pid: number): number {
  const s = statOf(pid);
  if (!s) throw new Error(`process ${pid} is gone`);
  return toMs(s.self);
}

const toMs = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;

/** CPU of this Node process (user + system), in milliseconds. */
export function ownCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * CPU used so far by Chromium's processes, by kind (`browser`, where IndexedDB writes;
 * `renderer`, the page; `utility:NetworkService`; `gpu-process`…), ms. Chromium's processes
 * that ended meanwhile are not counted.
 */
export function chromiumCpuMs(): Map<string, number> {
  const out = new Map<string, number>();
  for (const { cmdline, stat } of processes()) {
    if (!cmdline || !/chromium/.test(cmdline.split(' ')[0] ?? '')) continue;
    const type = /--type=([\w-]+)/.exec(cmdline)?.[1] ?? 'browser';
    const sub = /--utility-sub-type=[\w.]*?(\w+)(?:\s|$)/.exec(cmdline)?.[1];
    const kind = sub ? `${type}:${sub}` : type;
    out.set(kind, (out.get(kind) ?? 0) + toMs(stat.self));
  }
  return out;
}
