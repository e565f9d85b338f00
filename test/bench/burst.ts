// The morning burst: N devices (default 100; the tenant's representatives round-robin, one user
// each) start their initial sync at once against one `campo serve` process over HTTP, on the
// medium fixture. Run twice: with the server's admission of initial syncs (SYNC_DOWNLOADS
// devices at once, the others in line) and with every device admitted at once. Reports when
// devices finish (first, median, last), the server's peak memory, the PostgreSQL CPU, and the
// 503 SYNC_BUSY answers devices waited out. Once more with devices taking the pages in Brotli,
// as phones do: the server then compresses what it sends, and this process decodes it on the
// same two cores (a phone decodes on its own). Targets (100 devices): all done in under 10 s,
// server peak memory under 400 MiB, devices finishing one after another.
import { SYNC_COLLECTIONS } from '@campo/shared';
import { createDb } from '../../server/src/db/kysely.ts';
import { refreshCollection } from '../../server/src/sync/service.ts';
import { clusterCpuMs, postmasterPid, processCpuMs } from './cpu.ts';
import { deviceTokens, initialSync, PAGE, peakRss, startServer } from './device.ts';
import { table, writeSection } from './report.ts';
import { withBenchErp } from './setup.ts';

const DEFAULT_DEVICES = 100;
const ADMITTED = 16;

interface BurstRun {
  label: string;
  ms: number;
  finished: number[];
  documents: number;
  busy: number;
  rss: number;
  pgMs: number;
  serverMs: number;
}

export async function benchBurst(options: { devices?: number } = {}): Promise<void> {
  const devices = options.devices ?? DEFAULT_DEVICES;
  await withBenchErp('medium', async (erp) => {
    const db = createDb(erp.serverPool);
    for (const colecao of SYNC_COLLECTIONS) await refreshCollection(db, erp.who.idEmpresa, colecao);
    const postmaster = await postmasterPid(erp.pool);
    process.stderr.write(`signing ${devices} device tokens...\n`);
    const { tokens, reps } = await deviceTokens(erp, devices);

    const burst = async (
      label: string,
      downloads: number,
      encoding: 'identity' | 'br' = 'identity',
    ): Promise<BurstRun> => {
      const server = await startServer(erp.serverUrl, { SYNC_DOWNLOADS: String(downloads), SYNC_QUEUE_SECONDS: '20' });
      try {
        const pg0 = clusterCpuMs(postmaster);
        const server0 = processCpuMs(server.child.pid as number);
        const t = performance.now();
        const finished: number[] = [];
        const results = await Promise.all(
          tokens.map(async (token) => {
            const r = await initialSync(server.url, token, undefined, encoding);
            finished.push(performance.now() - t);
            return r;
          }),
        );
        const run = {
          label,
          ms: performance.now() - t,
          finished: finished.sort((a, b) => a - b),
          documents: results.reduce((n, r) => n + r.documents, 0),
          busy: results.reduce((n, r) => n + r.busy, 0),
          rss: peakRss(server.child.pid as number),
          pgMs: clusterCpuMs(postmaster) - pg0,
          serverMs: processCpuMs(server.child.pid as number) - server0,
        };
        process.stderr.write(`${label}: ${run.documents} documents in ${run.ms.toFixed(0)} ms\n`);
        return run;
      } finally {
        await server.stop();
      }
    };
    const runs = [
      await burst(`${ADMITTED} at once (SYNC_DOWNLOADS=${ADMITTED}, the default)`, ADMITTED),
      await burst(`all ${devices} at once (SYNC_DOWNLOADS=${devices})`, devices),
      await burst(`${ADMITTED} at once, pages in Brotli`, ADMITTED, 'br'),
    ];

    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const at = (r: BurstRun, q: number) =>
      r.finished[Math.min(r.finished.length - 1, Math.floor(q * r.finished.length))] ?? 0;
    const body = [
      `Command: \`pnpm bench burst --devices ${devices}\` (PostgreSQL 18, the \`medium\` fixture). ${devices} devices (the`,
      `tenant's ${reps.length} representatives round-robin, one user each) start their initial sync of every collection`,
      `at once against one \`campo serve\` process over HTTP, pages of ${PAGE.toLocaleString('en')}, on this machine (the`,
      'load generator shares its cores). A device waits out a 503 SYNC_BUSY for its Retry-After, as the app does.',
      'Devices ask for plain JSON, but in the last run, where they take the pages in Brotli as phones do: the server',
      'compresses each page it reads from PostgreSQL (a page it keeps, once), and this process decodes them all on the',
      "same two cores, work a phone does on its own. Server CPU: the API process's user and system time.",
      `Targets (100 devices): all finished in under 10 s, server peak memory under 400 MiB, devices finishing one after another.`,
      '',
      table(
        [
          'admission',
          'all finished',
          'first device done',
          'median device done',
          '90% done',
          'peak memory (VmHWM)',
          'PostgreSQL CPU',
          'server CPU',
          '503 waited',
          'documents',
        ],
        runs.map((r) => [
          r.label,
          s(r.ms),
          s(at(r, 0)),
          s(at(r, 0.5)),
          s(at(r, 0.9)),
          `${(r.rss / 2 ** 20).toFixed(0)} MiB`,
          s(r.pgMs),
          s(r.serverMs),
          r.busy,
          r.documents.toLocaleString('en'),
        ]),
      ),
    ].join('\n');
    writeSection('burst', 'Morning burst (medium fixture)', body);
    process.stdout.write(`${body}\n`);
  });
}
