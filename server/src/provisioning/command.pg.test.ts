// `campo provision` as ops runs it: a child process given DATABASE_URL and nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, dropDatabase } from '../../../test/support/pg.ts';
import { expectedSchema, runCampo, useErpDatabase } from '../../../test/support/provisioning.ts';
import { createPool } from '../db/pool.ts';
import { createErpSchema } from '../erp-fixture/schema.ts';

describe('campo provision', () => {
  const db = useErpDatabase(18);

  it('--dry-run prints the plan, changes nothing and exits 0', async () => {
    const run = await runCampo(['provision', '--dry-run'], db.url);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^would apply migration 0001_app_schema$/m);
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(
      /^Dry run, nothing changed: \d+ changes planned; now no schema yet, 0 tables, 0 views, 0 triggers\.$/,
    );
    const app = await db.pool.query("select count(*)::int as n from pg_namespace where nspname = 'app'");
    expect(app.rows[0].n).toBe(0);
  });

  it('provisions, ending with a summary of tables, views and triggers, and exits 0', async () => {
    const run = await runCampo(['provision'], db.url);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^applied migration 0001_app_schema \(\d+ ms\)$/m);
    const e = await expectedSchema();
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(
      new RegExp(
        `^Provisioned campo_test_\\w+: schema ${e.version}, ${e.tables} tables, ${e.views} views, ${e.triggers} triggers; \\d+ changes applied \\(\\d+\\.\\d s\\)\\.$`,
      ),
    );
  });

  it('a second run says it is already up to date and exits 0', async () => {
    const run = await runCampo(['provision', '--verbose'], db.url);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^database campo_test_\w+: PostgreSQL [\d.]+, encoding LATIN1$/m);
    expect(run.stdout).toMatch(/^ERP public\.corrent: write 23 columns ok \(trg_cliente_novo\)$/m);
    expect(run.stdout).toMatch(/^migration 0002_end_entrega: applied \(migration\)$/m);
    expect(run.stdout).toMatch(/^view vw_sitpedido: up to date$/m);
    const e = await expectedSchema();
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(
      new RegExp(
        `^Already up to date: schema ${e.version}, ${e.tables} tables, ${e.views} views, ${e.triggers} triggers \\(\\d+\\.\\d s\\)\\.$`,
      ),
    );
  });

  it('an unknown --profile exits 3 naming the known profiles, and a known one not fitting the ERP exits 3 too', async () => {
    const unknown = await runCampo(['provision', '--profile', 'sap'], db.url);
    expect(unknown.status).toBe(3);
    expect(unknown.stderr).toBe(
      'campo: unknown ERP profile "sap"; the known profiles are referencia, odoo; nothing was changed\n',
    );
    const odoo = await runCampo(['provision', '--profile', 'odoo', '--dry-run'], db.url);
    expect(odoo.status).toBe(3);
    expect(odoo.stderr).toMatch(/^ {2}missing table public\.res_partner \(used by .*trg_cliente_novo/m);
    const recorded = await db.pool.query('select perfil from app.perfil_erp');
    expect(recorded.rows).toEqual([{ perfil: 'referencia' }]);
  });

  describe('on a database in an encoding Campo does not support', () => {
    const ascii = { name: '', url: '' };
    beforeAll(async () => {
      Object.assign(ascii, await createDatabase({ encoding: 'SQL_ASCII' }));
      const pool = createPool(ascii.url, 1);
      await createErpSchema(pool);
      await pool.end();
    });
    afterAll(async () => {
      if (ascii.name) await dropDatabase(ascii.name);
    });

    it('exits 3 with "campo: <message>" on stderr naming the encoding', async () => {
      const run = await runCampo(['provision'], ascii.url);
      expect(run.status).toBe(3);
      expect(run.stderr).toMatch(/^campo: database campo_test_\w+ has encoding SQL_ASCII;.* LATIN1, WIN1252, UTF8/);
      expect(run.stdout).toBe('');
    });

    it('--check says so on stdout and exits 3', async () => {
      const run = await runCampo(['provision', '--check'], ascii.url);
      expect(run.status).toBe(3);
      expect(run.stdout).toMatch(/^problem \(database\): encoding SQL_ASCII; Campo needs LATIN1, WIN1252 or UTF8$/m);
    });
  });
});
