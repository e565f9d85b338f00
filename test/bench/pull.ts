// Replication pull on the medium reference ERP (20,000 products with 5 pautas, 2,000 clients
// per representative):
// - the first refresh of the change log, per collection;
// - one representative's initial sync of every collection over HTTP against `campo serve`
//   (auth, the change log, the stored documents copied to the answer), in documents per
//   second, with the CPU it cost PostgreSQL and the server process;
// - the true limit, in the same run: one statement returning the same stored JSON of the same
//   documents through COPY, streamed and counted as bytes (no per-row work in Node).
// Target: at least 150,000 documents/s. The morning burst is `pnpm bench burst` (burst.ts).
import { SYNC_COLLECTIONS } from '@campo/shared';
import { copyOut } from '../../server/src/db/copy-out.ts';
import { createDb } from '../../server/src/db/kysely.ts';
import { refreshCollection } from '../../server/src/sync/service.ts';
import { clusterCpuMs, postmasterPid, processCpuMs } from './cpu.ts';
import { initialSync, PAGE, startServer, verifyCount } from './device.ts';
import { table, writeSection } from './report.ts';
import { withBenchErp } from './setup.ts';

const RUNS = 3;
const TARGET = 150_000;
/** Rounds of a device catching up with nothing new: every collection pulled from its last checkpoint. */
const CATCH_UP_ROUNDS = 200;

