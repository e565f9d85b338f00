// `campo erp-fixture`: builds the reference ERP in an empty LATIN1, WIN1252 or UTF8 database. Progress goes
// to stderr and the summary to stdout, so `campo erp-fixture --json > summary.json` works.
import { type Command, InvalidArgumentError, Option } from 'commander';
import { loadDatabaseUrl } from '../config.ts';
import { createPool } from '../db/pool.ts';
import { FixtureError } from './errors.ts';
import {
  createErpFixture,
  FIXTURE_PROFILES,
  type FixtureProfile,
  type FixtureProgress,
  type FixtureSummary,
} from './generate.ts';
import { writeProductImages } from './images.ts';
import { FIXTURE_SCALES, type FixtureScale } from './scales.ts';

/** Exit code when the database is refused (wrong encoding, ERP tables already there). */
export const EXIT_REFUSED = 3;

interface ErpFixtureFlags {
  scale: FixtureScale;
  seed: number;
  asOf?: Date;
  replace?: boolean;
  json?: boolean;
  images?: string;
  profile: FixtureProfile;
}

function parseSeed(value: string): number {
  const seed = Number(value);
  if (!/^\d+$/.test(value) || seed > 0xffffffff) {
    throw new InvalidArgumentError('give an integer from 0 to 4294967295.');
  }
  return seed;
}

function parseDay(value: string): Date {
  const date = new Date(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw new InvalidArgumentError('give a calendar date as YYYY-MM-DD.');
  }
  return date;
}

const HELP = `
Builds the reference ERP (the tables in sql/erp-reference and realistic Brazilian data with
LATIN1 accents) for tests, demos and benchmarks. It never touches a real ERP: it refuses a
database that is not LATIN1, WIN1252 or UTF8 or that already has ERP tables, and --replace only drops tables
that erp-fixture itself created.

Scales (2 tenants each, with a branch):
  tiny    2 supervisors x 2 reps, 10 clients per rep, 60 products, 4 months of orders (tests)
  small   3 x 3 reps, 150 clients per rep, 2,000 products, 1 year of orders (the demo)
  medium  2 x 2 reps, 2,000 clients per rep, 20,000 products, 2 years
  large   4 x 5 reps, 400 clients per rep, 30,000 products, 3 years (millions of order lines)
The same --seed and --as-of always give the same data. See docs/erp-fixture.md.

Exit codes:
  0  done; the summary (rows per table) is on stdout
  1  bad option or unexpected failure
  2  DATABASE_URL missing or malformed
  3  database refused (not LATIN1, WIN1252 or UTF8, ERP tables present, or --replace on tables it did not create)

Examples:
  createdb -E LATIN1 -T template0 --lc-collate=C --lc-ctype=C erp
  DATABASE_URL=postgres://localhost/erp campo erp-fixture --scale tiny
  DATABASE_URL=postgres://localhost/erp campo erp-fixture --scale small --as-of 2025-06-30 --replace
  DATABASE_URL=postgres://localhost/erp campo erp-fixture --scale tiny --images ./product-images
  DATABASE_URL=postgres://localhost/erp campo erp-fixture --scale tiny --profile odoo`;

export function registerErpFixtureCommand(program: Command): void {
  program
    .command('erp-fixture')
    .description(
      'Create a reference ERP with realistic data in an empty LATIN1, WIN1252 or UTF8 database (tests, demo, benchmarks)',
    )
    .addOption(
      new Option('--scale <scale>', 'how much data: tiny, small, medium or large')
        .choices(FIXTURE_SCALES)
        .default('small'),
    )
    .addOption(
      new Option(
        '--profile <profile>',
        "the ERP's shape: referencia (sql/erp-reference) or odoo (sql/erp-profiles/odoo/erp), with the same data",
      )
        .choices(FIXTURE_PROFILES)
        .default('referencia'),
    )
    .option('--seed <n>', 'seed of the generator; same seed and as-of date, same data', parseSeed, 1)
    .option('--as-of <YYYY-MM-DD>', 'last day of the order history (default: today)', parseDay)
    .option('--replace', 'drop and rebuild a reference ERP that erp-fixture created earlier (never anything else)')
    .option('--json', 'print the summary as JSON instead of a table')
    .option(
      '--images <dir>',
      'also draw a photo for every product that names one (produtos/<code>.jpg) into this folder, for PRODUCT_IMAGES_DIR',
    )
    .addHelpText('after', HELP)
    .action(runErpFixture);
}

async function runErpFixture(flags: ErpFixtureFlags): Promise<void> {
  const pool = createPool(loadDatabaseUrl(), 4);
  const progress = progressPrinter(process.stderr);
  try {
    const summary = await createErpFixture(pool, {
      scale: flags.scale,
      seed: flags.seed,
      asOf: flags.asOf,
      replace: flags.replace ?? false,
      profile: flags.profile,
      onProgress: progress.update,
    });
    if (flags.images) {
      const images = await writeProductImages(pool, flags.images, (done, total) =>
        progress.update({ phase: 'images', done, total }),
      );
      summary.counts.images = images.written + images.kept;
    }
    progress.end();
    process.stdout.write(flags.json ? `${JSON.stringify(summary, null, 2)}\n` : formatSummary(summary));
  } catch (err) {
    progress.end();
    if (err instanceof FixtureError) {
      process.stderr.write(`campo: ${err.message}\n`);
      process.exitCode = EXIT_REFUSED;
    } else {
      process.stderr.write(`campo: erp-fixture failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    }
  } finally {
    await pool.end();
  }
}

/**
 * One line per phase; on a terminal the current phase's line is redrawn as it advances,
 * elsewhere (CI logs) a line is printed at 25, 50, 75 and 100% so a slow phase still shows life.
 */
function progressPrinter(out: NodeJS.WriteStream) {
  const started = performance.now();
  let phase = '';
  let lastQuarter = 0;
  let pending = '';
  const line = (p: FixtureProgress) => {
    const pct = p.total > 0 ? Math.floor((100 * p.done) / p.total) : 100;
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    return `${p.phase.padEnd(10)} ${String(pct).padStart(3)}%  ${p.done.toLocaleString('en-US')}/${p.total.toLocaleString('en-US')}  (${secs} s)`;
  };
  return {
    update(p: FixtureProgress) {
      if (out.isTTY) {
        if (p.phase !== phase && pending) out.write('\n');
        phase = p.phase;
        pending = line(p);
        out.write(`\r\x1b[K${pending}`);
        return;
      }
      if (p.phase !== phase) {
        phase = p.phase;
        lastQuarter = 0;
      }
      const quarter = p.total > 0 ? Math.floor((4 * p.done) / p.total) : 4;
      if (quarter > lastQuarter) {
        lastQuarter = quarter;
        out.write(`${line(p)}\n`);
      }
    },
    end() {
      if (out.isTTY && pending) out.write('\n');
      pending = '';
    },
  };
}

export function formatSummary(summary: FixtureSummary): string {
  const rows = Object.entries(summary.counts);
  const total = rows.reduce((sum, [, n]) => sum + n, 0);
  const width = Math.max(...rows.map(([t]) => t.length), 5);
  const num = (n: number) => n.toLocaleString('en-US').padStart(12);
  return [
    `Reference ERP created: scale ${summary.scale}, seed ${summary.seed}, as of ${summary.asOf}, in ${(summary.ms / 1000).toFixed(1)} s`,
    ...rows.map(([table, n]) => `  ${table.padEnd(width)} ${num(n)}`),
    `  ${'total'.padEnd(width)} ${num(total)}`,
    '',
  ].join('\n');
}
