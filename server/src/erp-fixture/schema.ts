import type pg from 'pg';
import { readSqlFiles } from '../sql-files.ts';

/** Runs `fn` on one connection inside one transaction, rolled back if it throws. */
export async function inTransaction(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<void>): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await fn(client);
    await client.query('commit');
  } catch (err) {
    await client.query('rollback');
    throw err;
  } finally {
    client.release();
  }
}

/** Creates the reference ERP's tables (no rows) in the connected database, in one transaction. */
export async function createErpSchema(pool: pg.Pool): Promise<void> {
  const files = await readSqlFiles('erp-reference');
  await inTransaction(pool, async (client) => {
    for (const file of files) await client.query(file.sql);
  });
}
