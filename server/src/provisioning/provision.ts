// `campo provision`: puts Campo's schema app, its views over the ERP and its two triggers into
// an existing ERP database, and brings them up to date on later runs. Order of business:
// refuse what Campo cannot live in (before any change), plan, then apply: each migration in
// its own transaction, and all repeatable objects together in one more, so that the views
// and triggers are never seen half-replaced.

import { ERP_ENCODINGS, isErpEncoding } from '@campo/shared';
import type pg from 'pg';
import { type AppCounts, appCounts } from './catalog.ts';
import { checkErpContract } from './erp-check.ts';
import { ProvisionError } from './errors.ts';
import { describeAction, inspectApp, makePlan, type Plan, type PlannedAction, type ProvisionMode } from './plan.ts';
import {
  DEFAULT_PROFILE,
  erpContract,
  loadSqlSources,
  type Migration,
  type Repeatable,
  SqlSourceError,
  type SqlSources,
  UnknownProfileError,
} from './sources.ts';
import { catalogRows, expectedCatalog } from './verify.ts';

export interface ProvisionOptions {
  /** Inspect and print the plan; change nothing. */
  dryRun?: boolean;
  /** Also report every check and every object. */
  verbose?: boolean;
  /** Receives human-readable progress lines. */
  log?: (line: string) => void;
  /** SQL to apply instead of the repository's sql/ folder (tests). */
  sources?: SqlSources;
  /**
   * The ERP profile to install (`--profile`). Without it, the profile recorded in
   * app.perfil_erp by an earlier run, else the reference's.
   */
  profile?: string;
}

export interface ProvisionAction {
  type:
    | 'bootstrap'
    | 'baseline'
    | 'migration'
    | 'repair'
    | 'record-catalog'
    | 'function'
    | 'index'
    | 'view'
    | 'trigger'
    | 'drop'
    | 'forget';
  name: string;
  description: string;
}

export interface ProvisionReport {
  dryRun: boolean;
  /** Nothing needed doing. */
  upToDate: boolean;
  mode: ProvisionMode;
  /** The ERP profile installed (planned, for a dry run). */
  profile: string;
  database: string;
  serverVersion: string;
  /** In order: planned (dry run) or applied. */
  actions: ProvisionAction[];
  warnings: string[];
  /** Latest migration recorded after the run (before it, for a dry run). */
  schemaVersion: string | null;
  /** Objects in schema app after the run (now, for a dry run); tables exclude bookkeeping. */
  counts: AppCounts;
  durationMs: number;
}

/** Lowest major Campo supports: the ERP databases it meets run old majors. */
export const MIN_SERVER_VERSION_NUM = 120000;
/** Session advisory lock held for a whole run: 'CAMP' and 1, so two runs never interleave. */
const LOCK_KEY = [1128353104, 1] as const;

// Created by the runner itself (not by a migration) because recording migration 0001, or a
// baseline of an old schema app, needs them first. Idempotent: run at the start of every
// transaction that records something. The schema itself is created only when missing,
// since CREATE SCHEMA IF NOT EXISTS still needs the CREATE privilege on the database.
const BOOKKEEPING_SQL = `
create table if not exists app.schema_migrations (
  version     text primary key,
  name        text not null,
  checksum    text not null,
  kind        text not null default 'migration' check (kind in ('migration', 'baseline')),
  applied_at  timestamptz not null default now()
);
create table if not exists app.schema_repeatables (
  kind        text not null check (kind in ('function', 'index', 'view', 'trigger')),
  name        text not null,
  checksum    text not null,
  applied_at  timestamptz not null default now(),
  primary key (kind, name)
);
create table if not exists app.schema_catalog (
  key          text primary key,
  kind         text not null,
  def          text not null,
  recorded_at  timestamptz not null default now()
);
`;

interface PgError extends Error {
  code?: string;
  detail?: string;
  hint?: string;
  where?: string;
  position?: string;
}

/** A PostgreSQL error as one readable block, with the line of the SQL file where it happened. */
function pgErrorText(err: unknown, sql?: string): string {
  const e = err as PgError;
  const parts = [e.message ?? String(err)];
  if (e.position && sql) {
    const line = sql.slice(0, Number(e.position)).split('\n').length;
    parts[0] += ` (at line ${line})`;
  }
  if (e.detail) parts.push(`detail: ${e.detail}`);
  if (e.hint) parts.push(`hint: ${e.hint}`);
  if (e.where) parts.push(`where: ${e.where}`);
  return parts.join('\n  ');
}

