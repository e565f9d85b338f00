// `pnpm demo`: one command from a fresh clone to a running Campo with a realistic ERP. It keeps
// an embedded PostgreSQL in .demo-data/ between runs, builds the reference ERP and provisions it
// the first time, and then runs `campo serve` against it like any deployment would: the server
// still receives DATABASE_URL from its environment and has no default of its own.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import pg from 'pg';
import { reachableByServer, startEmbeddedPostgres } from '../db/embedded-postgres.ts';
import { createDb } from '../db/kysely.ts';
import { createPool } from '../db/pool.ts';
import { createErpFixture, type FixtureScale } from '../erp-fixture/generate.ts';
import { writeProductImages } from '../erp-fixture/images.ts';
import { generateVapidKeys } from '../notifications/vapid.ts';
import { grantServerRole } from '../provisioning/grant.ts';
import { provision } from '../provisioning/provision.ts';
import { defaultWebRoot } from '../web/routes.ts';
import { seedDemoMoney } from './money.ts';
import { seedDemoOrders } from './orders.ts';
import { createDemoUsers, DEMO_PASSWORD, type DemoLogin } from './users.ts';
import { seedDemoVisits } from './visits.ts';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CAMPO_BIN = fileURLToPath(new URL('../../bin/campo.mjs', import.meta.url));
const DATABASE = 'campo_demo';
/** The server connects as this role, as a deployment should: no superuser, owns nothing. */
const SERVER_ROLE = 'campo_app';

interface DemoOptions {
  port: string;
  data: string;
  scale: FixtureScale;
  reset?: boolean;
}

function say(line: string): void {
  process.stderr.write(`[demo] ${line}\n`);
}

async function databaseExists(adminUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
    return rowCount === 1;
  } finally {
    await client.end();
  }
}

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Builds the demo database once: a LATIN1 ERP with data, provisioned, with one login per role. */
async function prepare(adminUrl: string, url: string, dataDir: string, scale: FixtureScale): Promise<DemoLogin[]> {
  const readyFile = join(dataDir, 'ready.json');
  if (existsSync(readyFile) && (await databaseExists(adminUrl))) {
    return JSON.parse(readFileSync(readyFile, 'utf8')).logins as DemoLogin[];
  }
  // A first run that was interrupted leaves a half-built database: start it again from scratch.
  await adminQuery(adminUrl, `drop database if exists ${DATABASE}`);
  await adminQuery(
    adminUrl,
    `create database ${DATABASE} encoding 'LATIN1' lc_collate 'C' lc_ctype 'C' template template0`,
  );
  const pool = createPool(url, 4);
  try {
    say(`creating the reference ERP (${scale}); this happens only the first time`);
    let lastPhase = '';
    const summary = await createErpFixture(pool, {
      scale,
      onProgress: ({ phase, done, total }) => {
        const pct = total ? Math.floor((100 * done) / total) : 100;
        if (phase !== lastPhase || pct % 25 === 0) say(`  ${phase}: ${pct}%`);
        lastPhase = phase;
      },
    });
    say(`ERP ready in ${(summary.ms / 1000).toFixed(1)} s`);
    say('provisioning the app schema');
    await provision(pool, { log: (line: string) => say(`  ${line}`) });
    const db = createDb(pool);
    const logins = await createDemoUsers(db);
    say('setting credit limits and flex balances');
    await seedDemoMoney(db);
    say('placing, approving and invoicing a few orders');
    await seedDemoOrders(db);
    say("drawing the representatives' routes and today's and yesterday's visits");
    await seedDemoVisits(db);
    writeFileSync(readyFile, JSON.stringify({ scale, createdAt: new Date().toISOString(), logins }, null, 2));
    return logins;
  } finally {
    await pool.end();
  }
}

