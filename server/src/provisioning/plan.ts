// What provisioning would do to this database, decided from the catalog and the
// bookkeeping tables before anything changes. The same plan is printed by --dry-run and
// carried out by a real run, so the two cannot disagree.
import type pg from 'pg';
import { compareBaseline, probeMigration } from './baseline.ts';
import { tableColumns } from './catalog.ts';
import { ProvisionError } from './errors.ts';
import type { Migration, Repeatable, RepeatableKind, SqlSources } from './sources.ts';
import {
  type CatalogItem,
  compareCatalog,
  type Drift,
  describeDrift,
  expectedCatalog,
  readCatalog,
  repairable,
  repairSql,
} from './verify.ts';

/** Why a repeatable object is (re)applied. */
export type ApplyReason = 'new' | 'replaces an unrecorded one' | 'changed' | 'missing' | 'depends on a recreated view';

export type PlannedAction =
  | { type: 'bootstrap' }
  | { type: 'baseline'; migration: Migration; toBeAdded: string[] }
  | { type: 'migration'; migration: Migration }
  | { type: 'repeatable'; item: Repeatable; reason: ApplyReason }
  | { type: 'drop'; kind: Exclude<RepeatableKind, 'index'>; name: string }
  | { type: 'forget-index-set'; name: string }
  | { type: 'repair'; drift: Drift; sql: string }
  | { type: 'record-catalog' };

export type ProvisionMode = 'fresh' | 'baseline' | 'upgrade';

export interface Plan {
  mode: ProvisionMode;
  actions: PlannedAction[];
  warnings: string[];
}

interface AppliedMigration {
  version: string;
  name: string;
  checksum: string;
  kind: string;
}

export interface AppState {
  schemaExists: boolean;
  /** Rows of app.schema_catalog (what the last run expected), null without the table. */
  storedCatalog: Map<string, string> | null;
  tables: Set<string>;
  hasMigrationsTable: boolean;
  hasRepeatablesTable: boolean;
  applied: AppliedMigration[];
  /** `${kind}:${name}` -> checksum */
  recorded: Map<string, string>;
  views: Set<string>;
  triggers: Set<string>;
  functions: Set<string>;
}

export async function inspectApp(client: pg.ClientBase): Promise<AppState> {
  const rel = await client.query<{ name: string; kind: string }>(
    `select c.relname as name, c.relkind::text as kind
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'app' and c.relkind in ('r', 'p', 'v')`,
  );
  const schema = await client.query<{ ok: boolean }>(
    "select exists (select 1 from pg_namespace where nspname = 'app') as ok",
  );
  const tables = new Set(rel.rows.filter((r) => r.kind !== 'v').map((r) => r.name));
  const views = new Set(rel.rows.filter((r) => r.kind === 'v').map((r) => r.name));
  const hasMigrationsTable = tables.has('schema_migrations');
  const hasRepeatablesTable = tables.has('schema_repeatables');
  tables.delete('schema_migrations');
  tables.delete('schema_repeatables');
  const hasCatalogTable = tables.delete('schema_catalog');
  let storedCatalog: Map<string, string> | null = null;
  if (hasCatalogTable) {
    const { rows } = await client.query<{ key: string; def: string }>('select key, def from app.schema_catalog');
    storedCatalog = new Map(rows.map((r) => [r.key, r.def]));
  }
  const applied = hasMigrationsTable
    ? (
        await client.query<AppliedMigration>(
          'select version, name, checksum, kind from app.schema_migrations order by version',
        )
      ).rows
    : [];
  const recorded = new Map<string, string>();
  if (hasRepeatablesTable) {
    const { rows } = await client.query<{ kind: string; name: string; checksum: string }>(
      'select kind, name, checksum from app.schema_repeatables',
    );
    for (const r of rows) recorded.set(`${r.kind}:${r.name}`, r.checksum);
  }
  const triggers = await client.query<{ name: string }>(
    `select t.tgname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
       join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'app' and not t.tgisinternal and t.tgenabled <> 'D'`,
  );
  const functions = await client.query<{ name: string }>(
    "select p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'app'",
  );
  return {
    schemaExists: schema.rows[0]?.ok === true,
    storedCatalog,
    tables,
    hasMigrationsTable,
    hasRepeatablesTable,
    applied,
    recorded,
    views,
    triggers: new Set(triggers.rows.map((r) => r.name)),
    functions: new Set(functions.rows.map((r) => r.name)),
  };
}

function objectExists(state: AppState, item: Repeatable): boolean {
  switch (item.kind) {
    case 'view':
      return state.views.has(item.name);
    case 'trigger':
      return state.triggers.has(item.name);
    case 'function':
      return state.functions.has(item.name);
    case 'index':
      // A campo_* index is only built where the ERP has no equivalent one, so its absence
      // is normal: index sets are re-applied when their file changes, not when one is absent.
      return true;
  }
}

