// Each database test file gets its own fresh database, created from template0 with the C
// collation, and dropped when the file ends. LATIN1 unless CAMPO_TEST_ENCODING names another
// ERP encoding: the encoding projects of vitest.config.ts run the tests that touch text,
// provisioning and the triggers again on WIN1252 and UTF8 databases.
import { randomBytes } from 'node:crypto';
import { ERP_ENCODINGS, type ErpEncoding, isErpEncoding } from '@campo/shared';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { prepareMarkedStatements } from '../../server/src/db/prepared.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the run's PostgreSQL, provided by the global setup. */
    adminDatabaseUrl: string;
  }
}

/** The encoding of the run's ERP databases: LATIN1, or CAMPO_TEST_ENCODING in the encoding matrix. */
export const TEST_ENCODING: ErpEncoding = testEncoding(process.env.CAMPO_TEST_ENCODING);

function testEncoding(name: string | undefined): ErpEncoding {
  if (name === undefined || name === '') return 'LATIN1';
  if (!isErpEncoding(name)) throw new Error(`CAMPO_TEST_ENCODING=${name}: not one of ${ERP_ENCODINGS.join(', ')}`);
  return name;
}

/** The database role the API server uses in tests (created by the global setup). */
export const SERVER_ROLE = 'campo_app';

/** The same database, connected as the server's role instead of the superuser. */
export function asServerRole(url: string): string {
  const u = new URL(url);
  u.username = SERVER_ROLE;
  u.password = SERVER_ROLE;
  return u.toString();
}

const serverPools = new Map<string, pg.Pool>();

/** A pool on the database as the server's role, shared per database and closed with it. */
export function serverRolePool(url: string): pg.Pool {
  let pool = serverPools.get(url);
  if (!pool) {
    pool = new pg.Pool({ connectionString: asServerRole(url), max: 5 });
    pool.on('error', () => undefined);
    // As createPool does: a connection killed while checked out must not kill the test run.
    pool.on('connect', (client) => {
      client.on('error', () => undefined);
    });
    // As in production: the hot paths' statements run prepared.
    prepareMarkedStatements(pool);
    serverPools.set(url, pool);
  }
  return pool;
}

export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>, adminUrl = inject('adminDatabaseUrl')): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A new database in TEST_ENCODING (or `encoding`). `template` copies a database of the run's server
 * instead (with nobody connected to it), e.g. one that already holds the reference ERP.
 */
export async function createDatabase(
  options: { encoding?: string; name?: string; template?: string } = {},
): Promise<{ name: string; url: string }> {
  const name = options.name ?? `campo_test_${randomBytes(6).toString('hex')}`;
  const encoding = options.encoding ?? TEST_ENCODING;
  await admin((c) =>
    c.query(
      options.template
        ? `create database ${name} template ${options.template}`
        : `create database ${name} encoding '${encoding}' lc_collate 'C' lc_ctype 'C' template template0`,
    ),
  );
  return { name, url: databaseUrl(inject('adminDatabaseUrl'), name) };
}

export async function dropDatabase(name: string): Promise<void> {
  await admin(async (c) => {
    // PostgreSQL 12 has no DROP DATABASE ... WITH (FORCE).
    await c.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [name],
    );
    await c.query(`drop database if exists ${name}`);
  });
}

/**
 * Registers a fresh database (TEST_ENCODING unless `encoding` is given) for the calling test file. The returned object is filled
 * in by beforeAll; `pool` is a small pool on it that is closed before the database is dropped.
 */
export function useTestDatabase(options: { encoding?: string } = {}) {
  const handle = { name: '', url: '', pool: undefined as unknown as pg.Pool };
  beforeAll(async () => {
    const db = await createDatabase(options);
    handle.name = db.name;
    handle.url = db.url;
    // The test's own statements stand for the ERP's, whose "today" (current_date in a title's
    // due date) is Brazil's; the servers the tests start keep the database's default zone (UTC),
    // as a customer's may, so Campo's own statements must set theirs (withScope does).
    handle.pool = new pg.Pool({ connectionString: db.url, max: 5, options: '-c TimeZone=America/Sao_Paulo' });
    // Dropping the database terminates connections the pool may still be closing.
    handle.pool.on('error', () => undefined);
  });
  afterAll(async () => {
    await handle.pool?.end();
    await serverPools.get(handle.url)?.end();
    serverPools.delete(handle.url);
    if (handle.name) await dropDatabase(handle.name);
  });
  return handle;
}
