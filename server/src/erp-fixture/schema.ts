import type pg from 'pg';
import { readSqlFiles } from '../sql-files.ts';

/**
 * Creates the reference ERP's tables (no rows) in the connected database, in one transaction;
 * `folder` (under sql/) names another ERP's, such as the odoo profile's.
 */
export async function createErpSchema(pool: pg.Pool, folder = 'erp-reference'): Promise<void> {
  const files = await readSqlFiles(folder);
  const client = await pool.connect();
  try {
    await client.query('begin');
    for (const file of files) await client.query(file.sql);
    await client.query('commit');
  } catch (err) {
    await client.query('rollback');
    throw err;
  } finally {
    client.release();
  }
}
