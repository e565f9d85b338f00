// Replication pull on the medium reference ERP (20,000 products with 5 pautas, 2,000 clients
// per representative):
// - the first refresh of the change log, per collection;
// - one representative's initial sync of every collection through the whole API (auth,
//   validation, change log, document building, JSON), in documents per second, against a raw
//   SQL read of the same rows (products with their prices, the portfolio) on the same database
//   in the same run. Target: at least 30% of raw SQL;
// - the morning burst: 100 devices (the tenant's representatives, several devices each) start
//   their initial sync at once against a `campo serve` process over HTTP; the time until all
//   finish and the server process's peak memory (VmHWM).
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { SYNC_COLLECTIONS, type SyncPull } from '@campo/shared';
import { createDb } from '../../server/src/db/kysely.ts';
import { refreshCollection } from '../../server/src/sync/service.ts';
import { table, writeSection } from './report.ts';
import { BENCH_JWT_SECRET, withBenchErp } from './setup.ts';

const LIMIT = 1000;
const RUNS = 3;
const DEVICES = 100;
const TARGET_RATIO = 0.3;

type Fetcher = (path: string, token: string) => Promise<Response>;

/** Every collection a representative holds, from the start; documents and bytes received. */
async function initialSync(fetcher: Fetcher, token: string) {
  let documents = 0;
  let bytes = 0;
  for (const collection of SYNC_COLLECTIONS) {
    let checkpoint: string | undefined;
    for (;;) {
      const query = new URLSearchParams({ limit: String(LIMIT), ...(checkpoint ? { checkpoint } : {}) });
      const res = await fetcher(`/api/v1/sync/${collection}/pull?${query}`, token);
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${collection}: ${res.status} ${text.slice(0, 200)}`);
      bytes += Buffer.byteLength(text);
      const body = JSON.parse(text) as SyncPull;
      documents += body.documents.length;
      checkpoint = body.checkpoint;
      if (body.documents.length < LIMIT) break;
    }
  }
  return { documents, bytes };
}

function peakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb * 1024;
}

async function startServer(databaseUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['server/bin/campo.mjs', 'serve', '--port', '0'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      JWT_SECRET: BENCH_JWT_SECRET,
      // 'listening' (with the port) is an info line.
      LOG_LEVEL: 'info',
      SYNC_REFRESH_SECONDS: '0',
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
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
        resolve({ child, url: `http://127.0.0.1:${port}` });
      }
    });
    child.once('exit', (code) => {
      if (!found) reject(new Error(`campo serve exited (${code}) before listening: ${buffer}`));
    });
  });
}

