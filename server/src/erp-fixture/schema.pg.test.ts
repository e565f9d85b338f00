import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { createErpSchema } from './schema.ts';

const db = useTestDatabase();

describe('reference ERP schema', () => {
  it('creates the ERP tables in a LATIN1 database', async () => {
    await createErpSchema(db.pool);
    const { rows } = await db.pool.query<{ n: number }>(
      "select count(*)::int as n from pg_tables where schemaname = 'public'",
    );
    expect(rows[0]?.n).toBe(22);
  });
});