async function inTransaction(client: pg.ClientBase, fn: () => Promise<void>): Promise<void> {
  await client.query('begin');
  try {
    await fn();
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  }
}

function toReportAction(a: PlannedAction): ProvisionAction {
  const description = describeAction(a);
  switch (a.type) {
    case 'bootstrap':
      return { type: 'bootstrap', name: 'app', description };
    case 'baseline':
    case 'migration':
      return { type: a.type, name: a.migration.name, description };
    case 'repeatable':
      return { type: a.item.kind, name: a.item.name, description };
    case 'drop':
      return { type: 'drop', name: `${a.kind} ${a.name}`, description };
    case 'forget-index-set':
      return { type: 'forget', name: a.name, description };
    case 'repair':
      return { type: 'repair', name: a.drift.item.key, description };
    case 'record-catalog':
      return { type: 'record-catalog', name: 'app.schema_catalog', description };
  }
}

function isUpToDate(plan: Plan): boolean {
  return plan.actions.length === 0;
}

export async function sqlSources(given: SqlSources | undefined, profile: string): Promise<SqlSources> {
  if (given) return given;
  try {
    return await loadSqlSources(undefined, profile);
  } catch (err) {
    if (err instanceof UnknownProfileError) throw new ProvisionError('refused', `${err.message}; nothing was changed`);
    // A broken file under sql/ is a defect of the release, not of the database.
    if (err instanceof SqlSourceError)
      throw new ProvisionError('unexpected', `invalid SQL shipped with Campo: ${err.message}`);
    throw err;
  }
}

/** The profile an earlier run installed (app.perfil_erp), null before the first run or release 0019. */
export async function recordedProfile(client: pg.ClientBase): Promise<string | null> {
  const exists = await client.query<{ ok: boolean }>("select to_regclass('app.perfil_erp') is not null as ok");
  if (!exists.rows[0]?.ok) return null;
  const { rows } = await client.query<{ perfil: string }>('select perfil from app.perfil_erp');
  return rows[0]?.perfil ?? null;
}

/** Remembers the profile for later runs, once migration 0019 has created its table. */
async function recordProfile(client: pg.ClientBase, profile: string): Promise<void> {
  await client.query(
    `insert into app.perfil_erp (unico, perfil) select true, $1 where to_regclass('app.perfil_erp') is not null
     on conflict (unico) do update set perfil = excluded.perfil, definido_em = now()
     where app.perfil_erp.perfil is distinct from excluded.perfil`,
    [profile],
  );
}

export async function serverFacts(client: pg.ClientBase) {
  const { rows } = await client.query<{ num: string; version: string; encoding: string; database: string }>(
    `select current_setting('server_version_num') as num, current_setting('server_version') as version,
            pg_encoding_to_char(d.encoding) as encoding, d.datname as database
       from pg_database d where d.datname = current_database()`,
  );
  const row = rows[0];
  if (!row) throw new ProvisionError('unexpected', 'cannot read the current database from pg_database');
  return { versionNum: Number(row.num), version: row.version, encoding: row.encoding, database: row.database };
}

async function applyMigration(
  client: pg.ClientBase,
  m: Migration,
  kind: 'migration' | 'baseline',
  bookkeeping: string,
): Promise<void> {
  let running = false;
  try {
    await inTransaction(client, async () => {
      await client.query(bookkeeping);
      if (kind === 'migration') {
        running = true;
        await client.query(m.sql);
        running = false;
      }
      await client.query('insert into app.schema_migrations (version, name, checksum, kind) values ($1, $2, $3, $4)', [
        m.version,
        m.name,
        m.checksum,
        kind,
      ]);
    });
  } catch (err) {
    const what = kind === 'baseline' ? `recording ${m.name} as baseline` : `migration ${m.name}`;
    // Line numbers only mean something for an error inside the migration's own SQL.
    throw new ProvisionError(
      'migrationFailed',
      `${what} failed and was rolled back: ${pgErrorText(err, running ? m.sql : undefined)}`,
    );
  }
}

