// Helpers for the provisioning tests: an ERP database (TEST_ENCODING) on a chosen PostgreSQL major,
// a few rows picked from the reference ERP to build orders and clients with, and the CLI.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { type EmbeddedPostgres, type PgMajor, startEmbeddedPostgres } from '../../server/src/db/embedded-postgres.ts';
import { createErpFixture } from '../../server/src/erp-fixture/generate.ts';
import { checksum, loadSqlSources, type RepeatableKind } from '../../server/src/provisioning/sources.ts';
import { createDatabase, dropDatabase, TEST_ENCODING } from './pg.ts';

export interface ErpDatabase {
  major: PgMajor;
  url: string;
  pool: pg.Pool;
}

/**
 * A fresh database (in TEST_ENCODING: LATIN1 unless the encoding matrix runs) with the tiny reference ERP, for the calling describe block. Major
 * 18 uses the run's shared server; other majors get a throw-away embedded server of their
 * own, stopped when the block ends.
 */
export function useErpDatabase(major: PgMajor = 18, options: { fixture?: boolean } = {}): ErpDatabase {
  const handle = { major, url: '', pool: undefined as unknown as pg.Pool };
  let server: EmbeddedPostgres | null = null;
  let name = '';
  beforeAll(async () => {
    if (major === 18) {
      const db = await createDatabase();
      name = db.name;
      handle.url = db.url;
    } else {
      server = await startEmbeddedPostgres({ major, fast: true });
      const admin = new pg.Client({ connectionString: server.url() });
      await admin.connect();
      await admin.query(
        `create database erp encoding '${TEST_ENCODING}' lc_collate 'C' lc_ctype 'C' template template0`,
      );
      await admin.end();
      handle.url = server.url('erp');
    }
    handle.pool = new pg.Pool({ connectionString: handle.url, max: 4 });
    handle.pool.on('error', () => undefined);
    if (options.fixture !== false) await createErpFixture(handle.pool, { scale: 'tiny' });
  });
  afterAll(async () => {
    await handle.pool?.end();
    if (name) await dropDatabase(name);
    await (server as EmbeddedPostgres | null)?.stop();
  });
  return handle;
}

/** The ERP columns (schema.table.column) PostgreSQL records a view of schema app as reading. */
export async function viewErpColumns(pool: pg.Pool, view: string): Promise<string[]> {
  const { rows } = await pool.query<{ col: string }>(
    `select distinct n.nspname || '.' || c.relname || '.' || a.attname as col
       from pg_depend d
       join pg_rewrite r on r.oid = d.objid
       join pg_class c on c.oid = d.refobjid
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum = d.refobjsubid
      where d.classid = 'pg_rewrite'::regclass and r.ev_class = $1::regclass
        and n.nspname not in ('app', 'pg_catalog')`,
    [`app.${view}`],
  );
  return rows.map((r) => r.col).sort();
}

/** Collects provisioning's progress lines, for assertions on what it said. */
export function collectLog(): { lines: string[]; log: (line: string) => void } {
  const lines: string[] = [];
  return { lines, log: (line) => lines.push(line) };
}

export interface OrderScenario {
  /** Tenant (head office) and representative, as Campo knows them. */
  idEmpresa: number;
  codVendedor: number;
  idCliente: number;
  idPauta: number | null;
  products: { idProduto: number; codProduto: string; descricao: string; preco: string }[];
}

/**
 * An active representative with a client of theirs and two priced products, read through the
 * app views (so on any ERP profile, once provisioned).
 */
export async function orderScenario(pool: pg.Pool): Promise<OrderScenario> {
  const { rows } = await pool.query<{ tenant: number; cod_vendedor: number; id_corrent: number; id_pauta: number }>(
    `select v.id_empresa as tenant, v.cod_vendedor, c.id_cliente as id_corrent, c.id_pauta
       from app.vw_vendedores v
       join app.vw_clientes c on c.id_filial = v.id_filial and c.cod_vendedor = v.cod_vendedor
      where v.ativo and c.id_pauta is not null
      order by v.id_filial, v.cod_vendedor, c.id_cliente
      limit 1`,
  );
  const pick = rows[0];
  if (!pick) throw new Error('the ERP has no active representative with a client on a price list');
  const products = await pool.query<{ id_produto: number; cod_produto: string; descricao: string; preco: string }>(
    `select p.id_produto, p.cod_produto, p.descricao, pp.preco::text as preco
       from app.vw_produtos p
       join app.vw_clientes c on c.id_cliente = $1
       join app.vw_precos pp on pp.id_produto = p.id_produto and pp.id_pauta = c.id_pauta and pp.id_filial = c.id_filial
      where p.ativo
      order by p.id_produto
      limit 2`,
    [pick.id_corrent],
  );
  return {
    idEmpresa: pick.tenant,
    codVendedor: pick.cod_vendedor,
    idCliente: pick.id_corrent,
    idPauta: pick.id_pauta,
    products: products.rows.map((p) => ({
      idProduto: p.id_produto,
      codProduto: p.cod_produto,
      descricao: p.descricao,
      preco: p.preco,
    })),
  };
}

/**
 * A pending Campo order (situa 1) of the scenario, one line per product, 3 units at 5% off.
 * Returns the order's id. `extraItem` adds a line with any product id (to make the ERP fail).
 */