/** Views of any schema that select from the given app views: [dependent, referenced]. */
async function viewDependents(client: pg.ClientBase): Promise<{ dependent: string; referenced: string }[]> {
  const { rows } = await client.query<{ dependent: string; referenced: string }>(
    `select distinct dn.nspname || '.' || dv.relname as dependent, rv.relname as referenced
       from pg_depend d
       join pg_rewrite r on r.oid = d.objid
       join pg_class dv on dv.oid = r.ev_class
       join pg_namespace dn on dn.oid = dv.relnamespace
       join pg_class rv on rv.oid = d.refobjid
       join pg_namespace rn on rn.oid = rv.relnamespace
      where d.classid = 'pg_rewrite'::regclass
        and d.refclassid = 'pg_class'::regclass
        and rn.nspname = 'app' and rv.relkind = 'v'
        and dv.oid <> rv.oid`,
  );
  return rows;
}

function planMigrations(
  sources: SqlSources,
  state: AppState,
): { mode: ProvisionMode; applied: Migration[]; pending: Migration[] } {
  if (state.hasMigrationsTable) {
    const known = new Map(sources.migrations.map((m) => [m.version, m]));
    for (const a of state.applied) {
      const source = known.get(a.version);
      if (!source) {
        throw new ProvisionError(
          'schemaMismatch',
          `this database has migration ${a.name}, which this release of Campo does not know: a newer release provisioned it; run that release instead`,
        );
      }
      if (source.checksum !== a.checksum) {
        throw new ProvisionError(
          'schemaMismatch',
          `migration ${a.name} was changed after it was applied to this database (recorded checksum ${a.checksum.slice(0, 12)}, file ${source.checksum.slice(0, 12)}); applied migrations must never change: restore the file and put the change in a new numbered migration`,
        );
      }
    }
    const done = new Set(state.applied.map((a) => a.version));
    return {
      mode: 'upgrade',
      applied: sources.migrations.filter((m) => done.has(m.version)),
      pending: sources.migrations.filter((m) => !done.has(m.version)),
    };
  }
  return { mode: state.tables.size === 0 ? 'fresh' : 'baseline', applied: [], pending: sources.migrations };
}

export async function makePlan(client: pg.ClientBase, sources: SqlSources, state: AppState): Promise<Plan> {
  const actions: PlannedAction[] = [];
  const warnings: string[] = [];
  const { mode, applied, pending } = planMigrations(sources, state);

  if (mode !== 'upgrade') actions.push({ type: 'bootstrap' });
  if (mode === 'baseline') {
    const [first, ...later] = pending;
    if (!first) throw new ProvisionError('unexpected', 'no migrations found under sql/migrations');
    const expected = await probeMigration(client, first);
    const actual = await tableColumns(client, 'app');
    const result = compareBaseline(
      expected,
      actual,
      later.flatMap((m) => m.addsColumns),
    );
    if (result.differences.length > 0) {
      throw new ProvisionError(
        'schemaMismatch',
        `schema app exists without Campo's migration records, and it is not the setup ${first.name} describes, so it cannot be recorded as a baseline:\n  ${result.differences.join('\n  ')}`,
      );
    }
    warnings.push(...result.warnings);
    actions.push({ type: 'baseline', migration: first, toBeAdded: result.toBeAdded });
    for (const m of later) actions.push({ type: 'migration', migration: m });
  } else {
    // The history says what was applied; the catalog says whether it is still there.
    const expected =
      mode === 'upgrade'
        ? await expectedCatalog(
            client,
            applied,
            state.applied.filter((a) => a.kind === 'baseline').map((a) => a.version),
          )
        : null;
    if (expected) actions.push(...(await planRepairs(client, expected)));
    for (const m of pending) actions.push({ type: 'migration', migration: m });
    if (expected && pending.length === 0 && !sameCatalog(expected, state.storedCatalog)) {
      actions.push({ type: 'record-catalog' });
    }
  }
  if (mode !== 'upgrade' || pending.length > 0) actions.push({ type: 'record-catalog' });

  // Repeatables: what changed, what is missing, and every view that must be recreated
  // because a view it selects from is dropped and recreated.
  const reasons = new Map<Repeatable, ApplyReason>();
  for (const item of sources.repeatables) {
    const recorded = state.recorded.get(`${item.kind}:${item.name}`);
    const exists = objectExists(state, item);
    let reason: ApplyReason | null = null;
    if (recorded === undefined) reason = exists && item.kind !== 'index' ? 'replaces an unrecorded one' : 'new';
    else if (recorded !== item.checksum) reason = 'changed';
    else if (!exists) reason = 'missing';
    if (reason) reasons.set(item, reason);
  }
  const views = sources.repeatables.filter((r) => r.kind === 'view');
  const managed = new Map(views.map((v) => [`app.${v.name}`, v]));
  // Views an earlier release created (app.schema_repeatables has recorded every view, trigger
  // and function Campo created since its first release) whose file is gone: Campo's own,
  // dropped in the same statement as the recreated views, so one of them selecting from a
  // recreated view is no obstacle. A view no release of Campo created is the operator's.
  const shipped = new Set(sources.repeatables.map((r) => `${r.kind}:${r.name}`));
  const retiredViews = new Set(
    [...state.recorded.keys()]
      .filter((key) => key.startsWith('view:') && !shipped.has(key))
      .map((key) => key.slice('view:'.length)),
  );
  const isRetired = (qualified: string) => qualified.startsWith('app.') && retiredViews.has(qualified.slice(4));
  const edges = await viewDependents(client);
  for (let grew = true; grew; ) {
    grew = false;
    const recreated = new Set([...reasons.keys()].filter((r) => r.kind === 'view').map((r) => r.name));
    for (const v of views) {
      if (!reasons.has(v) && v.dependsOn.some((d) => recreated.has(d))) {
        reasons.set(v, 'depends on a recreated view');
        grew = true;
      }
    }
    for (const e of edges) {
      const retired = retiredViews.has(e.referenced);
      if ((!retired && !recreated.has(e.referenced)) || isRetired(e.dependent)) continue;
      const dependent = managed.get(e.dependent);
      if (!dependent) {
        throw new ProvisionError(
          'schemaMismatch',
          retired
            ? `view ${e.dependent} selects from app.${e.referenced}, which Campo no longer ships and provisioning must drop; Campo does not manage ${e.dependent}: drop it or make it select from the views Campo ships (docs/provisioning.md)`
            : `view ${e.dependent} selects from app.${e.referenced}, which provisioning must drop and recreate; Campo does not manage ${e.dependent}: drop it (and recreate it afterwards) or move it into sql/views`,
        );
      }
      if (!reasons.has(dependent)) {
        reasons.set(dependent, 'depends on a recreated view');
        grew = true;
      }
    }
  }
  for (const item of sources.repeatables) {
    const reason = reasons.get(item);
    if (reason) actions.push({ type: 'repeatable', item, reason });
  }

  // Objects an earlier release created whose file is gone: views, triggers and functions are
  // Campo's own and are dropped; indexes on ERP tables are left in place, only forgotten.
  for (const key of [...state.recorded.keys()].sort()) {
    if (shipped.has(key)) continue;
    const [kind, name] = key.split(':') as [RepeatableKind, string];
    if (kind === 'index') {
      actions.push({ type: 'forget-index-set', name });
      warnings.push(`index set ${name} is no longer shipped; its campo_* indexes are left on the ERP tables`);
    } else {
      actions.push({ type: 'drop', kind, name });
    }
  }
  return { mode, actions, warnings };
}