/** Functions of schema app that some shipped file or migration creates. */
function createdFunctions(sources: SqlSources): Set<string> {
  const names = new Set<string>();
  for (const { sql } of [...sources.migrations, ...sources.repeatables]) {
    for (const m of sql.matchAll(/create\s+(?:or\s+replace\s+)?function\s+app\.(\w+)/gi)) {
      if (m[1]) names.add(m[1].toLowerCase());
    }
  }
  return names;
}

/**
 * A function file whose signature changed leaves the old one behind: CREATE OR REPLACE with
 * other argument types creates an overload. Every overload of a function the file creates
 * that the file did not just create or replace (its pg_proc row was not written by this
 * transaction: age(xmin) is 0 only for rows this transaction wrote) is an earlier release's,
 * and is dropped unless something still uses it.
 */
async function dropOldOverloads(
  client: pg.ClientBase,
  item: Repeatable,
  detail: (line: string) => void,
): Promise<void> {
  const names = [...createdFunctions({ migrations: [], repeatables: [item] })];
  const { rows } = await client.query<{ fn: string; used: boolean }>(
    `select p.oid::regprocedure::text as fn,
            exists (select 1 from pg_depend d where d.refclassid = 'pg_proc'::regclass and d.refobjid = p.oid) as used
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'app' and p.proname = any ($1) and age(p.xmin) <> 0`,
    [names],
  );
  for (const r of rows) {
    if (r.used) continue;
    await client.query(`drop function ${r.fn}`);
    detail(`  function ${r.fn}: dropped (an earlier release's signature)`);
  }
}

async function applyRepeatables(
  client: pg.ClientBase,
  actions: PlannedAction[],
  bookkeeping: string,
  detail: (line: string) => void,
  keepFunctions: Set<string>,
): Promise<void> {
  const items = actions.flatMap((a) => (a.type === 'repeatable' ? [a] : []));
  const drops = actions.flatMap((a) => (a.type === 'drop' ? [a] : []));
  const forgets = actions.flatMap((a) => (a.type === 'forget-index-set' ? [a] : []));
  let current: Repeatable | null = null;
  try {
    await inTransaction(client, async () => {
      await client.query(bookkeeping);
      // One DROP for every view that is recreated or retired: PostgreSQL then accepts
      // dependencies among them, whatever order the old definitions had.
      const dropViews = [
        ...items.filter((a) => a.item.kind === 'view').map((a) => a.item.name),
        ...drops.filter((d) => d.kind === 'view').map((d) => d.name),
      ];
      if (dropViews.length > 0) {
        await client.query(`drop view if exists ${dropViews.map((v) => `app.${v}`).join(', ')}`);
      }
      for (const { item, reason } of items) {
        current = item;
        const started = performance.now();
        await client.query(item.sql);
        if (item.kind === 'function' || item.kind === 'trigger') await dropOldOverloads(client, item, detail);
        detail(`  ${item.kind} ${item.name}: ${reason} (${Math.round(performance.now() - started)} ms)`);
        if (item.kind === 'index') {
          const { rows } = await client.query<{ name: string; tbl: string }>(
            'select indexname as name, tablename as tbl from pg_indexes where indexname = any ($1) order by 1',
            [item.indexes],
          );
          const built = new Set(rows.map((r) => r.name));
          for (const ix of item.indexes) {
            detail(`    ${ix}: ${built.has(ix) ? 'present' : 'not needed, the ERP has an equivalent index'}`);
          }
        }
      }
      current = null;
      for (const d of drops) {
        if (d.kind === 'trigger') {
          const { rows } = await client.query<{ table: string }>(
            `select c.oid::regclass::text as table from pg_trigger t join pg_class c on c.oid = t.tgrelid
               join pg_namespace n on n.oid = c.relnamespace
              where n.nspname = 'app' and t.tgname = $1 and not t.tgisinternal`,
            [d.name],
          );
          const functions = await client.query<{ oid: number; fn: string; name: string }>(
            `select distinct p.oid::int as oid, p.oid::regprocedure::text as fn, p.proname as name
               from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
               join pg_proc p on p.oid = t.tgfoid join pg_namespace pn on pn.oid = p.pronamespace
              where n.nspname = 'app' and t.tgname = $1 and not t.tgisinternal and pn.nspname = 'app'`,
            [d.name],
          );
          for (const r of rows) await client.query(`drop trigger if exists ${d.name} on ${r.table}`);
          // The trigger file created its function too: it goes with it, unless a shipped file
          // or a migration still creates it, or anything (another trigger, an operator's
          // object) still uses it.
          for (const f of functions.rows) {
            if (keepFunctions.has(f.name)) continue;
            const used = await client.query<{ n: number }>(
              "select count(*)::int as n from pg_depend where refclassid = 'pg_proc'::regclass and refobjid = $1",
              [f.oid],
            );
            if ((used.rows[0]?.n ?? 0) > 0) continue;
            await client.query(`drop function if exists ${f.fn}`);
            detail(`  function ${f.name}: dropped with trigger ${d.name}`);
          }
        } else if (d.kind === 'function') {
          // One the operator's objects still use stays, theirs from now on: dropping it would
          // fail the run, and CASCADE would drop what is not Campo's.
          const { rows } = await client.query<{ fn: string; used: boolean }>(
            `select p.oid::regprocedure::text as fn,
                    exists (select 1 from pg_depend d where d.refclassid = 'pg_proc'::regclass and d.refobjid = p.oid) as used
               from pg_proc p join pg_namespace n on n.oid = p.pronamespace
              where n.nspname = 'app' and p.proname = $1`,
            [d.name],
          );
          for (const r of rows) {
            if (r.used) detail(`  function ${r.fn}: kept (no longer shipped, but something still uses it)`);
            else await client.query(`drop function if exists ${r.fn}`);
          }
        }
        await client.query('delete from app.schema_repeatables where kind = $1 and name = $2', [d.kind, d.name]);
        detail(`  ${d.kind} ${d.name}: dropped (no longer shipped)`);
      }
      for (const f of forgets) {
        await client.query("delete from app.schema_repeatables where kind = 'index' and name = $1", [f.name]);
      }
      for (const { item } of items) {
        await client.query(
          `insert into app.schema_repeatables (kind, name, checksum) values ($1, $2, $3)
           on conflict (kind, name) do update set checksum = excluded.checksum, applied_at = now()`,
          [item.kind, item.name, item.checksum],
        );
      }
    });
  } catch (err) {
    if (err instanceof ProvisionError) throw err;
    const failed = current as Repeatable | null;
    const what = failed ? `${failed.file} failed` : 'applying views and triggers failed';
    throw new ProvisionError(
      'migrationFailed',
      `${what}; every view, trigger and function change of this run was rolled back: ${pgErrorText(err, failed?.sql)}`,
    );
  }
}

