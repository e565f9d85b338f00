// `campo provision --check` on the tiny reference ERP: a fit one passes and stays exactly as it
// was (objects, rows and sequences), and each mistake an integrator makes gives its line.
import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCampo, useErpDatabase } from '../../../test/support/provisioning.ts';
import { createErpFixture } from '../erp-fixture/generate.ts';
import { type CheckReport, checkProvisioning } from './check.ts';
import { provision } from './provision.ts';
import { loadSqlSources, parseRepeatable, type SqlSources } from './sources.ts';
import { VIEW_CONTRACT } from './view-contract.ts';

function replaceRepeatable(sources: SqlSources, name: string, edit: (sql: string) => string): SqlSources {
  return {
    ...sources,
    repeatables: sources.repeatables.map((r) => {
      if (r.name !== name) return r;
      const sql = edit(r.sql);
      if (sql === r.sql) throw new Error(`the edit of ${name} changed nothing`);
      return parseRepeatable(r.kind, `${r.name}.sql`, sql);
    }),
  };
}

const lines = (r: CheckReport) => r.problems.map((p) => `${p.step}: ${p.message}`);

/**
 * Everything a check could leave behind: every relation, function, trigger and view
 * definition outside the system schemas, every table's rows, every sequence's state.
 */
async function snapshot(pool: pg.Pool): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const outside = "n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'";
  const rels = await pool.query<{ name: string; kind: string; def: string | null }>(
    `select c.oid::regclass::text as name, c.relkind as kind,
            case when c.relkind = 'v' then pg_get_viewdef(c.oid) end as def
       from pg_class c join pg_namespace n on n.oid = c.relnamespace where ${outside}`,
  );
  for (const r of rels.rows) {
    out[`rel ${r.name}`] = `${r.kind} ${r.def ?? ''}`;
    if (r.kind === 'r') {
      const { rows } = await pool.query<{ h: string | null }>(
        `select md5(string_agg(t::text, '|' order by t::text)) as h from ${r.name} t`,
      );
      out[`rows ${r.name}`] = rows[0]?.h ?? 'empty';
    } else if (r.kind === 'S') {
      const { rows } = await pool.query<{ v: string }>(`select last_value || ' ' || is_called as v from ${r.name}`);
      out[`seq ${r.name}`] = rows[0]?.v ?? '';
    }
  }
  const fns = await pool.query<{ name: string; h: string }>(
    `select p.oid::regprocedure::text as name, md5(p.prosrc) as h
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace where ${outside}`,
  );
  for (const r of fns.rows) out[`fn ${r.name}`] = r.h;
  const trgs = await pool.query<{ name: string; def: string }>(
    `select t.tgname || ' on ' || t.tgrelid::regclass::text as name, pg_get_triggerdef(t.oid) as def
       from pg_trigger t where not t.tgisinternal`,
  );
  for (const r of trgs.rows) out[`trigger ${r.name}`] = r.def;
  const schemas = await pool.query<{ name: string }>(`select n.nspname as name from pg_namespace n where ${outside}`);
  for (const r of schemas.rows) out[`schema ${r.name}`] = '';
  return out;
}

