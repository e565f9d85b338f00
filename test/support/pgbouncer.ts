// PgBouncer in front of a test database, for the tests of Campo behind a transaction pooler
// (docs/deployment.md, "PgBouncer"). Debian's package (`apt-get install pgbouncer`; .ci/run
// installs it) is run from a configuration of its own, on a port the OS gives, as a child of
// the test; nothing of the system's PgBouncer service is used.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CANDIDATES = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'];

/** The installed PgBouncer's binary and version, or null when it is not installed. */
export function findPgBouncer(): { binary: string; version: [number, number] } | null {
  const binary = CANDIDATES.find((p) => existsSync(p));
  if (!binary) return null;
  const out = execFileSync(binary, ['--version'], { encoding: 'utf8' });
  const m = /PgBouncer (\d+)\.(\d+)/.exec(out);
  if (!m) throw new Error(`cannot read the version of ${binary}: ${out}`);
  return { binary, version: [Number(m[1]), Number(m[2])] };
}

/** Named prepared statements survive transaction pooling from PgBouncer 1.21 on (max_prepared_statements). */
export function keepsPreparedStatements(version: [number, number]): boolean {
  return version[0] > 1 || version[1] >= 21;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port from the OS');
  return address.port;
}

export interface PgBouncer {
  /** The URL clients use: any user and password, the pooler logs in to PostgreSQL as `user`. */
  url: string;
  /** Server connections PgBouncer opens at most for the database (clients share them). */
  poolSize: number;
  stop(): Promise<void>;
}

/**
 * Starts PgBouncer in transaction mode in front of `target` (a postgres:// URL with user and
 * password), with `poolSize` server connections at most, so that many clients share few
 * sessions and each transaction may land on any of them.
 */
export async function startPgBouncer(target: string, options: { poolSize: number }): Promise<PgBouncer> {
  const found = findPgBouncer();
  if (!found) throw new Error('PgBouncer is not installed (apt-get install pgbouncer)');
  const t = new URL(target);
  const dir = await mkdtemp(join(tmpdir(), 'campo-pgbouncer-'));
  // PgBouncer refuses to run as root; it then switches to `nobody`, who must read its files.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await chmod(dir, 0o755);
  const port = await freePort();
  const ini = join(dir, 'pgbouncer.ini');
  const lines = [
    '[databases]',
    `campo = host=${t.hostname} port=${t.port || 5432} dbname=${t.pathname.slice(1)} user=${decodeURIComponent(t.username)} password=${decodeURIComponent(t.password)}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    "unix_socket_dir = ''",
    'auth_type = any',
    'pool_mode = transaction',
    `default_pool_size = ${options.poolSize}`,
    'max_client_conn = 200',
    'server_reset_query =',
    // From 1.21 on: PgBouncer prepares each client's named statement on whichever server
    // connection runs it. Older versions do not know the setting (and would refuse to start).
    ...(keepsPreparedStatements(found.version) ? ['max_prepared_statements = 200'] : []),
  ];
  await writeFile(ini, `${lines.join('\n')}\n`, { mode: 0o644 });
  const child: ChildProcess = spawn(found.binary, [...(asRoot ? ['-u', 'nobody'] : []), ini], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (/listening on 127\.0\.0\.1:\d+/.test(log)) {
        child.stderr?.off('data', onData);
        resolve();
      }
    };
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`pgbouncer exited with code ${code}:\n${log}`)));
    child.once('error', reject);
  });
  // Its later lines are not read; a pipe nobody drains would block it once full.
  child.stderr?.resume();
  return {
    url: `postgres://campo:campo@127.0.0.1:${port}/campo`,
    poolSize: options.poolSize,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGINT');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
