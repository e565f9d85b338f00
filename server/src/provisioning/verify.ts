// What schema app must hold, checked object by object, not only by the migration history.
//
// Why: the history says 0002 added pedidos.end_entrega, but someone may have dropped the
// column since; provisioning then said "Already up to date" and GET /orders answered 500.
// The expectation is never written down by hand: every recorded migration is run, in order,
// in a scratch schema inside a transaction that is always rolled back (as the baseline does
// for 0001), and the scratch schema's catalog is compared with schema app's. Provisioning
// repairs what it can re-create without losing data and refuses the rest; it also stores
// the expectation in app.schema_catalog so that `campo serve`, which may not create schemas,
// can run the same comparison at start-up (server/src/cli/preflight.ts).
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Migration } from './sources.ts';

type Queryable = Pick<pg.ClientBase, 'query'>;

export type CatalogKind = 'table' | 'column' | 'rls' | 'policy' | 'function' | 'index' | 'constraint' | 'trigger';

/** One object of schema app as the catalog describes it, with schema names spelled `app.`. */
export interface CatalogItem {
  kind: CatalogKind;
  /** Unique: 'column app.pedidos.end_entrega', 'policy empresa on app.pedidos'. */
  key: string;
  /** What must match: a column's type and nullability, a policy's expressions, a definition. */
  def: string;
  /** The statement that re-creates it; null when re-creating would lose data (a table). */
  create: string | null;
  /** The table it belongs to, when it belongs to one. */
  table: string | null;
}