/** Puts back what was dropped from schema app since its migrations ran, in one transaction. */
async function applyRepairs(
  client: pg.ClientBase,
  repairs: Extract<PlannedAction, { type: 'repair' }>[],
  bookkeeping: string,
): Promise<void> {
  let current: (typeof repairs)[number] | null = null;
  try {
    await inTransaction(client, async () => {
      await client.query(bookkeeping);
      for (const r of repairs) {
        current = r;
        await client.query(r.sql);
      }
    });
  } catch (err) {
    const failed = current as (typeof repairs)[number] | null;
    throw new ProvisionError(
      'migrationFailed',
      `repairing ${failed?.drift.item.key ?? 'schema app'} failed; every repair of this run was rolled back: ${pgErrorText(err)}\n  statement: ${failed?.sql ?? ''}`,
    );
  }
}

/**
 * Stores what the migrations create in app.schema_catalog, for `campo serve` to compare with
 * at start-up (its role may not create the scratch schema the comparison needs).
 */
async function recordCatalog(client: pg.ClientBase, migrations: Migration[], bookkeeping: string): Promise<void> {
  const { rows: recorded } = await client.query<{ version: string; kind: string }>(
    'select version, kind from app.schema_migrations',
  );
  const applied = new Set(recorded.map((r) => r.version));
  const baseline = recorded.filter((r) => r.kind === 'baseline').map((r) => r.version);
  const rows = catalogRows(
    await expectedCatalog(
      client,
      migrations.filter((m) => applied.has(m.version)),
      baseline,
    ),
  );
  await inTransaction(client, async () => {
    await client.query(bookkeeping);
    await client.query('delete from app.schema_catalog');
    await client.query(
      `insert into app.schema_catalog (key, kind, def)
       select * from unnest($1::text[], $2::text[], $3::text[])`,
      [rows.map((r) => r.key), rows.map((r) => r.kind), rows.map((r) => r.def)],
    );
  });
}