describe('campo provision --check on a fit reference ERP', () => {
  const db = useErpDatabase(18);
  let sources: SqlSources;
  beforeAll(async () => {
    sources = await loadSqlSources();
  });

  it('passes before provisioning, and leaves no trace: no schema app, no row, no sequence moved', async () => {
    const before = await snapshot(db.pool);
    const progress: string[] = [];
    const report = await checkProvisioning(db.pool, { log: (l) => progress.push(l) });
    expect(lines(report)).toEqual([]);
    expect(report.fit).toBe(true);
    expect(progress.join('\n')).toMatch(/rehearsing the triggers/);
    expect(await snapshot(db.pool)).toEqual(before);
  });

  it('passes once provisioned, and leaves the app tables, the ERP and every sequence as they were', async () => {
    await provision(db.pool);
    const before = await snapshot(db.pool);
    expect(Object.keys(before).some((k) => k === 'seq pedidos_venda_id_pedido_seq')).toBe(true);
    const report = await checkProvisioning(db.pool);
    expect(lines(report)).toEqual([]);
    expect(await snapshot(db.pool)).toEqual(before);
    // The rehearsal drew new ids from the ERP's sequences, which are back where they were,
    // and its rows are gone.
    const [order, client] = ['pedidos_venda_id_pedido_seq', 'corrent_id_corrent_seq'].map((s) =>
      Number(before[`seq ${s}`]?.split(' ')[0]),
    );
    expect(report.rehearsal?.idPedidoErp).toBeGreaterThanOrEqual(order ?? Number.NaN);
    expect(report.rehearsal?.idClienteErp).toBeGreaterThanOrEqual(client ?? Number.NaN);
    const left = await db.pool.query<{ n: number }>(
      `select (select count(*) from pedidos_venda where id_pedido = $1)
            + (select count(*) from corrent where id_corrent = $2) as n`,
      [report.rehearsal?.idPedidoErp, report.rehearsal?.idClienteErp],
    );
    expect(Number(left.rows[0]?.n)).toBe(0);
  });

  it('holds a sequence the approval trigger names in nextval, and reports one it cannot', async () => {
    await db.pool.query('create sequence numeracao_pedidos');
    const edited = replaceRepeatable(sources, 'trg_pedido_aprovado', (sql) =>
      sql.replace(
        '  perform pg_advisory_xact_lock(1128353104, v_empresa_erp);\n',
        "  perform pg_advisory_xact_lock(1128353104, v_empresa_erp);\n  perform nextval('public.numeracao_pedidos');\n",
      ),
    );
    const report = await checkProvisioning(db.pool, { sources: edited });
    expect(lines(report)).toEqual([]);
    const { rows } = await db.pool.query<{ called: boolean }>('select is_called as called from numeracao_pedidos');
    expect(rows[0]?.called).toBe(false);
    // Named only at run time, it cannot be held: the gap it leaves is reported.
    const hidden = replaceRepeatable(sources, 'trg_pedido_aprovado', (sql) =>
      sql.replace(
        '  perform pg_advisory_xact_lock(1128353104, v_empresa_erp);\n',
        "  perform pg_advisory_xact_lock(1128353104, v_empresa_erp);\n  perform nextval(('public.numeracao' || '_pedidos')::regclass);\n",
      ),
    );
    const gap = await checkProvisioning(db.pool, { sources: hidden });
    expect(gap.warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(/^sequence public\.numeracao_pedidos moved from unused to 1 while the check ran: /),
    ]);
    await db.pool.query('drop sequence numeracao_pedidos');
  });

  it('matches the views of the reference profile column for column, with the reference types', async () => {
    const { rows } = await db.pool.query<{ view: string; col: string; type: string }>(
      `select c.relname as view, a.attname as col, format_type(a.atttypid, a.atttypmod) as type
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
         join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
        where n.nspname = 'app' and c.relkind = 'v' order by 1, a.attnum`,
    );
    const actual = new Map<string, string[]>();
    for (const r of rows) actual.set(r.view, [...(actual.get(r.view) ?? []), `${r.col} ${r.type}`]);
    for (const v of VIEW_CONTRACT) {
      if (v.kind === 'view') {
        expect(actual.get(v.name), v.name).toEqual(v.columns.map((c) => `${c.name} ${c.reference}`));
      } else {
        const probe = await db.pool.query(v.probe ?? '');
        const types = await db.pool.query<{ t: string }>(
          'select format_type(o, null) as t from unnest($1::oid[]) with ordinality as x(o, i) order by i',
          [probe.fields.map((f) => f.dataTypeID)],
        );
        expect(
          probe.fields.map((f, i) => `${f.name} ${types.rows[i]?.t}`),
          v.name,
        ).toEqual(v.columns.map((c) => `${c.name} ${c.reference}`));
      }
    }
    const views = sources.repeatables.filter((r) => r.kind === 'view').map((r) => r.name);
    expect(
      VIEW_CONTRACT.filter((v) => v.kind === 'view')
        .map((v) => v.name)
        .sort(),
    ).toEqual(views.sort());
  });

  it('names a renamed column, a wrong type and an untrimmed char(n) column of a view', async () => {
    let edited = replaceRepeatable(sources, 'vw_produtos', (sql) =>
      sql
        .replace("p.ativo = 'S'   as ativo", "p.ativo = 'S'   as ativo_sn")
        .replace('p.dt_alteracao  as atualizado_em', 'p.dt_alteracao::date as atualizado_em')
        .replace("nullif(btrim(p.ean), '') as ean", 'p.ean as ean'),
    );
    edited = replaceRepeatable(edited, 'vw_pautas', (sql) =>
      sql.replace("p.ativo = 'S' as ativo", 'p.ativo::text as ativo'),
    );
    const report = await checkProvisioning(db.pool, { sources: edited });
    expect(report.fit).toBe(false);
    expect(lines(report)).toEqual(
      expect.arrayContaining([
        'views: vw_produtos: column ativo (boolean) is missing; it has ativo_sn, which the contract does not name',
        'views: vw_produtos.atualizado_em is date, expected timestamp (the reference profile has timestamp without time zone)',
        "views: vw_produtos.ean is character(13): its blank padding would reach the API; trim it in the view (nullif(btrim(x), ''))",
        'views: vw_pautas.ativo is text, expected boolean (the reference profile has boolean)',
      ]),
    );
  });

  it('names clients of a representative the views do not have, and products no list prices', async () => {
    let edited = replaceRepeatable(sources, 'vw_clientes', (sql) =>
      sql.replace('       c.cod_vendedor,\n', '       c.cod_vendedor + 1000 as cod_vendedor,\n'),
    );
    edited = replaceRepeatable(edited, 'vw_precos', (sql) =>
      sql.replace(
        'join app.vw_empresas e on e.id_filial = pp.id_empresa;',
        'join app.vw_empresas e on e.id_filial = pp.id_empresa\n where false;',
      ),
    );
    const report = await checkProvisioning(db.pool, { sources: edited });
    expect(lines(report)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^data: vw_clientes: sampled rows name \(id_empresa, cod_vendedor\) = \(\d+, 10\d\d\).*, missing from vw_vendedores$/,
        ),
        expect.stringMatching(
          /^data: none of \d+ sampled active products has a price in vw_precos: nothing could be ordered$/,
        ),
        'data: vw_precos has no rows: Campo would have nothing to show',
        'triggers: not rehearsed: no active client of an active representative, on a price list with a price for an active product',
      ]),
    );
  });

  it('bounds every statement: a view too slow to sample is a line, not a hang', async () => {
    const edited = replaceRepeatable(sources, 'vw_produtos', (sql) =>
      sql.replace(
        '         on s.id_empresa = p.id_empresa and s.cod_grupo = p.cod_grupo and s.cod_subgrupo = p.cod_subgrupo;',
        '         on s.id_empresa = p.id_empresa and s.cod_grupo = p.cod_grupo and s.cod_subgrupo = p.cod_subgrupo\n where pg_sleep(0.05) is not null;',
      ),
    );
    const report = await checkProvisioning(db.pool, { sources: edited, statementTimeoutMs: 1500 });
    expect(lines(report)).toEqual(
      expect.arrayContaining([
        'data: vw_produtos: the sample of 1000 rows failed: did not finish within the statement timeout',
      ]),
    );
    expect(report.durationMs).toBeLessThan(30_000);
  });

  it('names a trigger that writes nothing into the ERP', async () => {
    const edited = replaceRepeatable(sources, 'trg_pedido_aprovado', (sql) =>
      sql.replace(/\nbegin\n[\s\S]*?\nend\n\$fn\$/, '\nbegin\n  return new;\nend\n$fn$'),
    );
    const before = await snapshot(db.pool);
    const report = await checkProvisioning(db.pool, { sources: edited });
    // The provisioned trigger is back, and nothing else moved either.
    expect(await snapshot(db.pool)).toEqual(before);
    expect(lines(report)).toEqual([
      'triggers: trg_pedido_aprovado: the approval left app.pedidos.erp_id_pedido empty; the trigger must write the ERP order and set it',
    ]);
  });

  it('names an order header whose total the trigger writes wrong, and lines it drops', async () => {
    const edited = replaceRepeatable(sources, 'trg_pedido_aprovado', (sql) =>
      sql
        .replace("'A', new.valor_total,", "'A', 0,")
        .replace('   where i.id_pedido = new.id\n', '   where i.id_pedido = new.id and i.seq = 1\n'),
    );
    const report = await checkProvisioning(db.pool, { sources: edited });
    expect(lines(report)).toEqual([
      expect.stringMatching(
        /^triggers: trg_pedido_aprovado: vw_sitpedido\.valor_total of the approved order is 0(\.00)?, expected [\d.]+$/,
      ),
      'triggers: trg_pedido_aprovado: vw_pedidos_erp_itens has 1 lines for the approved order, expected 2',
    ]);
  });

  it('campo provision --check exits 0 on a fit database; --json prints the report alone on stdout', async () => {
    const human = await runCampo(['provision', '--check'], db.url);
    expect(human.stderr).toBe('');
    expect(human.status).toBe(0);
    expect(human.stdout).toMatch(/^sampling the data through the views \(at most 1000 rows each, 30 s per query\)$/m);
    expect(human.stdout.trim().split('\n').at(-1)).toMatch(
      /^Check of campo_test_\w+ \(ERP profile referencia\): fit for Campo, 0 warnings; nothing was changed \(\d+\.\d s\)\.$/,
    );
    const json = await runCampo(['provision', '--check', '--json'], db.url);
    expect(json.status).toBe(0);
    expect(json.stderr).toMatch(/rehearsing the triggers/);
    expect(JSON.parse(json.stdout)).toMatchObject({ fit: true, problems: [], sampleRows: 1000 });
  });
});

