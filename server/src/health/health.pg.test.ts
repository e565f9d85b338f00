import type { Health } from '@campo/shared';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';

const db = useTestDatabase();

describe('GET /api/v1/health', () => {
  it('reports a reachable database with no schema before provisioning', async () => {
    const res = await testApp(db.pool, {}, { asOwner: true }).request('/api/v1/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', database: { reachable: true, schemaVersion: null } });
  });

  it('reports the latest applied migration', async () => {
    await db.pool.query('create schema app; create table app.schema_migrations (version text primary key)');
    await db.pool.query("insert into app.schema_migrations values ('0001'), ('0003'), ('0002')");
    const res = await testApp(db.pool, {}, { asOwner: true }).request('/api/v1/health');
    expect(((await res.json()) as Health).database.schemaVersion).toBe('0003');
  });

  it('answers 503 when the database does not answer', async () => {
    const dead = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none', connectionTimeoutMillis: 2000 });
    const res = await testApp(dead).request('/api/v1/health');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'unavailable', database: { reachable: false } });
    await dead.end();
  });

  // campo serve itself refuses an unprovisioned database (server/src/cli/preflight.pg.test.ts);
  // serving /health on PORT through it is covered by server/src/cli/shutdown.pg.test.ts.
});