export async function benchPull(): Promise<void> {
  await withBenchErp('medium', async ({ pool, serverPool, serverUrl, who, tokenOfRep }) => {
    const db = createDb(serverPool);
    const postmaster = await postmasterPid(pool);
    /** Refreshes every collection of the tenant in turn: what each changed, its time and PostgreSQL CPU. */
    const refreshEach = async () => {
      const out = [];
      for (const colecao of SYNC_COLLECTIONS) {
        const cpu0 = clusterCpuMs(postmaster);
        const t = performance.now();
        const counts = await refreshCollection(db, who.idEmpresa, colecao);
        process.stderr.write(`refresh ${colecao}: ${counts.inserted} new, ${counts.updated} changed\n`);
        out.push({ colecao, counts, s: (performance.now() - t) / 1000, pgS: (clusterCpuMs(postmaster) - cpu0) / 1000 });
      }
      return out;
    };
    const refreshRows = (await refreshEach()).map((r) => [r.colecao, r.counts.inserted, `${r.s.toFixed(2)} s`]);
    // The refresh the server schedules (SYNC_REFRESH_SECONDS) with nothing changed in the ERP:
    // every document built again and compared, nothing written. Its CPU recurs all day in the
    // ERP's database, whether or not anyone syncs.
    const idleRefreshRows = (await refreshEach()).map((r) => {
      const { inserted, updated, deleted } = r.counts;
      if (inserted + updated + deleted > 0) throw new Error(`${r.colecao}: a refresh with nothing changed wrote`);
      return [r.colecao, `${r.s.toFixed(2)} s`, `${r.pgS.toFixed(2)} s`];
    });
    const token = await tokenOfRep(who.codVendedor);

    type ApiRun = { ms: number; documents: number; bytes: number; wireBytes: number; pgMs: number; nodeMs: number };
    let catchUp = { pulls: 0, ms: 0, pgMs: 0, nodeMs: 0 };
    /** RUNS initial syncs of the representative against a server started with `env`. */
    const measureApi = async (
      env: Record<string, string>,
      encoding: 'identity' | 'br' = 'identity',
    ): Promise<ApiRun[]> => {
      const server = await startServer(serverUrl, env);
      const runs: ApiRun[] = [];
      try {
        // Once to warm up and to check the byte counting against a real parse.
        await initialSync(server.url, token, verifyCount, encoding);
        for (let i = 0; i < RUNS; i++) {
          const pg0 = clusterCpuMs(postmaster);
          const node0 = processCpuMs(server.child.pid as number);
          const r = await initialSync(server.url, token, undefined, encoding);
          runs.push({
            ms: r.ms,
            documents: r.documents,
            bytes: r.bytes,
            wireBytes: r.wireBytes,
            pgMs: clusterCpuMs(postmaster) - pg0,
            nodeMs: processCpuMs(server.child.pid as number) - node0,
          });
          process.stderr.write(`initial sync ${i + 1}: ${r.documents} documents in ${r.ms.toFixed(0)} ms\n`);
          if (i === RUNS - 1 && env.SYNC_PAGE_CACHE_MB === '0' && encoding === 'identity')
            catchUp = await catchingUp(server, r.checkpoints);
        }
      } finally {
        await server.stop();
      }
      return runs;
    };
    /** The pull a device makes most often: every collection, nothing new since its last checkpoint. */
    const catchingUp = async (server: Awaited<ReturnType<typeof startServer>>, checkpoints: Record<string, string>) => {
      const pullAll = () =>
        Promise.all(
          Object.entries(checkpoints).map(async ([name, checkpoint]) => {
            const res = await fetch(`${server.url}/api/v1/sync/${name}/pull?limit=${PAGE}&checkpoint=${checkpoint}`, {
              headers: { authorization: `Bearer ${token}` },
            });
            const body = (await res.json()) as { documents: unknown[] };
            if (res.status !== 200 || body.documents.length !== 0)
              throw new Error(`${name}: ${res.status}, not up to date`);
          }),
        );
      for (let i = 0; i < 20; i++) await pullAll(); // past the plan caches' first five executions
      const pg0 = clusterCpuMs(postmaster);
      const node0 = processCpuMs(server.child.pid as number);
      const t = performance.now();
      for (let i = 0; i < CATCH_UP_ROUNDS; i++) await pullAll();
      const pulls = CATCH_UP_ROUNDS * Object.keys(checkpoints).length;
      return {
        pulls,
        ms: (performance.now() - t) / CATCH_UP_ROUNDS,
        pgMs: (clusterCpuMs(postmaster) - pg0) / pulls,
        nodeMs: (processCpuMs(server.child.pid as number) - node0) / pulls,
      };
    };
    // Every page read from PostgreSQL (no page kept in memory), then as a second phone of the
    // same representative finds them: the full pages answered again from memory.
    const api = await measureApi({ SYNC_PAGE_CACHE_MB: '0' });
    const kept = await measureApi({});
    // As a phone over HTTPS receives them: Brotli, every page compressed by the server.
    const phone = await measureApi({ SYNC_PAGE_CACHE_MB: '0' }, 'br');

    // The limit: the same stored documents of the same representative, one statement, bytes.
    const raw: { ms: number; rows: number; bytes: number; pgMs: number }[] = [];
    const client = await pool.connect();
    try {
      for (let i = 0; i < RUNS; i++) {
        const pg0 = clusterCpuMs(postmaster);
        const t = performance.now();
        let bytes = 0;
        const rows = await copyOut(
          client,
          `copy (select dados from app.sync_alteracoes
                  where id_empresa = ${Number(who.idEmpresa)} and (escopo is null or escopo = ${Number(who.codVendedor)})
                  order by colecao, xid, revisao) to stdout (format binary)`,
          (_, start, end) => {
            bytes += end - start;
          },
        );
        const ms = performance.now() - t;
        raw.push({ ms, rows, bytes, pgMs: clusterCpuMs(postmaster) - pg0 });
      }
    } finally {
      client.release();
    }

    const bestOf = (runs: ApiRun[]) => runs.reduce((a, b) => (b.ms < a.ms ? b : a));
    const best = bestOf(api);
    const bestKept = bestOf(kept);
    const bestPhone = bestOf(phone);
    const bestRaw = raw.reduce((a, b) => (b.ms < a.ms ? b : a));
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    const apiRate = best.documents / (best.ms / 1000);
    const rawRate = bestRaw.rows / (bestRaw.ms / 1000);
    const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;
    const n = (x: number) => Math.round(x).toLocaleString('en');
    const body = [
      `Command: \`pnpm bench pull\` (PostgreSQL 18, the \`medium\` fixture: 20,000 products on 5 pautas, 2,000`,
      `clients per representative; the server on a role bound by row-level security).`,
      '',
      'First refresh of the change log of the tenant, per collection:',
      '',
      table(['collection', 'keys', 'time'], refreshRows),
      '',
      'A scheduled refresh with nothing changed in the ERP (every document built again and compared, none written),',
      'per collection, with the PostgreSQL CPU it cost (every process of the cluster; ticks of 10 ms):',
      '',
      table(['collection', 'time', 'PostgreSQL CPU'], idleRefreshRows),
      '',
      `Initial sync of one representative, every collection, over HTTP against \`campo serve\` in its own process`,
      `(auth, the change log, the stored documents copied to the answer), pages of ${n(PAGE)}, best of ${RUNS}; the device`,
      'counts documents in the bytes it receives (checked once against a JSON parse) and asks for them uncompressed, but',
      'in the Brotli column, where the server compresses every page and the device decodes it. The limit: one statement',
      'returning the same stored JSON of the same documents, through COPY, streamed and counted as bytes. CPU is',
      `the median over the ${RUNS} runs (PostgreSQL: every process of the cluster; ticks of 10 ms). Target: ${n(TARGET)} documents/s.`,
      '',
      table(
        [
          'measure',
          'API (GET /sync/{collection}/pull), every page from PostgreSQL',
          'API, the same pages kept in memory (another phone of the representative)',
          'API, every page from PostgreSQL, compressed (Brotli, as a phone over HTTPS takes them)',
          'one statement (COPY)',
        ],
        [
          ['documents', n(best.documents), n(bestKept.documents), n(bestPhone.documents), n(bestRaw.rows)],
          ['bytes', mib(best.bytes), mib(bestKept.bytes), mib(bestPhone.bytes), mib(bestRaw.bytes)],
          ['bytes on the wire', mib(best.wireBytes), mib(bestKept.wireBytes), mib(bestPhone.wireBytes), '-'],
          [
            'time',
            `${(best.ms / 1000).toFixed(3)} s`,
            `${(bestKept.ms / 1000).toFixed(3)} s`,
            `${(bestPhone.ms / 1000).toFixed(3)} s`,
            `${(bestRaw.ms / 1000).toFixed(3)} s`,
          ],
          [
            'documents/s',
            n(apiRate),
            n(bestKept.documents / (bestKept.ms / 1000)),
            n(bestPhone.documents / (bestPhone.ms / 1000)),
            n(rawRate),
          ],
          [
            'PostgreSQL CPU per initial sync',
            `${n(median(api.map((r) => r.pgMs)))} ms`,
            `${n(median(kept.map((r) => r.pgMs)))} ms`,
            `${n(median(phone.map((r) => r.pgMs)))} ms`,
            `${n(median(raw.map((r) => r.pgMs)))} ms`,
          ],
          [
            'server process CPU per initial sync',
            `${n(median(api.map((r) => r.nodeMs)))} ms`,
            `${n(median(kept.map((r) => r.nodeMs)))} ms`,
            `${n(median(phone.map((r) => r.nodeMs)))} ms`,
            '-',
          ],
        ],
      ),
      '',
      'The short last page of each collection is never kept (it says "up to date" only as of when it was read), so',
      'the kept column still reads those from PostgreSQL.',
      '',
      `API (every page from PostgreSQL) / limit: ${((apiRate / rawRate) * 100).toFixed(0)}%. Target ${n(TARGET)} documents/s: ${apiRate >= TARGET ? 'met' : 'missed'}.`,
      '',
      `A device catching up with nothing new (the pull a device makes most often): ${CATCH_UP_ROUNDS} rounds of every`,
      `collection pulled from its last checkpoint, ${n(catchUp.pulls)} pulls in all: ${catchUp.ms.toFixed(1)} ms per round of ${SYNC_COLLECTIONS.length} collections,`,
      `PostgreSQL CPU ${catchUp.pgMs.toFixed(2)} ms and server process CPU ${catchUp.nodeMs.toFixed(2)} ms per pull.`,
    ].join('\n');
    writeSection('pull', 'Replication pull (medium fixture)', body);
    process.stdout.write(`${body}\n`);
  });
}