async function runDemo(options: DemoOptions): Promise<void> {
  const dataDir = resolve(REPO_ROOT, options.data);
  if (options.reset) rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const secretFile = join(dataDir, 'jwt-secret');
  if (!existsSync(secretFile)) writeFileSync(secretFile, randomBytes(32).toString('hex'), { mode: 0o600 });
  // Push works in the demo too: its own VAPID keys, made once and kept with the data.
  const vapidFile = join(dataDir, 'vapid.json');
  if (!existsSync(vapidFile)) writeFileSync(vapidFile, JSON.stringify(generateVapidKeys()), { mode: 0o600 });
  const vapid = JSON.parse(readFileSync(vapidFile, 'utf8')) as { publicKey: string; privateKey: string };

  // As root, PostgreSQL runs as the `postgres` OS user, which may not reach a checkout in a
  // private home folder; the cluster then lives in /var/tmp, tied to this checkout's path.
  let pgDir = join(dataDir, 'pg');
  if (!reachableByServer(dataDir)) {
    pgDir = join('/var/tmp', `campo-demo-${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`);
    if (options.reset) rmSync(pgDir, { recursive: true, force: true });
  }
  say(`starting PostgreSQL (data in ${pgDir})`);
  const server = await startEmbeddedPostgres({ dataDir: pgDir });
  const url = server.url(DATABASE);
  try {
    const logins = await prepare(server.url(), url, dataDir, options.scale);
    // Provisioning is idempotent: a later version of Campo migrates the kept database here.
    const pool = createPool(url, 2);
    const report = await provision(pool, { log: (line: string) => say(`  ${line}`) });
    if (report.upToDate) say(`app schema up to date (version ${report.schemaVersion})`);
    // Drawn on every start but only the missing ones: a demo kept from before photos gets them too.
    const imagesDir = join(dataDir, 'images');
    const images = await writeProductImages(pool, imagesDir);
    if (images.written > 0) say(`product photos: ${images.written} drawn in ${(images.ms / 1000).toFixed(1)} s`);
    const password = readFileSync(secretFile, 'utf8').trim().slice(0, 24);
    await adminQuery(
      server.url(),
      `do $$ begin
         if not exists (select 1 from pg_roles where rolname = '${SERVER_ROLE}') then
           create role ${SERVER_ROLE} login password '${password}';
         end if;
       end $$`,
    );
    await grantServerRole(pool, SERVER_ROLE).finally(() => pool.end());
    const serverUrl = new URL(url);
    serverUrl.username = SERVER_ROLE;
    serverUrl.password = password;

    const webRoot = defaultWebRoot();
    if (!webRoot)
      say('WARNING: the app is not built (client/dist); only the API is served. `pnpm demo` builds it first.');
    const child = spawn(process.execPath, [CAMPO_BIN, 'serve'], {
      stdio: 'inherit',
      env: {
        ...process.env,
        DATABASE_URL: serverUrl.toString(),
        PORT: options.port,
        JWT_SECRET: readFileSync(secretFile, 'utf8').trim(),
        DEV_LOGIN: '1',
        VAPID_PUBLIC_KEY: vapid.publicKey,
        VAPID_PRIVATE_KEY: vapid.privateKey,
        VAPID_SUBJECT: 'mailto:demo@campo.invalid',
        NODE_ENV: 'development',
        PRODUCT_IMAGES_DIR: imagesDir,
        ...(webRoot ? { WEB_ROOT: webRoot } : {}),
      },
    });
    say(
      `Campo: http://localhost:${options.port}/${webRoot ? '' : ' (app not built)'}  (API: /api/v1, reference: /api/docs)`,
    );
    say(`DATABASE_URL=${serverUrl} (the owner, for campo commands: ${url})`);
    say(`logins (password "${DEMO_PASSWORD}"):`);
    for (const l of logins) say(`  ${l.role.padEnd(15)} ${l.login.padEnd(32)} ${l.description}`);
    say('Ctrl-C stops the server and PostgreSQL; the data stays in the folder above.');

    await new Promise<void>((resolve) => {
      const stop = () => child.kill('SIGTERM');
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      child.once('exit', (code) => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        if (code) process.exitCode = code;
        resolve();
      });
    });
  } finally {
    await server.stop();
  }
}

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('Run Campo on an embedded PostgreSQL with a demo ERP (kept in .demo-data/ between runs)')
    .option('-p, --port <port>', 'HTTP port', '8080')
    .option('--data <dir>', 'folder for the demo database, relative to the repository', '.demo-data')
    .option('--scale <scale>', 'size of the demo ERP the first time: tiny | small | medium | large', 'small')
    .option('--reset', 'throw the kept demo database away and build a new one')
    .action(runDemo);
}
