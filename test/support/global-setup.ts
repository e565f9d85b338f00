// Vitest global setup for the database tests: one PostgreSQL for the whole run.
// TEST_DATABASE_URL (a superuser URL of any database on a server we may create databases on)
// wins; otherwise an embedded PostgreSQL is started and always stopped, even if the run fails.

import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../server/src/db/embedded-postgres.ts';
import { SERVER_ROLE } from './pg.ts';

export default async function setup(project: TestProject) {
  const given = process.env.TEST_DATABASE_URL;
  const server = given ? null : await startEmbeddedPostgres({ fast: true });
  const adminUrl = given ?? server?.url() ?? '';
  await createServerRole(adminUrl);
  project.provide('adminDatabaseUrl', adminUrl);
  return server ? () => server.stop() : undefined;
}

/** The role the API connects with in tests, as in production: no superuser, owns nothing. */
async function createServerRole(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_roles where rolname = $1', [SERVER_ROLE]);
    if (!exists.rowCount) await client.query(`create role ${SERVER_ROLE} login password '${SERVER_ROLE}'`);
  } finally {
    await client.end();
  }
}