/**
 * A view that is dropped and recreated loses its grants. The roles `--grant-to` set up (those
 * with USAGE on schema app granted explicitly) get SELECT on the recreated views back, so a
 * repair or an upgrade does not leave the server answering "permission denied".
 */
async function regrantViews(client: pg.ClientBase, applied: PlannedAction[]): Promise<void> {
  const views = applied.flatMap((a) => (a.type === 'repeatable' && a.item.kind === 'view' ? [a.item.name] : []));
  if (views.length === 0) return;
  const { rows } = await client.query<{ role: string }>(
    `select distinct quote_ident(pg_get_userbyid(acl.grantee)) as role
       from pg_namespace n, aclexplode(n.nspacl) as acl
      where n.nspname = 'app' and acl.privilege_type = 'USAGE'
        and acl.grantee <> n.nspowner and acl.grantee <> 0`,
  );
  if (rows.length === 0) return;
  const list = views.map((v) => `app.${v}`).join(', ');
  for (const r of rows) await client.query(`grant select on ${list} to ${r.role}`);
}

function summariseRepeatables(actions: PlannedAction[]): string[] {
  const counts = new Map<string, number>();
  for (const a of actions) {
    if (a.type !== 'repeatable') continue;
    counts.set(a.item.kind, (counts.get(a.item.kind) ?? 0) + 1);
  }
  const label: Record<string, [string, string]> = {
    function: ['function', 'functions'],
    index: ['set of ERP indexes', 'sets of ERP indexes'],
    view: ['view', 'views'],
    trigger: ['trigger', 'triggers'],
  };
  return [...counts].map(([kind, n]) => `${n} ${label[kind]?.[n === 1 ? 0 : 1] ?? kind} created or replaced`);
}

async function schemaVersion(client: pg.ClientBase): Promise<string | null> {
  const exists = await client.query<{ ok: boolean }>("select to_regclass('app.schema_migrations') is not null as ok");
  if (!exists.rows[0]?.ok) return null;
  const { rows } = await client.query<{ v: string | null }>('select max(version) as v from app.schema_migrations');
  return rows[0]?.v ?? null;
}

function connectionProblem(err: unknown): ProvisionError {
  const e = err as PgError & { code?: string };
  return new ProvisionError('refused', `cannot connect to the database in DATABASE_URL: ${e.message || e.code}`);
}

/**
 * Provisions (or upgrades) Campo in the ERP database the pool points at. Throws
 * ProvisionError, whose exitCode the CLI returns, when it refuses or fails.
 */