describe('campo provision --check on reference data an integrator got wrong', () => {
  const db = useErpDatabase(18);

  it('names a key that is not unique per tenant and a company whose head office is a branch', async () => {
    const { rows } = await db.pool.query<{ branch: number; head: number }>(
      'select id_empresa as branch, id_matriz as head from empresas where id_matriz is not null order by 1 limit 1',
    );
    const { branch, head } = rows[0] ?? { branch: 0, head: 0 };
    // The branch keeps a price list under the head office's id: a tenant then has two prices
    // for the same list and product.
    const { rows: price } = await db.pool.query<{ id_pauta: number; id_produto: number }>(
      'select id_pauta, id_produto from pautas_precos where id_empresa = $1 order by 1, 2 limit 1',
      [head],
    );
    const { id_pauta, id_produto } = price[0] ?? { id_pauta: 0, id_produto: 0 };
    await db.pool.query(
      `insert into pautas (id_empresa, id_pauta, descricao, ativo)
       select $1, id_pauta, descricao, ativo from pautas where id_empresa = $2 and id_pauta = $3
       on conflict do nothing`,
      [branch, head, id_pauta],
    );
    await db.pool.query(
      `insert into pautas_precos (id_empresa, id_pauta, id_produto, preco, dt_alteracao)
       select $1, id_pauta, id_produto, preco, dt_alteracao from pautas_precos
        where id_empresa = $2 and id_pauta = $3 and id_produto = $4`,
      [branch, head, id_pauta, id_produto],
    );
    await db.pool.query(
      `insert into empresas (id_empresa, id_matriz, razao_social, nome_fantasia, cnpj, inscricao_estadual, endereco, cidade, uf, cep)
       values (9999, $1, 'Filial da filial', 'Filial', '99999999000191', 'ISENTO', 'Rua A', 'Campinas', 'SP', '13010000')`,
      [branch],
    );
    const report = await checkProvisioning(db.pool, { sampleRows: 100_000 });
    expect(lines(report)).toEqual(
      expect.arrayContaining([
        `data: vw_precos: key (id_empresa, id_pauta, id_produto) is not unique per tenant: (${head}, ${id_pauta}, ${id_produto}) 2 times`,
        `data: vw_empresas: sampled rows belong to tenant ${branch}, which is no head office of vw_empresas (matriz, id_filial = id_empresa)`,
      ]),
    );
    expect(report.fit).toBe(false);
  });
});

