// Vitest global setup for the database tests: one PostgreSQL for the whole run.
// TEST_DATABASE_URL (a superuser URL of any database on a server we may create databases on)
// wins; otherwise an embedded PostgreSQL is started and always stopped, even if the run fails.
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../server/src/db/embedded-postgres.ts';
import './pg.ts';

export default async function setup(project: TestProject) {
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    project.provide('adminDatabaseUrl', given);
    return;
  }
  const server = await startEmbeddedPostgres({ fast: true });
  project.provide('adminDatabaseUrl', server.url());
  return () => server.stop();
}