export async function provision(pool: pg.Pool, options: ProvisionOptions = {}): Promise<ProvisionReport> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const detail = options.verbose ? log : () => undefined;
  const dryRun = options.dryRun === true;

  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (err) {
    throw connectionProblem(err);
  }
  try {
    // Index builds on large ERP tables can outlast a timeout an ERP role may carry.
    await client.query(
      'set statement_timeout = 0; set lock_timeout = 0; set idle_in_transaction_session_timeout = 0; set client_min_messages = warning',
    );
    const lock = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1, $2) as ok', [...LOCK_KEY]);
    if (!lock.rows[0]?.ok) {
      log('waiting for another campo provision on this database to finish');
      await client.query('select pg_advisory_lock($1, $2)', [...LOCK_KEY]);
    }
    try {
      const server = await serverFacts(client);
      if (server.versionNum < MIN_SERVER_VERSION_NUM) {
        throw new ProvisionError(
          'refused',
          `database ${server.database} runs PostgreSQL ${server.version}; Campo needs PostgreSQL 12 or newer`,
        );
      }
      if (!isErpEncoding(server.encoding)) {
        throw new ProvisionError(
          'refused',
          `database ${server.database} has encoding ${server.encoding}; Campo lives in ERP databases encoded ${ERP_ENCODINGS.join(', ')} and refuses any other encoding (is DATABASE_URL pointing at the ERP?)`,
        );
      }
      detail(`database ${server.database}: PostgreSQL ${server.version}, encoding ${server.encoding}`);

      const recorded = await recordedProfile(client);
      const profile = options.sources?.profile ?? options.profile ?? recorded ?? DEFAULT_PROFILE;
      const sources = await sqlSources(options.sources, profile);
      if (recorded !== null && recorded !== profile) {
        log(
          `ERP profile: ${recorded} -> ${profile} (the views and triggers of ${profile} replace those of ${recorded})`,
        );
      } else {
        detail(`ERP profile: ${profile}${recorded === profile ? ' (recorded by an earlier run)' : ''}`);
      }

      const contract = erpContract(sources);
      const problems = await checkErpContract(client, contract);
      if (problems.length > 0) {
        throw new ProvisionError(
          'refused',
          `the ERP database lacks what Campo's views and triggers need; nothing was changed:\n  ${problems.join('\n  ')}`,
        );
      }
      for (const req of contract) {
        detail(`ERP ${req.table}: ${req.access} ${req.columns.length} columns ok (${req.usedBy.join(', ')})`);
      }

      const state = await inspectApp(client);
      const plan = await makePlan(client, sources, state);
      for (const w of plan.warnings) log(`warning: ${w}`);
      if (options.verbose) {
        for (const a of state.applied) detail(`migration ${a.name}: applied (${a.kind})`);
        const planned = new Set(plan.actions.flatMap((a) => (a.type === 'repeatable' ? [a.item] : [])));
        for (const r of sources.repeatables) if (!planned.has(r)) detail(`${r.kind} ${r.name}: up to date`);
      }
      // A database provisioned before profiles were recorded holds the reference's objects.
      const profileChanges = (recorded ?? DEFAULT_PROFILE) !== profile;
      const upToDate = isUpToDate(plan) && !profileChanges;
      const report = (actions: ProvisionAction[], counts: AppCounts, version: string | null): ProvisionReport => ({
        dryRun,
        upToDate,
        mode: plan.mode,
        profile,
        database: server.database,
        serverVersion: server.version,
        actions,
        warnings: plan.warnings,
        schemaVersion: version,
        counts,
        durationMs: Math.round(performance.now() - started),
      });

      if (dryRun || upToDate) {
        if (dryRun) for (const a of plan.actions) log(`would ${describeAction(a)}`);
        return report(plan.actions.map(toReportAction), await appCounts(client), await schemaVersion(client));
      }

      const bookkeeping = `${state.schemaExists ? '' : 'create schema if not exists app;\n'}${BOOKKEEPING_SQL}`;
      const done: ProvisionAction[] = [];
      const migrationsApplied: string[] = [];
      const repairs = plan.actions.flatMap((a) => (a.type === 'repair' ? [a] : []));
      if (repairs.length > 0) {
        await applyRepairs(client, repairs, bookkeeping);
        for (const r of repairs) log(`repaired ${r.drift.item.key}`);
        done.push(...repairs.map(toReportAction));
      }
      try {
        for (const a of plan.actions) {
          if (a.type === 'bootstrap') {
            done.push(toReportAction(a));
          } else if (a.type === 'baseline' || a.type === 'migration') {
            const t = performance.now();
            await applyMigration(client, a.migration, a.type, bookkeeping);
            migrationsApplied.push(a.migration.name);
            done.push(toReportAction(a));
            log(
              a.type === 'baseline'
                ? `recorded ${a.migration.name} as baseline of the existing schema app`
                : `applied migration ${a.migration.name} (${Math.round(performance.now() - t)} ms)`,
            );
          }
        }
      } catch (err) {
        if (err instanceof ProvisionError && migrationsApplied.length > 0) {
          err.message += `\n  (applied and kept before it: ${migrationsApplied.join(', ')})`;
        }
        throw err;
      }
      const record = plan.actions.find((a) => a.type === 'record-catalog');
      if (record) {
        await recordCatalog(client, sources.migrations, bookkeeping);
        done.push(toReportAction(record));
      }
      const rest = plan.actions.filter(
        (a) =>
          a.type !== 'bootstrap' &&
          a.type !== 'baseline' &&
          a.type !== 'migration' &&
          a.type !== 'repair' &&
          a.type !== 'record-catalog',
      );
      if (rest.length > 0) {
        await applyRepeatables(client, rest, bookkeeping, detail, createdFunctions(sources));
        for (const line of summariseRepeatables(rest)) log(line);
        done.push(...rest.map(toReportAction));
        await regrantViews(client, rest);
      }
      await recordProfile(client, profile);
      return report(done, await appCounts(client), await schemaVersion(client));
    } finally {
      await client.query('select pg_advisory_unlock($1, $2)', [...LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    client.release();
  }
}
