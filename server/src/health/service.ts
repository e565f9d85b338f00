// What the health checks know, for the routes and for `campo serve`'s preflight, which reads
// the applied schema version through here rather than through health's queries.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { SQL_DIR } from '../sql-files.ts';
import { selectSchemaVersion } from './queries.ts';

/** Latest applied migration, or null before the first `campo provision`. */
export const appliedSchemaVersion = (pool: pg.Pool): Promise<string | null> => selectSchemaVersion(pool);

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
