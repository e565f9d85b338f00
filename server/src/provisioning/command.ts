import type { Command } from 'commander';
import { loadDatabaseUrl } from '../config.ts';
import { createPool } from '../db/pool.ts';
import { checkProvisioning, checkReportText } from './check.ts';
import { EXIT_CODES, ProvisionError } from './errors.ts';
import { grantServerRole } from './grant.ts';
import { type ProvisionReport, provision } from './provision.ts';

const EXIT_HELP = `
Exit codes:
  ${EXIT_CODES.ok}  done, or already up to date (--check: the database fits)
  ${EXIT_CODES.unexpected}  unexpected error
  ${EXIT_CODES.config}  bad configuration (DATABASE_URL missing or malformed)
  ${EXIT_CODES.refused}  database refused: cannot connect, an encoding other than LATIN1, WIN1252 or UTF8, PostgreSQL older than 12, ERP tables or columns missing, unknown --profile (--check: any problem found)
  ${EXIT_CODES.schemaMismatch}  schema app is not what this release expects (baseline differs, an applied migration was edited, a view not Campo's selects from one Campo replaces or retired)
  ${EXIT_CODES.migrationFailed}  a migration, view or trigger failed; its transaction was rolled back

Environment: DATABASE_URL (required), the ERP database. See docs/provisioning.md.`;

/** The last line of every run: what schema app holds now. */
export function summaryLine(r: ProvisionReport): string {
  const objects = `${r.counts.tables} tables, ${r.counts.views} views, ${r.counts.triggers} triggers`;
  const version = r.schemaVersion ? `schema ${r.schemaVersion}` : 'no schema yet';
  const seconds = `${(r.durationMs / 1000).toFixed(1)} s`;
  if (r.upToDate) return `Already up to date: ${version}, ${objects} (${seconds}).`;
  if (r.dryRun) return `Dry run, nothing changed: ${r.actions.length} changes planned; now ${version}, ${objects}.`;
  return `Provisioned ${r.database}: ${version}, ${objects}; ${r.actions.length} changes applied (${seconds}).`;
}

export interface ProvisionCommandOptions {
  dryRun?: boolean;
  verbose?: boolean;
  grantTo?: string;
  /** Check the database against the profile's SQL and the views' contract; change nothing. */
  check?: boolean;
  /** With check: the report as JSON on stdout, progress on stderr. */
  json?: boolean;
  profile?: string;
}

/**
 * `campo provision` once DATABASE_URL is read: what it prints goes to `out` and `err`, and
 * the exit code is returned. Apart from the CLI, the upgrade tests call it in process (a
 * child process per database costs a second each).
 */
export async function runProvisionCommand(
  url: string,
  opts: ProvisionCommandOptions,
  out: (text: string) => void,
  err: (text: string) => void,
): Promise<number> {
  const pool = createPool(url, 2);
  try {
    if (opts.check) {
      const progress = opts.json ? err : out;
      const checked = await checkProvisioning(pool, {
        ...(opts.profile === undefined ? {} : { profile: opts.profile }),
        log: (line) => progress(`${line}\n`),
      });
      out(opts.json ? `${JSON.stringify(checked, null, 2)}\n` : checkReportText(checked));
      return checked.fit ? EXIT_CODES.ok : EXIT_CODES.refused;
    }
    const report = await provision(pool, {
      dryRun: opts.dryRun === true,
      verbose: opts.verbose === true,
      ...(opts.profile === undefined ? {} : { profile: opts.profile }),
      log: (line) => out(`${line}\n`),
    });
    out(`${summaryLine(report)}\n`);
    if (opts.grantTo && !report.dryRun) {
      const granted = await grantServerRole(pool, opts.grantTo);
      out(`Granted ${opts.grantTo}: ${granted.tables} tables, ${granted.views} views.\n`);
    }
    return EXIT_CODES.ok;
  } catch (e) {
    if (e instanceof ProvisionError) {
      err(`campo: ${e.message}\n`);
      return e.exitCode;
    }
    err(`campo: unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return EXIT_CODES.unexpected;
  } finally {
    await pool.end();
  }
}

async function provisionCommand(opts: ProvisionCommandOptions): Promise<void> {
  const code = await runProvisionCommand(
    loadDatabaseUrl(),
    opts,
    (text) => process.stdout.write(text),
    (text) => process.stderr.write(text),
  );
  if (code !== EXIT_CODES.ok) process.exitCode = code;
}

/** `campo provision [--dry-run] [--verbose] [--profile <name>] [--grant-to <role>] [--check [--json]]` */
export function registerProvisionCommand(program: Command): void {
  program
    .command('provision')
    .description("Create or upgrade Campo's schema app, its views over the ERP and its triggers (safe to re-run)")
    .option('--dry-run', 'print the plan and change nothing')
    .option('--verbose', 'print every check and every object')
    .option(
      '--profile <name>',
      "the ERP profile whose views and triggers to install (default: the one recorded by the last run, else 'referencia'); see docs/provisioning.md",
    )
    .option(
      '--check',
      "check the mapped ERP database against the views' contract, rehearse the triggers, change nothing",
    )
    .option('--json', 'with --check: print the report as JSON')
    .option('--grant-to <role>', "give the server's database role (not a superuser, not the owner) what the API needs")
    .addHelpText('after', EXIT_HELP)
    .action(provisionCommand);
}
