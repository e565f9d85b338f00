// `pnpm db:types`: rewrites db/types.ts from a throwaway database provisioned from sql/. It uses
// the PostgreSQL named by TEST_DATABASE_URL (a superuser URL, as for the tests) or, without one,
// an embedded PostgreSQL started for the run; the database it creates is dropped either way.
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import pg from 'pg';
import { startEmbeddedPostgres } from '../db/embedded-postgres.ts';
import { generateDbTypes, provisionForTypes, TYPES_FILE } from './db-types.ts';

const given = process.env.TEST_DATABASE_URL;
const server = given ? null : await startEmbeddedPostgres({ fast: true });
const adminUrl = given ?? server?.url() ?? '';
const name = `campo_types_${randomBytes(6).toString('hex')}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
try {
  // LATIN1 and the C collation, as the ERP databases Campo is installed into.
  await admin.query(`create database ${name} encoding 'LATIN1' lc_collate 'C' lc_ctype 'C' template template0`);
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    await provisionForTypes(url.toString());
    await writeFile(TYPES_FILE, await generateDbTypes(url.toString()));
    console.log(`wrote ${TYPES_FILE}`);
  } finally {
    await admin.query(`drop database if exists ${name}`);
  }
} finally {
  await admin.end();
  await server?.stop();
}