const q = (name: string) => (/^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`);

/** Reads the objects of `schema`, written as if it were schema app. */
export async function readCatalog(db: Queryable, schema: string): Promise<Map<string, CatalogItem>> {
  // Definitions qualify the names that are not on the search path: with the same short path
  // for both reads, schema app's and the scratch schema's definitions spell names alike.
  const saved = (await db.query<{ path: string }>("select current_setting('search_path') as path")).rows[0]?.path;
  await db.query("select set_config('search_path', 'pg_catalog', false)");
  try {
    return await readItems(db, schema);
  } finally {
    await db.query("select set_config('search_path', $1, false)", [saved ?? '"$user", public']);
  }
}

async function readItems(db: Queryable, schema: string): Promise<Map<string, CatalogItem>> {
  const items = new Map<string, CatalogItem>();
  // Names and expressions of the scratch schema are spelled as app's, so the two compare.
  const norm = (text: string) => (schema === 'app' ? text : text.split(`${schema}.`).join('app.'));
  const add = (item: CatalogItem) => items.set(item.key, item);

  const columns = await db.query<{ tbl: string; col: string; type: string; notnull: boolean; dflt: string | null }>(
    `select c.relname as tbl, a.attname as col, format_type(a.atttypid, a.atttypmod) as type,
            a.attnotnull as notnull, pg_get_expr(d.adbin, d.adrelid) as dflt
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
       left join pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
      where n.nspname = $1 and c.relkind in ('r', 'p')
        and c.relname not in ('schema_migrations', 'schema_repeatables', 'schema_catalog')
      order by c.relname, a.attnum`,
    [schema],
  );
  for (const r of columns.rows) {
    const table = `app.${q(r.tbl)}`;
    if (!items.has(`table ${table}`)) add({ kind: 'table', key: `table ${table}`, def: '', create: null, table });
    const dflt = r.dflt === null ? null : norm(r.dflt);
    // A NOT NULL column without a default cannot come back on a table with rows: refused.
    const create =
      r.notnull && dflt === null
        ? null
        : `alter table ${table} add column if not exists ${q(r.col)} ${r.type}${dflt === null ? '' : ` default ${dflt}`}${r.notnull ? ' not null' : ''}`;
    add({
      kind: 'column',
      key: `column ${table}.${q(r.col)}`,
      // The type only, as the baseline compares: the old system's tables lack some NOT NULLs,
      // which costs Campo nothing, while another type breaks its queries.
      def: r.type,
      create,
      table,
    });
  }

  const rls = await db.query<{ tbl: string; enabled: boolean; forced: boolean }>(
    `select c.relname as tbl, c.relrowsecurity as enabled, c.relforcerowsecurity as forced
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relkind in ('r', 'p') and (c.relrowsecurity or c.relforcerowsecurity)`,
    [schema],
  );
  for (const r of rls.rows) {
    const table = `app.${q(r.tbl)}`;
    const stmts = [
      r.enabled ? `alter table ${table} enable row level security` : null,
      r.forced ? `alter table ${table} force row level security` : null,
    ].filter(Boolean);
    add({
      kind: 'rls',
      key: `row level security on ${table}`,
      def: `${r.enabled ? 'enabled' : ''}${r.forced ? ' forced' : ''}`.trim(),
      create: stmts.join('; '),
      table,
    });
  }

  const policies = await db.query<{
    tbl: string;
    name: string;
    permissive: boolean;
    cmd: string;
    roles: string;
    qual: string | null;
    chk: string | null;
  }>(
    `select c.relname as tbl, p.polname as name, p.polpermissive as permissive, p.polcmd::text as cmd,
            coalesce((select string_agg(case when r = 0 then 'public' else quote_ident(pg_get_userbyid(r)) end, ', ' order by 1)
                        from unnest(p.polroles) as r), 'public') as roles,
            pg_get_expr(p.polqual, p.polrelid) as qual, pg_get_expr(p.polwithcheck, p.polrelid) as chk
       from pg_policy p join pg_class c on c.oid = p.polrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1`,
    [schema],
  );
  const commands: Record<string, string> = { '*': 'all', r: 'select', a: 'insert', w: 'update', d: 'delete' };
  for (const r of policies.rows) {
    const table = `app.${q(r.tbl)}`;
    const def = `as ${r.permissive ? 'permissive' : 'restrictive'} for ${commands[r.cmd] ?? r.cmd} to ${r.roles}${
      r.qual === null ? '' : ` using (${norm(r.qual)})`
    }${r.chk === null ? '' : ` with check (${norm(r.chk)})`}`;
    const name = q(r.name);
    add({
      kind: 'policy',
      key: `policy ${name} on ${table}`,
      def,
      create: `drop policy if exists ${name} on ${table}; create policy ${name} on ${table} ${def}`,
      table,
    });
  }

  // Constraints first: the indexes that back them come back with them.
  const constraints = await db.query<{ tbl: string; name: string; def: string }>(
    `select c.relname as tbl, k.conname as name, pg_get_constraintdef(k.oid) as def
       from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relname not in ('schema_migrations', 'schema_repeatables', 'schema_catalog')
        -- PostgreSQL 18 lists NOT NULL as constraints too; the columns carry it already.
        and k.contype <> 'n'`,
    [schema],
  );
  for (const r of constraints.rows) {
    const table = `app.${q(r.tbl)}`;
    const def = norm(r.def);
    add({
      kind: 'constraint',
      key: `constraint ${q(r.name)} on ${table}`,
      def,
      create: `alter table ${table} add constraint ${q(r.name)} ${def}`,
      table,
    });
  }
  const indexes = await db.query<{ tbl: string; name: string; def: string }>(
    `select t.relname as tbl, i.relname as name, pg_get_indexdef(x.indexrelid) as def
       from pg_index x
       join pg_class i on i.oid = x.indexrelid
       join pg_class t on t.oid = x.indrelid
       join pg_namespace n on n.oid = t.relnamespace
      where n.nspname = $1
        and t.relname not in ('schema_migrations', 'schema_repeatables', 'schema_catalog')
        and not exists (select 1 from pg_constraint k where k.conindid = x.indexrelid and k.conrelid = x.indrelid)`,
    [schema],
  );
  for (const r of indexes.rows) {
    const table = `app.${q(r.tbl)}`;
    const def = norm(r.def);
    add({ kind: 'index', key: `index app.${q(r.name)}`, def, create: def, table });
  }

  const functions = await db.query<{ sig: string; def: string }>(
    `select p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as sig,
            pg_get_functiondef(p.oid) as def
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = $1 and p.prokind = 'f'`,
    [schema],
  );
  for (const r of functions.rows) {
    const def = norm(r.def);
    add({ kind: 'function', key: `function app.${r.sig}`, def, create: def, table: null });
  }

  const triggers = await db.query<{ tbl: string; name: string; def: string; enabled: string }>(
    `select c.relname as tbl, t.tgname as name, pg_get_triggerdef(t.oid) as def, t.tgenabled::text as enabled
       from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and not t.tgisinternal`,
    [schema],
  );
  for (const r of triggers.rows) {
    const table = `app.${q(r.tbl)}`;
    const def = `${norm(r.def)}${r.enabled === 'D' ? ' (disabled)' : ''}`;
    add({
      kind: 'trigger',
      key: `trigger ${q(r.name)} on ${table}`,
      def,
      create: `drop trigger if exists ${q(r.name)} on ${table}; ${norm(r.def)}`,
      table,
    });
  }
  return items;
}

/**
 * What the given migrations create, run in order in a scratch schema inside a transaction
 * that is always rolled back. Migrations qualify every name with `app.` (their header says so).
 */
export async function probeMigrations(
  client: pg.ClientBase,
  migrations: Migration[],
): Promise<Map<string, CatalogItem>> {
  const probe = `campo_probe_${randomBytes(6).toString('hex')}`;
  await client.query('begin');
  try {
    await client.query(`create schema ${probe}`);
    for (const m of migrations) await client.query(m.sql.replace(/\bapp\./g, `${probe}.`));
    return await readCatalog(client, probe);
  } finally {
    await client.query('rollback');
  }
}

/**
 * What the applied migrations created. Where 0001 was recorded as a baseline, its tables are
 * the old system's: their columns were verified then, but their constraints, indexes and
 * policies were the old system's own, so only what later migrations add is expected of them.
 */
export async function expectedCatalog(
  client: pg.ClientBase,
  applied: Migration[],
  baselineVersions: string[],
): Promise<Map<string, CatalogItem>> {
  const expected = await probeMigrations(client, applied);
  if (baselineVersions.length === 0) return expected;
  const baselined = await probeMigrations(
    client,
    applied.filter((m) => baselineVersions.includes(m.version)),
  );
  for (const [key, item] of baselined) {
    if (item.kind !== 'table' && item.kind !== 'column' && expected.get(key)?.def === item.def) expected.delete(key);
  }
  return expected;
}

export interface Drift {
  item: CatalogItem;
  /** 'missing', or what it is instead of what it should be. */
  problem: 'missing' | 'different';
  actual: CatalogItem | null;
}

/** What schema app lacks or holds differently; objects it has in excess are not drift. */
export function compareCatalog(expected: Map<string, CatalogItem>, actual: Map<string, CatalogItem>): Drift[] {
  const drift: Drift[] = [];
  for (const [key, item] of expected) {
    const found = actual.get(key);
    if (!found) {
      // A missing table's columns, policies and indexes are one problem, reported once.
      if (item.kind !== 'table' && item.table && !actual.has(`table ${item.table}`)) continue;
      drift.push({ item, problem: 'missing', actual: null });
    } else if (found.def !== item.def) {
      drift.push({ item, problem: 'different', actual: found });
    }
  }
  return drift;
}

/** Whether provisioning can put it back as it should be without losing data. */
export function repairable(d: Drift): boolean {
  if (d.item.create === null) return false;
  // A column of another type holds data provisioning will not convert.
  if (d.problem === 'different' && (d.item.kind === 'column' || d.item.kind === 'table')) return false;
  return true;
}

/** The statements that repair it: an object that differs is dropped first where needed. */
export function repairSql(d: Drift): string {
  const create = d.item.create ?? '';
  if (d.problem === 'missing') return create;
  switch (d.item.kind) {
    case 'constraint': {
      const [, name, table] = /^constraint (\S+) on (\S+)$/.exec(d.item.key) ?? [];
      return `alter table ${table} drop constraint ${name}; ${create}`;
    }
    case 'index':
      return `drop index if exists ${d.item.key.slice('index '.length)}; ${create}`;
    case 'rls': {
      const table = d.item.table ?? '';
      return `alter table ${table} no force row level security; alter table ${table} disable row level security; ${create}`;
    }
    default:
      // policy and trigger statements drop the old one first; functions are create or replace.
      return create;
  }
}

/** One line for an operator: what is wrong, and for a repair what will be done. */
export function describeDrift(d: Drift): string {
  if (d.problem === 'missing') {
    if (d.item.kind === 'table') return `${d.item.key} is missing (it held data: restore it from a backup)`;
    if (d.item.kind === 'column' && d.item.create === null)
      return `${d.item.key} (${d.item.def}) is missing and cannot be added back to a table that has rows without a default`;
    return `${d.item.key} is missing`;
  }
  if (d.item.kind === 'column') return `${d.item.key} is ${d.actual?.def}, expected ${d.item.def}`;
  return `${d.item.key} differs from what the migrations created`;
}

/** The expectation as rows of app.schema_catalog, and back. */
export function catalogRows(items: Map<string, CatalogItem>): { key: string; kind: string; def: string }[] {
  return [...items.values()].map((i) => ({ key: i.key, kind: i.kind, def: i.def }));
}
