// Later runs on a provisioned database: new migrations, changed views, edited or broken
// SQL. Each test starts from a freshly provisioned empty ERP and varies the SQL sources.
import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, dropDatabase } from '../../../test/support/pg.ts';
import { expectedSchema } from '../../../test/support/provisioning.ts';
import { createPool } from '../db/pool.ts';
import { createErpSchema } from '../erp-fixture/schema.ts';
import { catalogSnapshot } from './catalog.ts';
import { ProvisionError } from './errors.ts';
import { provision } from './provision.ts';
import { loadSqlSources, parseMigration, parseRepeatable, type SqlSources } from './sources.ts';

const made: { name: string; pool: pg.Pool }[] = [];
async function provisionedDatabase(): Promise<pg.Pool> {
  const db = await createDatabase();
  const pool = createPool(db.url, 3);
  made.push({ name: db.name, pool });
  await createErpSchema(pool);
  await provision(pool);
  return pool;
}
afterEach(async () => {
  for (const m of made.splice(0)) {
    await m.pool.end();
    await dropDatabase(m.name);
  }
});

function withMigration(sources: SqlSources, file: string, sql: string): SqlSources {
  return { ...sources, migrations: [...sources.migrations, parseMigration(file, sql)] };
}

const OLD_VIEW =
  '-- erp-reads: public.corrent(id_corrent)\ncreate view app.vw_velha as select c.id_corrent as id from public.corrent c;';

function replaceRepeatable(sources: SqlSources, name: string, edit: (sql: string) => string): SqlSources {
  return {
    ...sources,
    repeatables: sources.repeatables.map((r) =>
      r.name === name ? parseRepeatable(r.kind, `${r.name}.sql`, edit(r.sql)) : r,
    ),
  };
}

async function failure(p: Promise<unknown>): Promise<ProvisionError> {
  const err = await p.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ProvisionError);
  return err as ProvisionError;
}

