// Measures `createErpFixture` on a throw-away embedded PostgreSQL, so a figure in
// docs/erp-fixture.md can be reproduced on any machine without a server at hand:
//
//   npx tsx server/src/erp-fixture/bench.ts --scale large [--durable] [--major 12] [--seed 1] [--as-of 2025-06-15]
//
// By default the cluster runs with fsync off (as the tests do); --durable keeps PostgreSQL's
// defaults, which is what a real server pays. Prints the summary, peak memory and database size.
import { parseArgs } from 'node:util';
import { PG_MAJORS, type PgMajor, startEmbeddedPostgres } from '../db/embedded-postgres.ts';
import { createPool } from '../db/pool.ts';
import { formatSummary } from './command.ts';
import { createErpFixture, FIXTURE_SCALES, type FixtureScale } from './generate.ts';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: 'small' },
    seed: { type: 'string', default: '1' },
    'as-of': { type: 'string' },
    major: { type: 'string', default: '18' },
    durable: { type: 'boolean', default: false },
  },
});
const scale = values.scale as FixtureScale;
const major = Number(values.major) as PgMajor;
if (!FIXTURE_SCALES.includes(scale)) throw new Error(`--scale must be one of ${FIXTURE_SCALES.join(', ')}`);
if (!PG_MAJORS.includes(major)) throw new Error(`--major must be one of ${PG_MAJORS.join(', ')}`);

const server = await startEmbeddedPostgres({ major, fast: !values.durable });
let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
}, 200);
try {
  const admin = createPool(server.url(), 1);
  await admin.query("create database erp encoding 'LATIN1' lc_collate 'C' lc_ctype 'C' template template0");
  await admin.end();
  const pool = createPool(server.url('erp'), 4);
  try {
    let phase = '';
    const summary = await createErpFixture(pool, {
      scale,
      seed: Number(values.seed),
      asOf: values['as-of'] ? new Date(values['as-of']) : undefined,
      onProgress: (p) => {
        if (p.phase === phase) return;
        phase = p.phase;
        process.stderr.write(`${phase}...\n`);
      },
    });
    const size = await pool.query<{ size: string }>(
      'select pg_size_pretty(pg_database_size(current_database())) as size',
    );
    process.stdout.write(formatSummary(summary));
    process.stdout.write(
      `PostgreSQL ${major}${values.durable ? '' : ' (fsync off)'}; database size ${size.rows[0]?.size}; ` +
        `peak RSS of this process ${Math.round(peakRss / 2 ** 20)} MiB\n`,
    );
  } finally {
    await pool.end();
  }
} finally {
  clearInterval(sampler);
  await server.stop();
}