describe('campo provision --check on an ERP that lacks a column', () => {
  const db = useErpDatabase(18);

  it('names the column and exits 3, changing nothing', async () => {
    await db.pool.query('alter table corrent rename column bairro to bairro_cliente');
    const before = await snapshot(db.pool);
    const run = await runCampo(['provision', '--check'], db.url);
    expect(run.status).toBe(3);
    expect(run.stdout.split('\n').filter((l) => /^(problem|warning)/.test(l))).toEqual([
      'problem (erp): missing column public.corrent.bairro (read by vw_clientes)',
      'problem (erp): missing column public.corrent.bairro (written by trg_cliente_novo)',
      'problem (erp): public.corrent has mandatory column bairro_cliente (NOT NULL, no default) that trg_cliente_novo does not fill',
      'warning (erp): views, data and triggers not checked: the views cannot be created over what the ERP lacks',
    ]);
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(
      /^Check of campo_test_\w+ \(ERP profile referencia\): 3 problems, 1 warning; nothing was changed/,
    );
    expect(await snapshot(db.pool)).toEqual(before);
  });
});

describe('campo provision --check on the Odoo-shaped ERP (docs/erp-profile-odoo.md)', () => {
  const db = useErpDatabase(18, { fixture: false });
  beforeAll(async () => {
    await createErpFixture(db.pool, { scale: 'tiny', profile: 'odoo' });
  });

  it('finds the reference profile unfit, the odoo profile fit, and then checks the recorded one', async () => {
    const reference = await runCampo(['provision', '--check'], db.url);
    expect(reference.status).toBe(3);
    expect(reference.stdout).toMatch(/^problem \(erp\): missing table public\.corrent /m);

    const before = await snapshot(db.pool);
    const odoo = await runCampo(['provision', '--check', '--profile', 'odoo', '--json'], db.url);
    expect(odoo.status, odoo.stdout).toBe(0);
    expect(JSON.parse(odoo.stdout)).toMatchObject({ profile: 'odoo', fit: true, problems: [] });
    expect(await snapshot(db.pool)).toEqual(before);

    await provision(db.pool, { profile: 'odoo' });
    const recorded = await checkProvisioning(db.pool);
    expect(recorded.profile).toBe('odoo');
    expect(lines(recorded)).toEqual([]);

    const unknown = await runCampo(['provision', '--check', '--profile', 'sap'], db.url);
    expect(unknown.status).toBe(3);
    expect(unknown.stderr).toMatch(/unknown ERP profile "sap"; the known profiles are referencia, odoo/);
  });
});
