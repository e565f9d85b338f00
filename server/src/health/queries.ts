import type pg from 'pg';

/** Latest applied migration, or null before the first `campo provision`. */
export async function selectSchemaVersion(pool: pg.Pool): Promise<string | null> {
  // Two statements: a query naming a missing table fails at parse time, even in a dead branch.
  const exists = await pool.query<{ ok: boolean }>("select to_regclass('app.schema_migrations') is not null as ok");
  if (!exists.rows[0]?.ok) return null;
  const { rows } = await pool.query<{ version: string | null }>(
    'select max(version) as version from app.schema_migrations',
  );
  return rows[0]?.version ?? null;
}
