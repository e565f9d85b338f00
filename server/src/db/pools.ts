import type pg from 'pg';

// Apart from kysely.ts, which loads pool.ts's process-wide type parsers: a module that needs a
// Db's pool (withScopePipelined, LISTEN, the availability tracker) does not load them with it.
// Keyed by the Kysely instance (kysely.ts's Db), not imported here: kysely.ts imports this.
const pools = new WeakMap<object, pg.Pool>();

/** Called by createDb: the pool behind a Db. */
export function rememberPool(db: object, pool: pg.Pool): void {
  pools.set(db, pool);
}

/** createDb's pool, for what Kysely does not drive. */
export function poolOf(db: object): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error('this Db was not made by createDb');
  return pool;
}
