// A hot standby of the test run's PostgreSQL, for the tests of pulls served from a standby
// (docs/deployment.md, "Scaling past one machine", 3). The embedded packages ship no
// pg_basebackup, so the base backup is PostgreSQL's low-level one: pg_backup_start, a copy of
// the primary's data folder (it must be on this machine: the embedded server of the run, or a
// local TEST_DATABASE_URL), pg_backup_stop's backup_label. The standby then streams the WAL
// from a replication slot made first (so the primary keeps what the standby has not received)
// and runs from the same embedded binaries as the primary, on a port the OS gives.

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, chmodSync, constants, copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { appendFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  type EmbeddedPostgres,
  PG_MAJORS,
  type PgMajor,
  startEmbeddedPostgres,
} from '../../server/src/db/embedded-postgres.ts';

const SLOT_PREFIX = 'campo_test_standby_';

/** Folders whose contents a base backup leaves out (PostgreSQL's own list, "Backup Manifest"). */
const EMPTIED = new Set([
  'pg_wal',
  'pg_replslot',
  'pg_stat_tmp',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_subtrans',
]);
const SKIPPED = new Set(['postmaster.pid', 'postmaster.opts', 'backup_label', 'tablespace_map', 'standby.signal']);

export interface Standby {
  /** Superuser URL of a database on the standby. */
  url(database: string): string;
  /** Resolves once the standby has replayed everything the primary had written when called. */
  caughtUp(): Promise<void>;
  stop(): Promise<void>;
}