/** Repair order: a column before the constraints and indexes on it, functions before policies. */
const REPAIR_ORDER: CatalogItem['kind'][] = ['column', 'function', 'constraint', 'index', 'rls', 'policy', 'trigger'];

/**
 * Drift of schema app from what its recorded migrations created: repairs for what can be
 * re-created without losing data, a refusal (exit 4, nothing changed) listing the rest.
 */
async function planRepairs(client: pg.ClientBase, expected: Map<string, CatalogItem>): Promise<PlannedAction[]> {
  const drift = compareCatalog(expected, await readCatalog(client, 'app'));
  const refused = drift.filter((d) => !repairable(d));
  if (refused.length > 0) {
    throw new ProvisionError(
      'schemaMismatch',
      `schema app no longer holds what its recorded migrations created, and provisioning cannot put it back without losing data; nothing was changed:\n  ${refused.map(describeDrift).join('\n  ')}`,
    );
  }
  return drift
    .sort((a, b) => REPAIR_ORDER.indexOf(a.item.kind) - REPAIR_ORDER.indexOf(b.item.kind))
    .map((d) => ({ type: 'repair', drift: d, sql: repairSql(d) }));
}

function sameCatalog(expected: Map<string, CatalogItem>, stored: Map<string, string> | null): boolean {
  if (!stored || stored.size !== expected.size) return false;
  for (const [key, item] of expected) if (stored.get(key) !== item.def) return false;
  return true;
}

/** One line per action, as --dry-run and --verbose print them. */
export function describeAction(a: PlannedAction): string {
  switch (a.type) {
    case 'bootstrap':
      return 'create schema app and the migration bookkeeping tables (if missing)';
    case 'baseline':
      return `record ${a.migration.name} as baseline of the existing schema app${a.toBeAdded.length ? ` (missing ${a.toBeAdded.join(', ')}: added by a later migration)` : ''}`;
    case 'migration':
      return `apply migration ${a.migration.name}`;
    case 'repeatable':
      return `${a.reason === 'new' ? 'create' : 'recreate'} ${a.item.kind} ${a.item.name} (${a.reason})`;
    case 'drop':
      return `drop ${a.kind} ${a.name} (no longer shipped)`;
    case 'forget-index-set':
      return `forget index set ${a.name} (no longer shipped; indexes kept)`;
    case 'repair':
      return `repair ${describeDrift(a.drift)}: ${a.sql}`;
    case 'record-catalog':
      return 'record what schema app must hold in app.schema_catalog (checked by campo serve at start-up)';
  }
}
