import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { SQL_DIR } from '../sql-files.ts';

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

/**
 * The latest migration this build ships ('0013' of sql/migrations/0013_*.sql): what the
 * database must have applied for this code to run. Read once; the files ship with the build.
 */
export const EXPECTED_SCHEMA_VERSION: string = (() => {
  const names = readdirSync(join(SQL_DIR, 'migrations'))
    .filter((n) => /^\d+_.*\.sql$/.test(n))
    .sort();
  const last = names.at(-1);
  if (!last) throw new Error('sql/migrations holds no migration');
  return last.slice(0, last.indexOf('_'));
})();
