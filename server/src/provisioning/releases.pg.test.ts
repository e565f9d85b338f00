// Upgrading from every earlier release: a database as each release's provisioning left it
// (frozen under test/fixtures/releases, with data in it), then today's `campo provision`.
// It must exit 0, keep every row, and leave schema app exactly as a fresh provisioning of
// today's release does.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, dropDatabase, SERVER_ROLE } from '../../../test/support/pg.ts';
import {
  applyFrozenRelease,
  type FrozenRelease,
  frozenReleases,
  runCampo,
} from '../../../test/support/provisioning.ts';
import { createErpFixture } from '../erp-fixture/generate.ts';
import { type CatalogSnapshot, catalogSnapshot } from './catalog.ts';
import { runProvisionCommand } from './command.ts';
import { grantServerRole } from './grant.ts';
import { loadSqlSources } from './sources.ts';

const releases = await frozenReleases();
const today = await loadSqlSources();
const todays = new Map(today.migrations.map((m) => [`${m.name}.sql`, m.checksum]));

/** The release's latest migration: '0011'. */
function schemaOf(r: FrozenRelease): string {
  return r.migrations.at(-1)?.[0].slice(0, 4) ?? '';
}

/**
 * The migration of the release whose file main changed afterwards, if any (minutes later,
 * before a release was cut): applied migrations never change, so today's provisioning
 * refuses such a database (exit 4) rather than guess. Stored files are named by checksum.
 */
function editedMigration(r: FrozenRelease): string | null {
  for (const [file, id] of r.migrations) {
    const now = todays.get(file);
    if (now !== undefined && !id.startsWith(now.slice(0, 16))) return file.replace(/\.sql$/, '');
  }
  return null;
}

interface Database {
  name: string;
  url: string;
  pool: pg.Pool;
}
const made: Database[] = [];
let template = '';

/** A database copied from the template, which holds the tiny reference ERP and nothing else. */
async function erpDatabase(): Promise<Database> {
  const db = await createDatabase({ template });
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  pool.on('error', () => undefined);
  const handle = { ...db, pool };
  made.push(handle);
  return handle;
}

/** Today's `campo provision --grant-to campo_app`, as docs/provisioning.md tells ops to run it. */
async function provisionToday(url: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runProvisionCommand(
    url,
    { grantTo: SERVER_ROLE },
    (t) => {
      out += t;
    },
    (t) => {
      err += t;
    },
  );
  return { code, out, err };
}

/** Per service table, its columns and a digest of its rows over those columns. */
async function dataDigest(pool: pg.Pool, columns?: Map<string, string[]>): Promise<Map<string, string>> {
  const tables =
    columns ??
    new Map(
      (
        await pool.query<{ t: string; cols: string[] }>(
          `select c.relname as t, array_agg(quote_ident(a.attname) order by a.attnum) as cols
             from pg_class c join pg_namespace n on n.oid = c.relnamespace
             join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
            where n.nspname = 'app' and c.relkind = 'r' and c.relname not like 'schema\\_%'
            group by c.relname`,
        )
      ).rows.map((r) => [r.t, r.cols]),
    );
  const out = new Map<string, string>();
  for (const [t, cols] of tables) {
    const { rows } = await pool.query<{ n: number; digest: string }>(
      `select count(*)::int as n, md5(coalesce(string_agg(r::text, '|' order by r::text), '')) as digest
         from (select ${cols.join(', ')} from app.${t}) r`,
    );
    out.set(t, `${cols.join(',')}: ${rows[0]?.n} rows ${rows[0]?.digest}`);
  }
  return out;
}

async function bookkeeping(pool: pg.Pool) {
  const migrations = await pool.query('select version, name, checksum, kind from app.schema_migrations order by 1');
  const repeatables = await pool.query('select kind, name, checksum from app.schema_repeatables order by 1, 2');
  const catalog = await pool.query('select key, kind, def from app.schema_catalog order by 1');
  return { migrations: migrations.rows, repeatables: repeatables.rows, catalog: catalog.rows };
}

let fresh: { snapshot: CatalogSnapshot; bookkeeping: Awaited<ReturnType<typeof bookkeeping>> };

beforeAll(async () => {
  const db = await createDatabase();
  template = db.name;
  const pool = new pg.Pool({ connectionString: db.url, max: 4 });
  await createErpFixture(pool, { scale: 'tiny' });
  await pool.end();
  const target = await erpDatabase();
  const run = await provisionToday(target.url);
  expect(run.err).toBe('');
  fresh = { snapshot: await catalogSnapshot(target.pool), bookkeeping: await bookkeeping(target.pool) };
});

afterAll(async () => {
  for (const m of made.splice(0)) {
    await m.pool.end();
    await dropDatabase(m.name);
  }
  if (template) await dropDatabase(template);
});