export async function benchPull(): Promise<void> {
  await withBenchErp('medium', async ({ app, pool, serverPool, serverUrl, who, token, tokenOfRep }) => {
    const db = createDb(serverPool);
    const refreshRows: (string | number)[][] = [];
    for (const colecao of SYNC_COLLECTIONS) {
      const t = performance.now();
      const counts = await refreshCollection(db, who.idEmpresa, colecao);
      const ms = performance.now() - t;
      refreshRows.push([colecao, counts.inserted, `${(ms / 1000).toFixed(2)} s`]);
      process.stderr.write(`refresh ${colecao}: ${counts.inserted} keys in ${ms.toFixed(0)} ms\n`);
    }

    const rep = await token('representative');
    const inProcess: Fetcher = async (path, t) => app.request(path, { headers: { authorization: `Bearer ${t}` } });
    let best = { ms: Number.POSITIVE_INFINITY, documents: 0, bytes: 0 };
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      const r = await initialSync(inProcess, rep);
      const ms = performance.now() - t;
      process.stderr.write(`initial sync ${i + 1}: ${r.documents} documents in ${ms.toFixed(0)} ms\n`);
      if (ms < best.ms) best = { ms, ...r };
    }

    // The same rows read raw: products with every price, and the portfolio, as plain rows.
    let raw = { ms: Number.POSITIVE_INFINITY, rows: 0 };
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      const products = await pool.query(
        `select p.*, pr.id_pauta, pr.preco from app.vw_produtos p
           left join app.vw_precos pr on pr.id_produto = p.id_produto and pr.id_empresa = p.id_empresa
          where p.id_empresa = $1`,
        [who.idEmpresa],
      );
      const clients = await pool.query('select * from app.vw_clientes where id_empresa = $1 and cod_vendedor = $2', [
        who.idEmpresa,
        who.codVendedor,
      ]);
      const ms = performance.now() - t;
      const distinct = new Set(products.rows.map((r) => r.id_produto)).size + clients.rows.length;
      if (ms < raw.ms) raw = { ms, rows: distinct };
    }
    const apiRate = best.documents / (best.ms / 1000);
    const rawRate = raw.rows / (raw.ms / 1000);
    const ratio = apiRate / rawRate;

    // Morning burst: DEVICES devices of the tenant's representatives, over HTTP, all at once.
    const reps = (
      await pool.query<{ cod_vendedor: number }>(
        `select distinct v.cod_vendedor from app.vw_vendedores v join corrent c
            on c.cod_vendedor = v.cod_vendedor and c.id_empresa = v.id_filial
          where v.id_empresa = $1 order by 1`,
        [who.idEmpresa],
      )
    ).rows.map((r) => r.cod_vendedor);
    const tokens = await Promise.all(reps.map((r) => tokenOfRep(r)));
    const { child, url } = await startServer(serverUrl);
    let burst: { ms: number; documents: number; rss: number };
    try {
      const overHttp: Fetcher = (path, t) => fetch(`${url}${path}`, { headers: { authorization: `Bearer ${t}` } });
      const t = performance.now();
      const results = await Promise.all(
        Array.from({ length: DEVICES }, (_, i) => initialSync(overHttp, tokens[i % tokens.length] as string)),
      );
      burst = {
        ms: performance.now() - t,
        documents: results.reduce((n, r) => n + r.documents, 0),
        rss: peakRss(child.pid as number),
      };
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    process.stderr.write(`burst: ${burst.documents} documents in ${burst.ms.toFixed(0)} ms, peak RSS ${burst.rss}\n`);

    const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
    const body = [
      `Command: \`pnpm bench pull\` (PostgreSQL 18, the \`medium\` fixture: 20,000 products on 5 pautas, 2,000`,
      `clients per representative; the server on a role bound by row-level security).`,
      '',
      'First refresh of the change log of the tenant, per collection:',
      '',
      table(['collection', 'keys', 'time'], refreshRows),
      '',
      `Initial sync of one representative, every collection, in-process \`app.request\` through auth, the change log`,
      `and document building, limit ${LIMIT}, best of ${RUNS}; against a raw SQL read of the same rows (products`,
      `joined with their prices, the portfolio) by \`pg\` on the same database. Target: at least ${TARGET_RATIO * 100}% of raw.`,
      '',
      table(
        ['measure', 'figure'],
        [
          ['documents', best.documents.toLocaleString('en')],
          ['JSON received', mib(best.bytes)],
          ['API time', `${(best.ms / 1000).toFixed(2)} s`],
          ['API documents/s', Math.round(apiRate).toLocaleString('en')],
          ['raw SQL time (same rows)', `${(raw.ms / 1000).toFixed(2)} s`],
          ['raw SQL documents/s', Math.round(rawRate).toLocaleString('en')],
          [
            'ratio API / raw',
            `${(ratio * 100).toFixed(0)}% (${ratio >= TARGET_RATIO ? 'target met' : 'target missed'})`,
          ],
        ],
      ),
      '',
      `Morning burst: ${DEVICES} devices (the tenant's ${reps.length} representatives, round-robin) start their initial`,
      'sync at once against one `campo serve` process over HTTP on this machine (the load generator shares its 2 cores).',
      '',
      table(
        ['measure', 'figure'],
        [
          ['documents served', burst.documents.toLocaleString('en')],
          ['time until all finished', `${(burst.ms / 1000).toFixed(1)} s`],
          ['server peak memory (VmHWM)', mib(burst.rss)],
        ],
      ),
    ].join('\n');
    writeSection('pull', 'Replication pull and the morning burst (medium fixture)', body);
    process.stdout.write(`${body}\n`);
  });
}
