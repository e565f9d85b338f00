import { describe, expect, it } from 'vitest';
import { useTestDatabase } from './support/pg.ts';

const db = useTestDatabase();

describe('test harness', () => {
  it('gives each file a fresh LATIN1 database with C collation', async () => {
    const { rows } = await db.pool.query(
      `select pg_encoding_to_char(encoding) as encoding, datcollate, datctype
         from pg_database where datname = current_database()`,
    );
    expect(rows[0]).toEqual({ encoding: 'LATIN1', datcollate: 'C', datctype: 'C' });
    const tables = await db.pool.query("select count(*)::int as n from pg_tables where schemaname = 'public'");
    expect(tables.rows[0].n).toBe(0);
  });

  it('refuses text LATIN1 cannot hold, as the ERP would', async () => {
    await expect(db.pool.query("select '🚚'::text")).rejects.toThrow(/LATIN1/);
    const { rows } = await db.pool.query("select 'Conceição'::text as t");
    expect(rows[0].t).toBe('Conceição');
  });
});
