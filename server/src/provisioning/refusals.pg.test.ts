// What provisioning refuses, and --dry-run: in every case nothing may change.
import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, dropDatabase } from '../../../test/support/pg.ts';
import { expectedSchema } from '../../../test/support/provisioning.ts';
import { createPool } from '../db/pool.ts';
import { createErpSchema } from '../erp-fixture/schema.ts';
import { catalogSnapshot } from './catalog.ts';
import { ProvisionError } from './errors.ts';
import { provision } from './provision.ts';

const made: { name: string; pool: pg.Pool }[] = [];
async function erpDatabase(options: { encoding?: string } = {}): Promise<pg.Pool> {
  const db = await createDatabase(options);
  const pool = createPool(db.url, 3);
  made.push({ name: db.name, pool });
  await createErpSchema(pool);
  return pool;
}
afterEach(async () => {
  for (const m of made.splice(0)) {
    await m.pool.end();
    await dropDatabase(m.name);
  }
});

async function failure(p: Promise<unknown>): Promise<ProvisionError> {
  const err = await p.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ProvisionError);
  return err as ProvisionError;
}

async function hasAppSchema(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query("select exists (select 1 from pg_namespace where nspname = 'app') as ok");
  return rows[0].ok;
}

describe('provisioning refuses', () => {
  it.each(['SQL_ASCII', 'LATIN2'])(
    'a database encoded %s, naming its encoding and the ones supported, and creates nothing',
    async (encoding) => {
      const pool = await erpDatabase({ encoding });
      const err = await failure(provision(pool));
      expect(err.exitCode).toBe(3);
      expect(err.message).toMatch(
        new RegExp(
          `^database campo_test_\\w+ has encoding ${encoding}; Campo lives in ERP databases encoded LATIN1, WIN1252, UTF8 and refuses any other encoding`,
        ),
      );
      expect(await hasAppSchema(pool)).toBe(false);
    },
  );

  it('an ERP that lacks tables or columns, listing exactly those, and creates nothing', async () => {
    const pool = await erpDatabase();
    await pool.query('drop table titulos_receber');
    await pool.query('alter table corrent drop column situacao');
    await pool.query('alter table produtos drop column imagem, drop column categoria');
    const err = await failure(provision(pool));
    expect(err.exitCode).toBe(3);
    const problems = err.message
      .split('\n')
      .slice(1)
      .map((l) => l.trim());
    expect(problems).toEqual([
      'missing column public.corrent.situacao (read by vw_clientes)',
      'missing column public.corrent.situacao (written by trg_cliente_novo)',
      'missing column public.produtos.categoria (read by vw_pedidos_erp_itens, vw_produtos)',
      'missing column public.produtos.imagem (read by vw_produtos)',
      'missing table public.titulos_receber (used by campo_erp_indexes, vw_titulos_abertos, vw_titulos_cliente)',
    ]);
    expect(await hasAppSchema(pool)).toBe(false);
  });

  it('an ERP with a mandatory column the new-client trigger would leave empty', async () => {
    const pool = await erpDatabase();
    await pool.query('alter table corrent add column regiao varchar(10) not null');
    const err = await failure(provision(pool));
    expect(err.exitCode).toBe(3);
    expect(err.message).toMatch(
      /public\.corrent has mandatory column regiao \(NOT NULL, no default\) that trg_cliente_novo does not fill/,
    );
    expect(await hasAppSchema(pool)).toBe(false);
  });

  it('a role without the privileges the views need, naming them; a role with them provisions', async () => {
    const pool = await erpDatabase();
    const role = `campo_role_${Math.random().toString(36).slice(2, 10)}`;
    const { rows } = await pool.query<{ db: string }>('select current_database() as db');
    const database = rows[0]?.db as string;
    await pool.query(`create role ${role} login password 'campo-secret'`);
    try {
      await pool.query(`grant create on database ${database} to ${role}`);
      await pool.query(`grant usage on schema public to ${role}`);
      await pool.query(`grant select on all tables in schema public to ${role}`);
      await pool.query(`revoke select on titulos_receber from ${role}`);
      await pool.query(`grant insert on corrent, pedidos_venda to ${role}`);
      const url = new URL(made.at(-1)?.pool.options.connectionString as string);
      url.username = role;
      url.password = 'campo-secret';
      const asRole = createPool(url.toString(), 2);
      try {
        const err = await failure(provision(asRole));
        expect(err.exitCode).toBe(3);
        expect(
          err.message
            .split('\n')
            .slice(1)
            .map((l) => l.trim()),
        ).toEqual([
          'no INSERT privilege on public.pedidos_venda_itens (written by trg_pedido_aprovado)',
          'no SELECT privilege on public.titulos_receber (read by campo_erp_indexes, vw_titulos_abertos, vw_titulos_cliente)',
        ]);
        expect(await hasAppSchema(pool)).toBe(false);

        await pool.query(`grant select on titulos_receber to ${role}`);
        await pool.query(`grant insert on pedidos_venda_itens to ${role}`);
        // Not the owner of any ERP table: fine, because the reference ERP has the indexes already.
        const report = await provision(asRole);
        const { tables, views, triggers } = await expectedSchema();
        expect(report.counts).toMatchObject({ tables, views, triggers });
      } finally {
        await asRole.end();
      }
    } finally {
      await pool.query(`drop owned by ${role} cascade`).catch(() => undefined);
      await pool.query(`drop role if exists ${role}`).catch(() => undefined);
    }
  });

  it('an unreachable database, with exit 3', async () => {
    const pool = createPool('postgres://nobody@127.0.0.1:1/erp', 1);
    try {
      const err = await failure(provision(pool));
      expect(err.exitCode).toBe(3);
      expect(err.message).toMatch(/^cannot connect to the database in DATABASE_URL/);
    } finally {
      await pool.end();
    }
  });
});