async function query<T extends pg.QueryResultRow>(url: string, text: string, values?: unknown[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  // A session the standby ends (its stop, a recovery conflict) fails this query, not the run.
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Copies the data folder as a base backup does, leaving out what PostgreSQL rebuilds. Files may
 * vanish while it copies (other tests drop their databases): they are skipped, as pg_basebackup
 * skips them; WAL replay makes the copy consistent.
 */
function copyCluster(from: string, to: string, top = true): void {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (top && SKIPPED.has(entry.name)) continue;
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    try {
      // pg_wal may be a link to another disk: the copy gets an empty folder of its own.
      if (entry.isDirectory() || (top && entry.isSymbolicLink() && EMPTIED.has(entry.name))) {
        mkdirSync(target, { recursive: true });
        if (top && EMPTIED.has(entry.name)) {
          if (entry.name === 'pg_wal') mkdirSync(join(target, 'archive_status'));
          continue;
        }
        copyCluster(source, target, false);
      } else if (entry.isFile()) {
        copyFileSync(source, target);
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

/**
 * Starts a streaming hot standby of the PostgreSQL at `adminUrl` (a superuser URL), or answers
 * why it cannot here (a string): the tests then say they are skipped and why.
 */
export async function startStandby(adminUrl: string): Promise<Standby | string> {
  const [settings] = await query<Record<string, string>>(
    adminUrl,
    `select current_setting('data_directory') as data_directory,
            current_setting('server_version_num') as version,
            current_setting('wal_level') as wal_level,
            current_setting('max_connections') as max_connections,
            current_setting('max_worker_processes') as max_worker_processes,
            current_setting('max_wal_senders') as max_wal_senders,
            current_setting('max_prepared_transactions') as max_prepared_transactions,
            current_setting('max_locks_per_transaction') as max_locks_per_transaction`,
  );
  if (!settings) throw new Error('no settings');
  const major = Math.floor(Number(settings.version) / 10000) as PgMajor;
  if (!PG_MAJORS.includes(major)) return `PostgreSQL ${major} has no embedded binaries for a standby`;
  if (settings.wal_level === 'minimal') return 'the PostgreSQL under test has wal_level=minimal';
  if (Number(settings.max_wal_senders) < 1) return 'the PostgreSQL under test has max_wal_senders=0';
  const dataDir = settings.data_directory ?? '';
  try {
    accessSync(join(dataDir, 'PG_VERSION'), constants.R_OK);
  } catch {
    return `the data folder of the PostgreSQL under test (${dataDir}) is not on this machine or not readable by this user`;
  }

  // Slots of runs that were killed before they could drop theirs would keep WAL forever. The
  // name carries its creation time: a run going on beside this one keeps its slot.
  await query(
    adminUrl,
    `select pg_drop_replication_slot(slot_name) from pg_replication_slots
      where slot_name ~ '^${SLOT_PREFIX}[0-9]+_' and not active
        and split_part(substr(slot_name, ${SLOT_PREFIX.length + 1}), '_', 1)::bigint < extract(epoch from now()) - 3600`,
  );
  const slot = `${SLOT_PREFIX}${Math.floor(Date.now() / 1000)}_${randomBytes(6).toString('hex')}`;
  await query(adminUrl, 'select pg_create_physical_replication_slot($1, true)', [slot]);
  const dropSlot = () =>
    query(adminUrl, 'select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = $1', [
      slot,
    ]);

  const target = await mkdtemp(join(tmpdir(), 'campo-standby-'));
  try {
    const backup = new pg.Client({ connectionString: adminUrl });
    backup.on('error', () => undefined);
    await backup.connect();
    try {
      const modern = major >= 15;
      await backup.query(
        modern
          ? "select pg_backup_start('campo standby', true)"
          : "select pg_start_backup('campo standby', true, false)",
      );
      copyCluster(dataDir, target);
      const { rows } = await backup.query<{ labelfile: string; spcmapfile: string | null }>(
        modern
          ? 'select labelfile, spcmapfile from pg_backup_stop(false)'
          : 'select labelfile, spcmapfile from pg_stop_backup(false, false)',
      );
      writeFileSync(join(target, 'backup_label'), rows[0]?.labelfile ?? '');
      if (rows[0]?.spcmapfile) writeFileSync(join(target, 'tablespace_map'), rows[0].spcmapfile);
    } finally {
      await backup.end();
    }
    const primary = new URL(adminUrl);
    const conninfo = [
      `host=${primary.hostname}`,
      `port=${primary.port || 5432}`,
      `user=${decodeURIComponent(primary.username)}`,
      ...(primary.password ? [`password=${decodeURIComponent(primary.password)}`] : []),
      'application_name=campo_test_standby',
    ].join(' ');
    writeFileSync(join(target, 'standby.signal'), '');
    await appendFile(
      join(target, 'postgresql.auto.conf'),
      `\nprimary_conninfo = '${conninfo}'\nprimary_slot_name = '${slot}'\nhot_standby = on\n`,
    );
    if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'postgres:postgres', target]);
    chmodSync(target, 0o700);
  } catch (err) {
    await dropSlot();
    execFileSync('rm', ['-rf', target]);
    throw err;
  }

  let server: EmbeddedPostgres;
  try {
    server = await startEmbeddedPostgres({
      dataDir: target,
      removeDataDir: true,
      major,
      fast: true,
      // A standby needs at least the primary's values of these.
      settings: [
        `max_connections=${settings.max_connections}`,
        `max_worker_processes=${settings.max_worker_processes}`,
        `max_wal_senders=${settings.max_wal_senders}`,
        `max_prepared_transactions=${settings.max_prepared_transactions}`,
        `max_locks_per_transaction=${settings.max_locks_per_transaction}`,
      ],
    });
  } catch (err) {
    await dropSlot();
    execFileSync('rm', ['-rf', target]);
    throw err;
  }
  return {
    url: (database) => server.url(database),
    async caughtUp() {
      const [primaryLsn] = await query<{ lsn: string }>(adminUrl, 'select pg_current_wal_insert_lsn()::text as lsn');
      // Replay has no event to wait on from outside: ask until it is there (or the deadline).
      const deadline = Date.now() + 30_000;
      for (;;) {
        const [r] = await query<{ ok: boolean }>(server.url(), 'select pg_last_wal_replay_lsn() >= $1::pg_lsn as ok', [
          primaryLsn?.lsn,
        ]);
        if (r?.ok) return;
        if (Date.now() > deadline) throw new Error('the standby did not catch up within 30 s');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async stop() {
      await server.stop();
      await dropSlot();
    },
  };
}
