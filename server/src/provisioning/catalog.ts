// What schema app holds, read from the PostgreSQL catalog: counts for the summary line and a
// full snapshot that lets tests prove a second run changes nothing.
import type pg from 'pg';

/** Provisioning's own bookkeeping; not counted among the service's tables. */
export const BOOKKEEPING_TABLES = ['schema_migrations', 'schema_repeatables', 'schema_catalog'] as const;

type Queryable = Pick<pg.ClientBase, 'query'>;

export interface AppCounts {
  tables: number;
  views: number;
  triggers: number;
  functions: number;
}

export async function appCounts(db: Queryable): Promise<AppCounts> {
  const { rows } = await db.query<AppCounts>(
    `select (select count(*)::int from pg_class c join pg_namespace n on n.oid = c.relnamespace
              where n.nspname = 'app' and c.relkind in ('r', 'p') and not (c.relname = any ($1))) as tables,
            (select count(*)::int from pg_class c join pg_namespace n on n.oid = c.relnamespace
              where n.nspname = 'app' and c.relkind = 'v') as views,
            (select count(*)::int from pg_trigger t join pg_class c on c.oid = t.tgrelid
               join pg_namespace n on n.oid = c.relnamespace
              where n.nspname = 'app' and not t.tgisinternal) as triggers,
            (select count(*)::int from pg_proc p join pg_namespace n on n.oid = p.pronamespace
              where n.nspname = 'app') as functions`,
    [BOOKKEEPING_TABLES],
  );
  return rows[0] ?? { tables: 0, views: 0, triggers: 0, functions: 0 };
}

export interface ColumnInfo {
  name: string;
  type: string;
  notNull: boolean;
  default: string | null;
}

/** Columns of every table of a schema, with types as format_type spells them. */
export async function tableColumns(db: Queryable, schema: string): Promise<Map<string, ColumnInfo[]>> {
  const { rows } = await db.query<{ table: string } & ColumnInfo>(
    `select c.relname as table, a.attname as name, format_type(a.atttypid, a.atttypmod) as type,
            a.attnotnull as "notNull", pg_get_expr(d.adbin, d.adrelid) as default
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
       left join pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
      where n.nspname = $1 and c.relkind in ('r', 'p')
      order by c.relname, a.attnum`,
    [schema],
  );
  const out = new Map<string, ColumnInfo[]>();
  for (const { table, ...col } of rows) {
    const list = out.get(table) ?? [];
    list.push(col);
    out.set(table, list);
  }
  return out;
}

export interface CatalogSnapshot {
  tables: Record<string, ColumnInfo[]>;
  indexes: string[];
  constraints: string[];
  views: Record<string, string>;
  functions: Record<string, string>;
  triggers: string[];
  /** Row-level security per table: 'enabled' and/or 'forced'. */
  rls: Record<string, string>;
  policies: string[];
  /** Who may do what on schema app and each of its tables, views, sequences and functions. */
  grants: Record<string, string>;
  sequences: string[];
  comments: Record<string, string>;
  /** Indexes provisioning added to ERP tables (campo_*). */
  erpIndexes: string[];
}

/** Everything provisioning creates, as text, so two snapshots compare with toEqual. */
export async function catalogSnapshot(db: Queryable): Promise<CatalogSnapshot> {
  const columns = await tableColumns(db, 'app');
  const indexes = await db.query<{ def: string }>(
    "select indexdef as def from pg_indexes where schemaname = 'app' order by indexname",
  );
  const constraints = await db.query<{ def: string }>(
    `select c.relname || '.' || k.conname || ': ' || pg_get_constraintdef(k.oid) as def
       from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'app' order by 1`,
  );
  const views = await db.query<{ name: string; def: string }>(
    `select c.relname as name, pg_get_viewdef(c.oid, true) as def
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'app' and c.relkind = 'v' order by 1`,
  );
  const functions = await db.query<{ name: string; def: string }>(
    `select p.oid::regprocedure::text as name, pg_get_functiondef(p.oid) as def
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'app' order by 1`,
  );
  const triggers = await db.query<{ def: string }>(
    `select pg_get_triggerdef(t.oid) as def
       from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'app' and not t.tgisinternal order by t.tgname`,
  );
  const rls = await db.query<{ name: string; def: string }>(
    `select c.relname as name,
            concat_ws(' ', case when c.relrowsecurity then 'enabled' end, case when c.relforcerowsecurity then 'forced' end) as def
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'app' and c.relkind in ('r', 'p') and (c.relrowsecurity or c.relforcerowsecurity) order by 1`,
  );
  const policies = await db.query<{ def: string }>(
    `select tablename || '.' || policyname || ' ' || permissive || ' ' || cmd || ' to ' || array_to_string(roles, ',')
            || ' using (' || coalesce(qual, '') || ') check (' || coalesce(with_check, '') || ')' as def
       from pg_policies where schemaname = 'app' order by tablename, policyname`,
  );
  // Role names, not oids: the ACL text of each object, with its owner's name.
  const grants = await db.query<{ name: string; def: string }>(
    `select 'schema app' as name, pg_get_userbyid(n.nspowner) || ' ' || coalesce(n.nspacl::text, '') as def
       from pg_namespace n where n.nspname = 'app'
     union all
     select c.relkind::text || ' ' || c.relname, pg_get_userbyid(c.relowner) || ' ' || coalesce(c.relacl::text, '')
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'app' and c.relkind in ('r', 'p', 'v', 'S')
     union all
     select 'function ' || p.oid::regprocedure::text, pg_get_userbyid(p.proowner) || ' ' || coalesce(p.proacl::text, '')
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'app'
     order by 1`,
  );
  const sequences = await db.query<{ name: string }>(
    "select sequencename as name from pg_sequences where schemaname = 'app' order by 1",
  );
  const comments = await db.query<{ name: string; def: string }>(
    `select c.relname || coalesce('.' || a.attname, '') as name, d.description as def
       from pg_description d
       join pg_class c on d.classoid = 'pg_class'::regclass and c.oid = d.objoid
       join pg_namespace n on n.oid = c.relnamespace
       left join pg_attribute a on a.attrelid = c.oid and a.attnum = d.objsubid and d.objsubid > 0
      where n.nspname = 'app' order by 1`,
  );
  const erpIndexes = await db.query<{ def: string }>(
    "select indexdef as def from pg_indexes where indexname like 'campo\\_%' and schemaname <> 'app' order by indexname",
  );
  return {
    tables: Object.fromEntries(columns),
    indexes: indexes.rows.map((r) => r.def),
    constraints: constraints.rows.map((r) => r.def),
    views: Object.fromEntries(views.rows.map((r) => [r.name, r.def])),
    functions: Object.fromEntries(functions.rows.map((r) => [r.name, r.def])),
    triggers: triggers.rows.map((r) => r.def),
    rls: Object.fromEntries(rls.rows.map((r) => [r.name, r.def])),
    policies: policies.rows.map((r) => r.def),
    grants: Object.fromEntries(grants.rows.map((r) => [r.name, r.def])),
    sequences: sequences.rows.map((r) => r.name),
    comments: Object.fromEntries(comments.rows.map((r) => [r.name, r.def])),
    erpIndexes: erpIndexes.rows.map((r) => r.def),
  };
}