describe('--dry-run', () => {
  it('prints the plan of a fresh install and changes nothing', async () => {
    const pool = await erpDatabase();
    const before = await catalogSnapshot(pool);
    const lines: string[] = [];
    const report = await provision(pool, { dryRun: true, log: (l) => lines.push(l) });
    expect(report).toMatchObject({ dryRun: true, upToDate: false, mode: 'fresh', schemaVersion: null });
    expect(report.counts).toMatchObject({ tables: 0, views: 0, triggers: 0 });
    expect(lines[0]).toBe('would create schema app and the migration bookkeeping tables (if missing)');
    expect(lines).toContain('would apply migration 0001_app_schema');
    expect(lines).toContain('would create view vw_sitpedido (new)');
    expect(lines).toContain('would create trigger trg_pedido_aprovado (new)');
    expect(lines.filter((l) => l.startsWith('would create view'))).toHaveLength(26);
    expect(await hasAppSchema(pool)).toBe(false);
    expect(await catalogSnapshot(pool)).toEqual(before);
  });

  it('on a baseline, verifies and plans without recording anything', async () => {
    const pool = await erpDatabase();
    await provision(pool);
    // Simulate the old system: same tables, no bookkeeping, no end_entrega.
    await pool.query('drop table app.schema_migrations, app.schema_repeatables');
    await pool.query('alter table app.pedidos drop column end_entrega');
    const before = await catalogSnapshot(pool);
    const report = await provision(pool, { dryRun: true });
    expect(report.mode).toBe('baseline');
    expect(report.actions.map((a) => a.description).slice(0, 3)).toEqual([
      'create schema app and the migration bookkeeping tables (if missing)',
      'record 0001_app_schema as baseline of the existing schema app (missing pedidos.end_entrega: added by a later migration)',
      'apply migration 0002_end_entrega',
    ]);
    expect(await catalogSnapshot(pool)).toEqual(before);
  });
});