export async function insertPendingOrder(
  pool: pg.Pool,
  s: OrderScenario,
  options: { endEntrega?: string; observacao?: string; extraItem?: number } = {},
): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const { rows } = await client.query<{ id: string }>(
      `insert into app.pedidos (id_empresa, cod_vendedor, num_ped_sar, id_cliente, nome_cliente, cnpj_cpf_cliente,
                                end_entrega, id_pauta, observacao, valor_bruto, valor_desconto, valor_total)
       select $1, $2, coalesce((select max(num_ped_sar) from app.pedidos where id_empresa = $1), 0) + 1,
              c.id_cliente, c.razao_social, c.cnpj_cpf, $4, $5, $6, 0, 0, 0
         from app.vw_clientes c where c.id_cliente = $3
       returning id`,
      [
        s.idEmpresa,
        s.codVendedor,
        s.idCliente,
        options.endEntrega ?? 'Rua das Flores, 10',
        s.idPauta,
        options.observacao ?? null,
      ],
    );
    const id = Number(rows[0]?.id);
    const lines = s.products.map((p) => ({ ...p }));
    if (options.extraItem !== undefined) {
      lines.push({ idProduto: options.extraItem, codProduto: 'X', descricao: 'produto inexistente', preco: '1.0000' });
    }
    let seq = 0;
    for (const p of lines) {
      seq += 1;
      await client.query(
        `insert into app.pedido_itens (id_pedido, seq, id_empresa, id_produto, cod_produto, descricao, quantidade,
                                       preco_tabela, preco_unitario, perc_desconto, teto_desconto, id_pauta, valor_total)
         values ($1, $2, $3, $4, $5, $6, 3, $7::numeric, round($7::numeric * 0.95, 4), 5, 10, $8,
                 round(round($7::numeric * 0.95, 4) * 3, 2))`,
        [id, seq, s.idEmpresa, p.idProduto, p.codProduto, p.descricao, p.preco, s.idPauta],
      );
    }
    await client.query(
      `update app.pedidos p
          set valor_bruto = t.bruto, valor_desconto = t.bruto - t.total, valor_total = t.total
         from (select sum(round(preco_tabela * quantidade, 2)) as bruto, sum(valor_total) as total
                 from app.pedido_itens where id_pedido = $1) t
        where p.id = $1`,
      [id],
    );
    await client.query('commit');
    return id;
  } catch (err) {
    await client.query('rollback');
    throw err;
  } finally {
    client.release();
  }
}

/**
 * What a full provisioning leaves, derived from the SQL sources, so that a later migration
 * adding a table does not break every test that counts.
 */
export async function expectedSchema(): Promise<{ tables: number; views: number; triggers: number; version: string }> {
  const sources = await loadSqlSources();
  const tables = sources.migrations.reduce(
    (n, m) => n + (m.sql.match(/^\s*create\s+table\s+app\./gim)?.length ?? 0),
    0,
  );
  const count = (kind: string) => sources.repeatables.filter((r) => r.kind === kind).length;
  return {
    tables,
    views: count('view'),
    triggers: count('trigger'),
    version: sources.migrations.at(-1)?.version ?? '',
  };
}

const campo = fileURLToPath(new URL('../../server/bin/campo.mjs', import.meta.url));

/** `campo <args>` as ops run it: a child process given DATABASE_URL (and PATH, HOME) only. */
export function runCampo(
  args: string[],
  databaseUrl: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const { PATH, HOME } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [campo, ...args], {
      env: { PATH, HOME, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

/** One earlier release as test/fixtures/releases/freeze.ts froze it (see that file). */
export interface FrozenRelease {
  commit: string;
  date: string;
  subject: string;
  bookkeeping: string;
  migrations: [string, string][];
  repeatables: [RepeatableKind, string, string][];
}

const releasesDir = fileURLToPath(new URL('../fixtures/releases/', import.meta.url));

export async function frozenReleases(): Promise<FrozenRelease[]> {
  return JSON.parse(await readFile(join(releasesDir, 'manifest.json'), 'utf8')) as FrozenRelease[];
}

async function frozenFile(id: string): Promise<string> {
  const text = await readFile(join(releasesDir, 'files', id), 'utf8');
  // Named by its checksum: a file edited by hand would no longer be what the release shipped.
  if (!id.startsWith(checksum(text).slice(0, 16))) throw new Error(`test/fixtures/releases/files/${id} was edited`);
  return text;
}

/**
 * Does to the database what the release's `campo provision` did on its first run: its
 * bookkeeping tables, each migration in its own transaction with its row in
 * app.schema_migrations, then every function, ERP index set, view and trigger with its row
 * in app.schema_repeatables. After each migration, the rows of data/<version>.sql (when
 * there is one) go in, so that the release's later migrations run over data, as in the field.
 * app.schema_catalog, which releases from 2026-11-23 keep for `campo serve`, is left empty:
 * provisioning rewrites it whenever it differs.
 */
export async function applyFrozenRelease(pool: pg.Pool, release: FrozenRelease): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query(`create schema app;\n${await frozenFile(release.bookkeeping)}`);
    for (const [file, id] of release.migrations) {
      const name = file.replace(/\.sql$/, '');
      const sql = await frozenFile(id);
      await client.query('begin');
      await client.query(sql);
      await client.query(
        "insert into app.schema_migrations (version, name, checksum, kind) values ($1, $2, $3, 'migration')",
        [name.slice(0, 4), name, checksum(sql)],
      );
      await client.query('commit');
      const data = await readFile(join(releasesDir, 'data', `${name.slice(0, 4)}.sql`), 'utf8').catch(() => null);
      if (data !== null) await client.query(data);
    }
    await client.query('begin');
    for (const [kind, file, id] of release.repeatables) {
      const sql = await frozenFile(id);
      await client.query(sql);
      await client.query('insert into app.schema_repeatables (kind, name, checksum) values ($1, $2, $3)', [
        kind,
        file.replace(/\.sql$/, ''),
        checksum(sql),
      ]);
    }
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
