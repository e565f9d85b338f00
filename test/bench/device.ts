// What the sync benchmarks share: a device's initial sync over HTTP that reads each page as
// bytes (as the server sends them), and `campo serve` in its own process.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { SYNC_COLLECTIONS, SYNC_LIMIT_MAX, type SyncPull } from '@campo/shared';
import { createTokenSigner } from '../../server/src/auth/tokens.ts';
import { createDb } from '../../server/src/db/kysely.ts';
import { addUser } from '../../server/src/users/service.ts';
import type { BenchErp } from './setup.ts';
import { BENCH_JWT_SECRET } from './setup.ts';

export const PAGE = SYNC_LIMIT_MAX;
const DELETED = Buffer.from('_deleted"');
const CHECKPOINT = Buffer.from('"checkpoint":"');
const UNDERSCORE = 0x5f;

/**
 * Documents in a page without parsing it: each document has one top-level `_deleted` and no
 * collection nests another (checked against JSON.parse by `verifyCount`). A device parses
 * what it receives; the benchmark measures the server, so it spends as little of the shared
 * CPU as it can: a byte search for '_' (memchr) and a compare at each, no big buffers.
 */
export function countDocuments(page: Buffer): number {
  let n = 0;
  const last = page.length - DELETED.length;
  for (let i = page.indexOf(UNDERSCORE); i >= 0 && i <= last; i = page.indexOf(UNDERSCORE, i + 1)) {
    if (page.compare(DELETED, 0, DELETED.length, i, i + DELETED.length) === 0) n++;
  }
  return n;
}

function checkpointOf(page: Buffer): string {
  const at = page.lastIndexOf(CHECKPOINT) + CHECKPOINT.length;
  return page.subarray(at, page.indexOf(0x22, at)).toString('latin1');
}

export function verifyCount(page: Buffer): void {
  const body = JSON.parse(page.toString('utf8')) as SyncPull;
  if (body.documents.length !== countDocuments(page) || body.checkpoint !== checkpointOf(page))
    throw new Error('countDocuments disagrees with JSON.parse');
}

/**
 * Reads a page as it streams in, counting its documents chunk by chunk and keeping only its
 * tail (where the checkpoint is); the whole page only when `keep` asks for it.
 */
async function readPage(
  res: Response,
  keep: boolean,
): Promise<{ n: number; bytes: number; tail: Buffer; whole?: Buffer }> {
  const kept: Buffer[] = [];
  let n = 0;
  let bytes = 0;
  let tail = Buffer.alloc(0);
  if (!res.body) return { n, bytes, tail };
  for await (const value of res.body) {
    const chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    if (keep) kept.push(chunk);
    bytes += chunk.length;
    // A match may straddle two chunks: the end of the last one and the start of this one.
    const edge = DELETED.length - 1;
    n += countDocuments(Buffer.concat([tail.subarray(-edge), chunk.subarray(0, edge)])) + countDocuments(chunk);
    tail = chunk.length >= 1024 ? chunk.subarray(-1024) : Buffer.concat([tail, chunk]).subarray(-1024);
  }
  return { n, bytes, tail, ...(keep ? { whole: Buffer.concat(kept) } : {}) };
}

export interface DeviceSync {
  documents: number;
  /** The pages' JSON, decoded. */
  bytes: number;
  /** What came over the wire (Content-Length): the compressed size when the pages were compressed. */
  wireBytes: number;
  /** 503 SYNC_BUSY answers waited out. */
  busy: number;
  /** Time from the first request to the last page, ms. */
  ms: number;
  /** The last checkpoint of each collection: where the device's next pull starts. */
  checkpoints: Record<string, string>;
}

/**
 * Every collection of a representative, from the start, in pages of PAGE, all collections at
 * once as the app's RxDB replications do; honours 503 Retry-After. `encoding` is what the
 * device offers in Accept-Encoding: none by default, to measure the server's serving of stored
 * JSON against the limit; `br` as a browser over HTTPS (fetch decodes the pages).
 */
