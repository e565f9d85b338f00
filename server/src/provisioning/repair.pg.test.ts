// Provisioning checks what schema app holds, not only the migration history: after someone
// drops a column, a view, a trigger, a policy or a function, the next run puts it back
// (--dry-run shows how), and what it cannot put back without losing data it refuses with
// exit 4, naming each difference. Before, it said "Already up to date" over a broken schema
// and GET /orders answered 500.
import { beforeAll, describe, expect, it } from 'vitest';
import { SERVER_ROLE } from '../../../test/support/pg.ts';
import { runCampo, useErpDatabase } from '../../../test/support/provisioning.ts';
import { catalogSnapshot } from './catalog.ts';
import { summaryLine } from './command.ts';
import { grantServerRole } from './grant.ts';
import { provision } from './provision.ts';
import { readCatalog } from './verify.ts';

describe('provisioning over a schema someone damaged', () => {
  const db = useErpDatabase(18);

  /** Everything provisioning owns, comparable across runs (a re-added column goes last: sorted). */
  async function state() {
    const client = await db.pool.connect();
    try {
      const items = Object.fromEntries([...(await readCatalog(client, 'app'))].map(([k, v]) => [k, v.def]));
      const snap = await catalogSnapshot(client);
      return { items, views: snap.views, functions: snap.functions, triggers: snap.triggers };
    } finally {
      client.release();
    }
  }
  let intact: Awaited<ReturnType<typeof state>>;

  beforeAll(async () => {
    await provision(db.pool);
    await grantServerRole(db.pool, SERVER_ROLE);
    intact = await state();
  });

  it('puts back pedidos.end_entrega: the dry run says how, the run does it, and then it is up to date', async () => {
    await db.pool.query('alter table app.pedidos drop column end_entrega cascade');
    const dry = await runCampo(['provision', '--dry-run'], db.url);
    expect(dry.status).toBe(0);
    expect(dry.stdout).toMatch(
      /^would repair column app\.pedidos\.end_entrega is missing: alter table app\.pedidos add column if not exists end_entrega text$/m,
    );
    expect(dry.stdout).not.toMatch(/Already up to date/);

    const run = await runCampo(['provision'], db.url);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^repaired column app\.pedidos\.end_entrega$/m);
    expect(await state()).toEqual(intact);
    const again = await provision(db.pool);
    expect(summaryLine(again)).toMatch(/^Already up to date/);
  });

  // The class: every kind of object provisioning owns, dropped or switched off after a run.
  it.each([
    ['a column added by a later migration', 'alter table app.pedidos drop column end_entrega cascade'],
    ['a column of 0001', 'alter table app.chamados drop column atualizado_em cascade'],
    ['a view', 'drop view app.vw_sitpedido cascade'],
    ['a view other views select from', 'drop view app.vw_clientes cascade'],
    ['a trigger', 'drop trigger trg_pedido_aprovado on app.pedidos'],
    ['a disabled trigger', 'alter table app.pedidos disable trigger trg_pedido_aprovado'],
    ['a trigger function', 'drop function app.fn_cliente_novo() cascade'],
    ['a function of sql/functions', 'drop function app.texto_erp(text, integer)'],
    ['a function of a migration', 'drop function app.proximo_num_ped_sar(integer)'],
    ['the functions the policies call', 'drop function app.empresa_atual() cascade'],
    ['a policy', 'drop policy vendedor on app.pedidos'],
    ['row-level security', 'alter table app.pedidos disable row level security'],
    ['an index', 'drop index app.pedidos_vendedor_criado_idx'],
    ['a unique constraint', 'alter table app.pedidos drop constraint pedidos_num_ped_sar_key'],
    ['a check constraint', 'alter table app.pedidos drop constraint pedidos_rejeicao_motivo'],
  ])('puts back %s', async (_what, damage) => {
    await db.pool.query(damage);
    expect(await state()).not.toEqual(intact);
    const dry = await provision(db.pool, { dryRun: true });
    expect(dry.upToDate).toBe(false);
    const report = await provision(db.pool);
    expect(report.upToDate).toBe(false);
    expect(await state()).toEqual(intact);
    expect((await provision(db.pool)).upToDate).toBe(true);
    // The server's role can still read every view (a recreated view lost its grants).
    const denied = await db.pool.query(
      `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'app' and c.relkind = 'v' and not has_table_privilege($1, c.oid, 'select')`,
      [SERVER_ROLE],
    );
    expect(denied.rows).toEqual([]);
  });

  it('refuses with exit 4, naming each difference, what it cannot put back without losing data', async () => {
    await db.pool.query('alter table app.chamados alter column assunto type varchar(300)');
    await db.pool.query('drop table app.metas_representante cascade');
    await db.pool.query('alter table app.pedidos drop column end_entrega cascade');
    const before = await state();
    const run = await runCampo(['provision'], db.url);
    expect(run.status).toBe(4);
    expect(run.stderr).toContain('campo: schema app no longer holds what its recorded migrations created');
    expect(run.stderr).toMatch(/^ {2}column app\.chamados\.assunto is character varying\(300\), expected text$/m);
    expect(run.stderr).toMatch(
      /^ {2}table app\.metas_representante is missing \(it held data: restore it from a backup\)$/m,
    );
    expect(run.stdout).toBe('');
    // Nothing was changed, not even what could have been repaired.
    expect(await state()).toEqual(before);
    const dry = await runCampo(['provision', '--dry-run'], db.url);
    expect(dry.status).toBe(4);
  });
});