describe('provisioning an already provisioned database', () => {
  it('applies a new migration once, in its own transaction, and records it', async () => {
    const pool = await provisionedDatabase();
    const sources = withMigration(
      await loadSqlSources(),
      '0099_test_column.sql',
      '-- test: a later migration\nalter table app.chamados add column if not exists prioridade smallint;\n',
    );
    const report = await provision(pool, { sources });
    expect(report.actions.map((a) => a.name)).toEqual(['0099_test_column', 'app.schema_catalog']);
    // The new column is part of what campo serve checks from now on.
    const recorded = await pool.query(
      "select def from app.schema_catalog where key = 'column app.chamados.prioridade'",
    );
    expect(recorded.rows).toEqual([{ def: 'smallint' }]);
    expect(report.schemaVersion).toBe('0099');
    expect((await provision(pool, { sources })).upToDate).toBe(true);
  });

  it('rolls a failing migration back, keeps the ones before it, and exits 5', async () => {
    const pool = await provisionedDatabase();
    let sources = withMigration(
      await loadSqlSources(),
      '0098_good.sql',
      '-- test: fine\nalter table app.chamados add column if not exists prioridade smallint;\n',
    );
    sources = withMigration(
      sources,
      '0099_broken.sql',
      '-- test: breaks halfway\nalter table app.chamados add column etiqueta text;\n\nselect 1 / 0;\n',
    );
    const err = await failure(provision(pool, { sources }));
    expect(err.exitCode).toBe(5);
    expect(err.message).toMatch(/migration 0099_broken failed and was rolled back: division by zero/);
    expect(err.message).toMatch(/applied and kept before it: 0098_good/);
    const cols = await pool.query(
      "select column_name from information_schema.columns where table_schema = 'app' and table_name = 'chamados' and column_name in ('prioridade', 'etiqueta')",
    );
    expect(cols.rows).toEqual([{ column_name: 'prioridade' }]);
    const versions = await pool.query('select version from app.schema_migrations order by version');
    const recorded = versions.rows.map((r) => r.version);
    expect(recorded.slice(0, 2)).toEqual(['0001', '0002']);
    expect(recorded.at(-1)).toBe('0098');
    expect(recorded).not.toContain('0099');
  });

  it('names the line of a syntax error in a migration', async () => {
    const pool = await provisionedDatabase();
    const sources = withMigration(
      await loadSqlSources(),
      '0099_typo.sql',
      '-- test: a typo\nalter table app.chamados\n  add column etiqueta text;\nselect 1 frm app.chamados;\n',
    );
    const err = await failure(provision(pool, { sources }));
    expect(err.message).toBe(
      'migration 0099_typo failed and was rolled back: syntax error at or near "app" (at line 4)',
    );
  });

  it('refuses a migration that was edited after it was applied (exit 4)', async () => {
    const pool = await provisionedDatabase();
    const sources = await loadSqlSources();
    const edited = {
      ...sources,
      migrations: sources.migrations.map((m) =>
        m.version === '0002' ? parseMigration(`${m.name}.sql`, `${m.sql}-- edited\n`) : m,
      ),
    };
    const err = await failure(provision(pool, { sources: edited }));
    expect(err.exitCode).toBe(4);
    expect(err.message).toMatch(/migration 0002_end_entrega was changed after it was applied/);
  });

  it('refuses to run when the database has a migration this release does not know (exit 4)', async () => {
    const pool = await provisionedDatabase();
    await pool.query("insert into app.schema_migrations (version, name, checksum) values ('0500', '0500_future', 'x')");
    const err = await failure(provision(pool));
    expect(err.exitCode).toBe(4);
    expect(err.message).toMatch(/0500_future, which this release of Campo does not know/);
  });

  it('recreates a changed view and the views that select from it, and nothing else', async () => {
    const pool = await provisionedDatabase();
    const sources = replaceRepeatable(await loadSqlSources(), 'vw_titulos_abertos', (sql) =>
      sql.replace('t.num_documento,', 't.num_documento,\n       t.dt_emissao as emitido_em,'),
    );
    const report = await provision(pool, { sources, verbose: true });
    expect(report.actions.map((a) => a.description)).toEqual([
      'recreate view vw_titulos_abertos (changed)',
      'recreate view vw_clientes (depends on a recreated view)',
    ]);
    const cols = await pool.query('select * from app.vw_titulos_abertos where false');
    expect(cols.fields.map((f) => f.name)).toContain('emitido_em');
    expect((await provision(pool, { sources })).upToDate).toBe(true);
  });

  it('puts back a view or trigger that someone dropped', async () => {
    const pool = await provisionedDatabase();
    await pool.query('drop view app.vw_faturamento_mes');
    await pool.query('drop trigger trg_cliente_novo on app.clientes_novos');
    const report = await provision(pool);
    expect(report.actions.map((a) => a.description)).toEqual([
      'recreate view vw_faturamento_mes (missing)',
      'recreate trigger trg_cliente_novo (missing)',
    ]);
    const { views, triggers } = await expectedSchema();
    expect(report.counts).toMatchObject({ views, triggers });
  });

  it('drops a view whose file is no longer shipped', async () => {
    const pool = await provisionedDatabase();
    const sources = await loadSqlSources();
    const without = { ...sources, repeatables: sources.repeatables.filter((r) => r.name !== 'vw_faturamento_mes') };
    const report = await provision(pool, { sources: without });
    expect(report.actions.map((a) => a.description)).toEqual(['drop view vw_faturamento_mes (no longer shipped)']);
    expect((await pool.query("select to_regclass('app.vw_faturamento_mes') as v")).rows[0].v).toBeNull();
    expect((await provision(pool, { sources: without })).upToDate).toBe(true);
  });

  it('drops a trigger no longer shipped with the function its file created, unless something else uses it', async () => {
    const pool = await provisionedDatabase();
    const sources = await loadSqlSources();
    const without = { ...sources, repeatables: sources.repeatables.filter((r) => r.name !== 'trg_cliente_novo') };
    const report = await provision(pool, { sources: without });
    expect(report.actions.map((a) => a.description)).toEqual(['drop trigger trg_cliente_novo (no longer shipped)']);
    const left = await pool.query(
      "select proname from pg_proc where pronamespace = 'app'::regnamespace and proname in ('fn_cliente_novo', 'fn_pedido_aprovado') order by 1",
    );
    expect(left.rows).toEqual([{ proname: 'fn_pedido_aprovado' }]);
    expect((await provision(pool, { sources: without })).upToDate).toBe(true);

    // An operator's trigger on the same function keeps it.
    await provision(pool, { sources });
    await pool.query(
      'create trigger trg_meu after insert on app.clientes_novos for each row execute procedure app.fn_cliente_novo()',
    );
    await provision(pool, { sources: without });
    const kept = await pool.query(
      "select 1 from pg_proc where pronamespace = 'app'::regnamespace and proname = 'fn_cliente_novo'",
    );
    expect(kept.rowCount).toBe(1);
  });

  it('drops a function no longer shipped, unless an object of the operator still uses it', async () => {
    const sources = await loadSqlSources();
    const without = {
      ...sources,
      repeatables: sources.repeatables.filter((r) => r.name !== 'estoque_erp' && r.name !== 'vw_estoque'),
    };
    const pool = await provisionedDatabase();
    const exists = async () =>
      (await pool.query("select 1 from pg_proc where pronamespace = 'app'::regnamespace and proname = 'estoque_erp'"))
        .rowCount;
    await pool.query('create view public.meu_estoque as select * from app.estoque_erp()');
    const report = await provision(pool, { sources: without });
    expect(report.actions.map((a) => a.description)).toEqual([
      'drop function estoque_erp (no longer shipped)',
      'drop view vw_estoque (no longer shipped)',
    ]);
    expect(await exists()).toBe(1);
    await pool.query('drop view public.meu_estoque');
    // Shipped again, retired again: nothing uses it now.
    await provision(pool, { sources });
    await provision(pool, { sources: without });
    expect(await exists()).toBe(0);
  });

  it("drops the earlier release's signature of a function whose arguments changed", async () => {
    const sources = await loadSqlSources();
    const old = replaceRepeatable(sources, 'largura_coluna_erp', (sql) =>
      sql
        .replaceAll('tabela regclass, coluna name', 'tabela text, coluna text')
        .replace('(regclass, name)', '(text, text)')
        .replace('a.attrelid = tabela', 'a.attrelid = tabela::regclass'),
    );
    const pool = await provisionedDatabase();
    await provision(pool, { sources: old });
    const signatures = async () =>
      (
        await pool.query(
          "select p.oid::regprocedure::text as fn from pg_proc p where p.pronamespace = 'app'::regnamespace and p.proname = 'largura_coluna_erp' order by 1",
        )
      ).rows.map((r) => r.fn);
    expect(await signatures()).toEqual(['app.largura_coluna_erp(text,text)']);
    await provision(pool, { sources });
    expect(await signatures()).toEqual(['app.largura_coluna_erp(regclass,name)']);
    expect((await provision(pool, { sources })).upToDate).toBe(true);
  });

  it('drops a view no longer shipped that a changed view selected from', async () => {
    // As vw_clientes_financeiro and vw_ultima_compra went when vw_clientes took in their figures.
    const sources = await loadSqlSources();
    const old = replaceRepeatable(
      // First: the views were ordered by what they select from when loaded, and vw_velha selects from no view.
      { ...sources, repeatables: [parseRepeatable('view', 'vw_velha.sql', OLD_VIEW), ...sources.repeatables] },
      'vw_clientes',
      (sql) =>
        sql.replace(
          "where c.tipo = 'C'",
          "where c.tipo = 'C' and exists (select 1 from app.vw_velha v where v.id = c.id_corrent)",
        ),
    );
    const pool = await provisionedDatabase();
    await provision(pool, { sources: old });
    const report = await provision(pool, { sources });
    expect(report.actions.map((a) => a.description)).toEqual([
      'recreate view vw_clientes (changed)',
      'drop view vw_velha (no longer shipped)',
    ]);
    expect((await pool.query("select to_regclass('app.vw_velha') as v")).rows[0].v).toBeNull();
    const cols = await pool.query('select * from app.vw_clientes where false');
    expect(cols.fields.map((f) => f.name)).toContain('status_financeiro');
    expect((await provision(pool, { sources })).upToDate).toBe(true);
  });

  it('rolls back every view and trigger change when one view fails (exit 5)', async () => {
    const pool = await provisionedDatabase();
    let sources = replaceRepeatable(await loadSqlSources(), 'vw_empresas', (sql) =>
      sql.replace('e.telefone,', 'e.telefone, e.fax,'),
    );
    sources = replaceRepeatable(sources, 'vw_pautas', (sql) => sql.replace('p.descricao,', 'p.descricao as nome,'));
    const before = await catalogSnapshot(pool);
    const err = await failure(provision(pool, { sources }));
    expect(err.exitCode).toBe(5);
    expect(err.message).toMatch(
      /^views\/vw_empresas\.sql failed; every view, trigger and function change of this run was rolled back: column e\.fax does not exist/,
    );
    expect(await catalogSnapshot(pool)).toEqual(before);
  });

  it('lets a second concurrent run wait for the first instead of interleaving', async () => {
    const pool = await provisionedDatabase();
    const lines: string[] = [];
    const holder = await pool.connect();
    try {
      await holder.query('select pg_advisory_lock(1128353104, 1)');
      const run = provision(pool, { log: (l) => lines.push(l) });
      await new Promise((r) => setTimeout(r, 300));
      expect(lines).toEqual(['waiting for another campo provision on this database to finish']);
      await holder.query('select pg_advisory_unlock(1128353104, 1)');
      expect((await run).upToDate).toBe(true);
    } finally {
      holder.release();
    }
  });
});