export async function initialSync(
  baseUrl: string,
  token: string,
  onPage?: (page: Buffer) => void,
  encoding: 'identity' | 'br' | 'gzip' = 'identity',
): Promise<DeviceSync> {
  const started = performance.now();
  let documents = 0;
  let bytes = 0;
  let wireBytes = 0;
  let busy = 0;
  const checkpoints: Record<string, string> = {};
  const collection = async (name: string) => {
    let checkpoint: string | undefined;
    for (;;) {
      const query = new URLSearchParams({ limit: String(PAGE), ...(checkpoint ? { checkpoint } : {}) });
      const res = await fetch(`${baseUrl}/api/v1/sync/${name}/pull?${query}`, {
        headers: { authorization: `Bearer ${token}`, 'accept-encoding': encoding },
      });
      if (res.status === 503) {
        await res.arrayBuffer();
        busy++;
        const seconds = Number(res.headers.get('retry-after') ?? 1);
        await new Promise((r) => setTimeout(r, seconds * 1000));
        continue;
      }
      if (res.status !== 200) throw new Error(`${name}: ${res.status} ${(await res.text()).slice(0, 200)}`);
      const page = await readPage(res, onPage !== undefined);
      if (page.whole) {
        if (countDocuments(page.whole) !== page.n) throw new Error('the streamed count disagrees with the whole page');
        onPage?.(page.whole);
      }
      bytes += page.bytes;
      wireBytes += Number(res.headers.get('content-length') ?? page.bytes);
      const n = page.n;
      documents += n;
      checkpoint = checkpointOf(page.tail);
      checkpoints[name] = checkpoint;
      if (n < PAGE) return;
    }
  };
  await Promise.all(SYNC_COLLECTIONS.map(collection));
  return { documents, bytes, wireBytes, busy, ms: performance.now() - started, checkpoints };
}

export function peakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

/** `campo serve` in its own process, on BENCH_PORT (or a free port), with extra environment. */
export async function startServer(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['server/bin/campo.mjs', 'serve', '--port', process.env.BENCH_PORT ?? '0'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      JWT_SECRET: BENCH_JWT_SECRET,
      // 'listening' (with the port) is an info line.
      LOG_LEVEL: 'info',
      SYNC_REFRESH_SECONDS: '0',
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit');
  };
  // Keep reading stdout to the end: a pipe nobody drains would block the server's logging.
  return new Promise((resolve, reject) => {
    let buffer = '';
    let found = false;
    child.stdout?.on('data', (chunk: Buffer) => {
      if (found) return;
      buffer += chunk.toString();
      const port = /"port":(\d+)/.exec(buffer)?.[1];
      if (port) {
        found = true;
        resolve({ child, url: `http://127.0.0.1:${port}`, stop });
      }
    });
    child.once('exit', (code) => {
      if (!found) reject(new Error(`campo serve exited (${code}) before listening: ${buffer}`));
    });
  });
}

/** One representative user (and token) per device, round-robin over the tenant's representatives. */
export async function deviceTokens(erp: BenchErp, devices: number): Promise<{ tokens: string[]; reps: number[] }> {
  const reps = (
    await erp.pool.query<{ cod_vendedor: number }>(
      `select distinct v.cod_vendedor from app.vw_vendedores v join corrent c
          on c.cod_vendedor = v.cod_vendedor and c.id_empresa = v.id_filial
        where v.id_empresa = $1 order by 1`,
      [erp.who.idEmpresa],
    )
  ).rows.map((r) => r.cod_vendedor);
  const db = createDb(erp.pool);
  const signer = createTokenSigner(BENCH_JWT_SECRET, 2);
  const tokens: string[] = [];
  // Tokens are signed here rather than by logging in: the login limits would stop a hundred
  // logins from one address, and a password check per device is not what is measured.
  for (let i = 0; i < devices; i++) {
    const codVendedor = reps[i % reps.length] as number;
    const login = `device${i}@bench.test`;
    await addUser(db, {
      login,
      name: login,
      role: 'representative',
      idEmpresa: erp.who.idEmpresa,
      codVendedor,
      password: 'bench-password-1',
    });
    const { rows } = await erp.pool.query<{ id: number; versao_token: number }>(
      'select id, versao_token from app.usuarios where login = $1',
      [login],
    );
    const user = rows[0];
    if (!user) throw new Error(`user ${login} not created`);
    const { token } = await signer.sign({
      userId: user.id,
      role: 'representative',
      idEmpresa: erp.who.idEmpresa,
      codVendedor,
      codSupervisor: null,
      tokenVersion: user.versao_token,
    });
    tokens.push(token);
  }
  return { tokens, reps };
}
