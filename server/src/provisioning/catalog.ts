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
    erpIndexes: erpIndexes.rows.map((r) => r.def),
  };
}