describe('upgrading a database that an earlier release provisioned', () => {
  it('has frozen every release that changed sql/, from the first', () => {
    expect(releases.length).toBeGreaterThanOrEqual(20);
    expect(releases[0]?.commit).toBe('377e09c');
    // Issue 38's releases 7d3cc3e (2026-11-22) and 9bc7bb5 (2026-11-23) shipped these states.
    expect(releases.map((r) => r.commit)).toEqual(expect.arrayContaining(['04234ae', 'f7ffab6']));
    // What the upgrades are compared with holds the server role's grants.
    expect(fresh.snapshot.grants['v vw_clientes']).toMatch(/campo_app=r\//);
    expect(fresh.snapshot.grants['r pedidos']).toMatch(/campo_app=arwd\//);
  });

  // Concurrent: most of each case is PostgreSQL copying a database and running migrations.
  it.concurrent.for(releases.map((r) => [`${r.commit} (${r.date.slice(0, 10)}, schema ${schemaOf(r)})`, r] as const))(
    '%s',
    async ([, release], { expect }) => {
      const db = await erpDatabase();
      await applyFrozenRelease(db.pool, release);
      // The server's role, as that release's --grant-to left it (today's grant on its schema).
      await grantServerRole(db.pool, SERVER_ROLE);
      const before = await dataDigest(db.pool);
      for (const table of ['pedidos', 'pedido_itens', 'regras_desconto', 'usuarios', 'chamados']) {
        expect(before.get(table)).toMatch(/: [1-9]\d* rows /);
      }
      if (schemaOf(release) >= '0008') expect(before.get('sync_alteracoes')).toMatch(/: 3 rows /);
      const columns = new Map([...before].map(([t, d]) => [t, (d.split(':')[0] ?? '').split(',')]));
      const edited = editedMigration(release);
      const snapshot = edited ? await catalogSnapshot(db.pool) : null;

      const run = await provisionToday(db.url);
      if (edited) {
        expect(run.err).toMatch(new RegExp(`^campo: migration ${edited} was changed after it was applied`));
        expect(run.code).toBe(4);
        expect(await catalogSnapshot(db.pool)).toEqual(snapshot);
        expect(await dataDigest(db.pool, columns)).toEqual(before);
        return;
      }
      expect(run.err).toBe('');
      expect(run.code).toBe(0);
      expect(await dataDigest(db.pool, columns)).toEqual(before);
      expect(await catalogSnapshot(db.pool)).toEqual(fresh.snapshot);
      const after = await bookkeeping(db.pool);
      expect(after.migrations.map(({ version, name, checksum }) => ({ version, name, checksum }))).toEqual(
        fresh.bookkeeping.migrations.map(({ version, name, checksum }) => ({ version, name, checksum })),
      );
      expect(after.repeatables).toEqual(fresh.bookkeeping.repeatables);
      expect(after.catalog).toEqual(fresh.bookkeeping.catalog);
    },
  );

  it('upgrades the release of 2026-11-23 through the campo binary, then finds it up to date', async () => {
    const release = releases.find((r) => r.commit === 'f7ffab6');
    if (!release) throw new Error('release f7ffab6 is not frozen');
    const db = await erpDatabase();
    await applyFrozenRelease(db.pool, release);
    await grantServerRole(db.pool, SERVER_ROLE);
    const run = await runCampo(['provision', '--grant-to', SERVER_ROLE], db.url);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Provisioned /m);
    expect(await catalogSnapshot(db.pool)).toEqual(fresh.snapshot);
    const again = await runCampo(['provision'], db.url);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/^Already up to date: /m);
  });

  it("still refuses to drop an operator's view that selects from a view Campo recreates, or from one it retires", async () => {
    const release = releases.find((r) => r.commit === '04234ae');
    if (!release) throw new Error('release 04234ae is not frozen');
    const db = await erpDatabase();
    await applyFrozenRelease(db.pool, release);
    await db.pool.query('create view public.relatorio_empresas as select * from app.vw_empresas');
    const before = await catalogSnapshot(db.pool);
    const recreated = await provisionToday(db.url);
    expect(recreated.code).toBe(4);
    expect(recreated.err).toBe(
      'campo: view public.relatorio_empresas selects from app.vw_empresas, which provisioning must drop and recreate; Campo does not manage public.relatorio_empresas: drop it (and recreate it afterwards) or move it into sql/views\n',
    );
    await db.pool.query('drop view public.relatorio_empresas');
    // An operator's view in app itself is no more Campo's than one in public.
    await db.pool.query('create view app.vw_meu_financeiro as select * from app.vw_clientes_financeiro');
    const retired = await provisionToday(db.url);
    expect(retired.code).toBe(4);
    expect(retired.err).toBe(
      'campo: view app.vw_meu_financeiro selects from app.vw_clientes_financeiro, which Campo no longer ships and provisioning must drop; Campo does not manage app.vw_meu_financeiro: drop it or make it select from the views Campo ships (docs/provisioning.md)\n',
    );
    await db.pool.query('drop view app.vw_meu_financeiro');
    expect(await catalogSnapshot(db.pool)).toEqual(before);
    expect((await provisionToday(db.url)).code).toBe(0);
  });
});
