// SIGTERM on `campo serve` with a client keeping it busy: a slow request in flight, an idle
// keep-alive socket and an open change stream. Before, server.close() waited for all three
// forever; now the request is answered, the rest is closed and the process exits 0 within
// SHUTDOWN_GRACE_SECONDS.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_JWT_SECRET } from '../../../test/support/app.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { asServerRole, useTestDatabase } from '../../../test/support/pg.ts';
import { SESSION_PASSWORD } from '../../../test/support/session.ts';
import { sse } from '../../../test/support/sse.ts';
import { createDb } from '../db/kysely.ts';
import { addUser } from '../users/service.ts';

const db = useTestDatabase();
const campo = fileURLToPath(new URL('../../bin/campo.mjs', import.meta.url));

interface Served {
  child: ChildProcess;
  base: string;
  port: number;
  exited: Promise<[number | null, NodeJS.Signals | null]>;
  /** Resolves with the first log line whose msg is `msg`. */
  logged(msg: string): Promise<Record<string, unknown>>;
}

async function serve(graceSeconds: number): Promise<Served> {
  const child = spawn(process.execPath, [campo, 'serve', '--port', '0'], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: asServerRole(db.url),
      JWT_SECRET: TEST_JWT_SECRET,
      HOST: '127.0.0.1',
      SYNC_REFRESH_SECONDS: '0',
      SHUTDOWN_GRACE_SECONDS: String(graceSeconds),
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const lines: Record<string, unknown>[] = [];
  const waiting: { msg: string; resolve: (l: Record<string, unknown>) => void }[] = [];
  let rest = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    rest += chunk.toString();
    for (let i = rest.indexOf('\n'); i >= 0; i = rest.indexOf('\n')) {
      const line = JSON.parse(rest.slice(0, i)) as Record<string, unknown>;
      rest = rest.slice(i + 1);
      lines.push(line);
      for (const w of waiting.filter((x) => x.msg === line.msg)) w.resolve(line);
    }
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const logged = (msg: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const seen = lines.find((l) => l.msg === msg);
      if (seen) resolve(seen);
      else waiting.push({ msg, resolve });
      void exited.then(([code]) => reject(new Error(`campo serve exited (${code}) before "${msg}": ${stderr}`)));
    });
  const listening = await logged('listening');
  const port = Number(listening.port);
  return { child, base: `http://127.0.0.1:${port}`, port, exited, logged };
}

/** A GET over the given agent, resolving with status and body once the answer is complete. */
function get(
  url: string,
  agent: http.Agent,
): Promise<{ status: number; body: string; socket: import('node:net').Socket }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        body += d;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body, socket: req.socket as import('node:net').Socket }),
      );
    });
    req.on('error', reject);
  });
}

/** Holds app.schema_migrations locked, so GET /health (which reads it) waits until release. */
async function lockHealth(): Promise<{ release: () => Promise<void> }> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  await c.query('begin');
  await c.query('lock table app.schema_migrations in access exclusive mode');
  return {
    release: async () => {
      await c.query('rollback');
      await c.end();
    },
  };
}

/** Resolves once a query of the server's role waits on a lock (the slow request is in flight). */
async function requestWaitingOnLock(): Promise<void> {
  await vi.waitFor(
    async () => {
      const { rows } = await db.pool.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where usename = 'campo_app' and wait_event_type = 'Lock'",
      );
      expect(rows[0]?.n).toBeGreaterThan(0);
    },
    { timeout: 10_000, interval: 20 },
  );
}

describe('campo serve on SIGTERM', () => {
  let token: string;

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const rep = erp.reps[0];
    if (!rep) throw new Error('no representative in the fixture');
    await addUser(createDb(db.pool), {
      login: 'rep@shutdown.test',
      name: 'Rep',
      role: 'representative',
      idEmpresa: rep.idEmpresa,
      codVendedor: rep.codVendedor,
      codSupervisor: null,
      password: SESSION_PASSWORD,
    });
  });

  it('answers the request in flight, closes the stream and the idle keep-alive socket, and exits 0 in time', async () => {
    const graceSeconds = 8;
    const s = await serve(graceSeconds);
    const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const oneShot = new http.Agent({ keepAlive: false });
    let lock: { release: () => Promise<void> } | undefined;
    try {
      const login = await fetch(`${s.base}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'rep@shutdown.test', password: SESSION_PASSWORD }),
      });
      expect(login.status).toBe(200);
      token = ((await login.json()) as { token: string }).token;

      // An open change stream.
      const streamRes = await fetch(`${s.base}/api/v1/sync/stream`, { headers: { authorization: `Bearer ${token}` } });
      expect(streamRes.status).toBe(200);
      const stream = sse(streamRes);
      await stream.until((e) => e.event === 'resync');

      // A keep-alive client whose socket now sits idle in its agent.
      const first = await get(`${s.base}/api/v1/health`, keepAlive);
      expect(first.status).toBe(200);
      const idleSocketClosed = once(first.socket, 'close');

      // A slow request: GET /health waits on a lock the test holds.
      lock = await lockHealth();
      const slow = get(`${s.base}/api/v1/health`, oneShot);
      await requestWaitingOnLock();

      const t0 = Date.now();
      s.child.kill('SIGTERM');
      const stopping = await s.logged('stopping');
      expect(stopping.inFlight).toBeGreaterThanOrEqual(2); // the slow request and the stream

      // The stream ends and the idle socket is closed by the server, while the request waits.
      await expect(stream.until(() => false, graceSeconds * 1000)).rejects.toThrow(/the stream ended/);
      await idleSocketClosed;
      // No new connection is accepted.
      await expect(get(`${s.base}/api/v1/health`, oneShot)).rejects.toThrow(/ECONNREFUSED/);

      // The request in flight is answered in full once its query can go on.
      await lock.release();
      lock = undefined;
      const answered = await slow;
      expect(answered.status).toBe(200);
      expect(JSON.parse(answered.body)).toMatchObject({ status: 'ok' });

      const [code, signal] = await s.exited;
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      expect(Date.now() - t0).toBeLessThan(graceSeconds * 1000);
      expect(await s.logged('stopped')).toMatchObject({ orderly: true });
    } finally {
      await lock?.release();
      keepAlive.destroy();
      if (s.child.exitCode === null) s.child.kill('SIGKILL');
    }
  });

  it('cuts a request that outlives the grace period and still exits 0, about when the period ends', async () => {
    const s = await serve(1);
    const oneShot = new http.Agent({ keepAlive: false });
    const lock = await lockHealth();
    try {
      const slow = get(`${s.base}/api/v1/health`, oneShot);
      const slowFailed = expect(slow).rejects.toThrow(/socket hang up|ECONNRESET/);
      await requestWaitingOnLock();
      const t0 = Date.now();
      s.child.kill('SIGTERM');
      const [code, signal] = await s.exited;
      const elapsed = Date.now() - t0;
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      expect(elapsed).toBeGreaterThanOrEqual(1000);
      expect(elapsed).toBeLessThan(5000);
      await slowFailed;
      expect(await s.logged('stopped')).toMatchObject({ orderly: false });
    } finally {
      await lock.release();
      if (s.child.exitCode === null) s.child.kill('SIGKILL');
    }
  });
});
