import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import type { DB } from './types.ts';
// Registers the number parsers for bigint and numeric before any query runs.
import './pool.ts';

export type Db = Kysely<DB>;

const pools = new WeakMap<Db, pg.Pool>();

export function createDb(pool: pg.Pool): Db {
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
  return db;
}

/** createDb's pool, for what Kysely does not drive (withScopePipelined, LISTEN, availability). */
export function poolOf(db: Db): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error('this Db was not made by createDb');
  return pool;
}
