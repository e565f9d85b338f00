import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { rememberPool } from './pools.ts';
import type { DB } from './types.ts';
// Registers the number parsers for bigint and numeric before any query runs.
import './pool.ts';

export type Db = Kysely<DB>;

export function createDb(pool: pg.Pool): Db {
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  rememberPool(db, pool);
  return db;
}
