// A database the old system set up: schema app with the 13 tables (no end_entrega on
// orders), its own views and triggers, and no migration records.
import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, dropDatabase } from '../../../test/support/pg.ts';
import { expectedSchema } from '../../../test/support/provisioning.ts';
import { createPool } from '../db/pool.ts';
import { createErpSchema } from '../erp-fixture/schema.ts';
import { catalogSnapshot } from './catalog.ts';
import { ProvisionError } from './errors.ts';
import { provision } from './provision.ts';

// Written the way the old system did it: serial keys, no constraints, no indexes.
const OLD_SYSTEM = `
create schema app;
create table app.pedidos (
  id bigserial primary key, id_empresa integer not null, cod_vendedor integer not null, num_ped_sar integer not null,
  situa smallint not null default 1, id_cliente integer not null, nome_cliente text not null, cnpj_cpf_cliente text,
  id_pauta integer, observacao text, valor_bruto numeric(14,2), valor_desconto numeric(14,2), valor_total numeric(14,2),
  erp_id_pedido integer, motivo_rejeicao text, decidido_por text, decidido_em timestamptz,
  criado_em timestamptz default now(), atualizado_em timestamptz default now());
create table app.pedido_itens (
  id_pedido bigint not null, seq integer not null, id_empresa integer not null, id_produto integer not null,
  cod_produto text, descricao text, categoria text, cod_grupo integer, cod_subgrupo integer, quantidade numeric(14,3),
  preco_tabela numeric(14,4), preco_unitario numeric(14,4), perc_desconto numeric(5,2), teto_desconto numeric(5,2),
  id_regra bigint, id_pauta integer, valor_total numeric(14,2), primary key (id_pedido, seq));
create table app.pedido_status_historico (
  id bigserial primary key, id_pedido bigint, id_empresa integer, situa_de smallint, situa_para smallint,
  usuario text, motivo text, criado_em timestamptz default now());
create table app.clientes_novos (
  id bigserial primary key, id_empresa integer, cod_vendedor integer, tipo_pessoa character(1), razao_social text,
  nome_fantasia text, cnpj_cpf text, inscricao_estadual text, cep text, endereco text, numero text, complemento text,
  bairro text, cidade text, uf character(2), telefone text, email text, id_pauta integer, id_corrent_erp integer,
  sincronizado boolean default false, criado_em timestamptz default now());
create table app.regras_desconto (
  id bigserial primary key, id_empresa integer, descricao text, grupo integer, subgrupo integer, representante integer,
  id_pauta integer, percent numeric(5,2), vigencia_inicio date, vigencia_fim date, promocao boolean, criado_por text,
  criado_em timestamptz, atualizado_em timestamptz);
create table app.config_empresa (
  id_empresa integer primary key, logo text, meta_positivacao_dia integer, atualizado_em timestamptz);
create table app.chamados (
  id bigserial primary key, id_empresa integer, cod_vendedor integer, id_pedido bigint, num_ped_sar integer,
  num_ped_erp integer, nome_cliente text, assunto text, status text, criado_em timestamptz, atualizado_em timestamptz);
create table app.chamado_mensagens (
  id bigserial primary key, id_chamado bigint, id_empresa integer, autor_tipo text, autor_nome text, texto text,
  criado_em timestamptz);
create table app.oportunidades (
  id uuid primary key, id_empresa integer, cod_vendedor integer, id_cliente integer, nome_prospect text,
  empresa_prospect text, id_pedido bigint, estagio text, valor numeric(14,2), previsao_fechamento date,
  observacoes text, motivo_perda text, criado_em timestamptz, atualizado_em timestamptz);
create table app.push_inscricoes (
  id bigserial primary key, id_empresa integer, usuario text, endpoint text unique, p256dh text, auth text,
  user_agent text, criado_em timestamptz);
create table app.metas_representante (
  id_empresa integer, cod_vendedor integer, mes date, valor_meta numeric(14,2), primary key (id_empresa, cod_vendedor, mes));
create table app.limites_desconto_representante (
  id bigserial primary key, id_empresa integer, cod_vendedor integer, categoria text, perc_desc_max numeric(5,2),
  atualizado_em timestamptz);
create table app.limites_credito (
  id_empresa integer, id_cliente integer, limite numeric(14,2), atualizado_por text, atualizado_em timestamptz,
  primary key (id_empresa, id_cliente));
-- the old system's own columns, views and trigger
alter table app.pedidos add column legado_flag text;
create view app.vw_sitpedido as select id_pedido, situacao from public.pedidos_venda;
create function app.old_aprovado() returns trigger language plpgsql as $$ begin return new; end $$;
create trigger trg_pedido_aprovado before update on app.pedidos for each row execute function app.old_aprovado();
insert into app.pedidos (id_empresa, cod_vendedor, num_ped_sar, id_cliente, nome_cliente, valor_total)
  values (1, 7, 41, 100, 'Cliente antigo', 99.90);
`;

describe('baseline of a schema app made by the old system', () => {
  const made: { name: string; pool: pg.Pool }[] = [];
  async function oldSystemDatabase(sql = OLD_SYSTEM): Promise<pg.Pool> {
    const db = await createDatabase();
    const pool = createPool(db.url, 3);
    made.push({ name: db.name, pool });
    await createErpSchema(pool);
    await pool.query(sql);
    return pool;
  }
  afterEach(async () => {
    for (const m of made.splice(0)) {
      await m.pool.end();
      await dropDatabase(m.name);
    }
  });

  it('records 0001 as baseline, adds end_entrega, creates the views and triggers, and keeps the data', async () => {
    const pool = await oldSystemDatabase();
    const lines: string[] = [];
    const report = await provision(pool, { log: (l) => lines.push(l) });
    expect(report.mode).toBe('baseline');
    expect(report.actions.map((a) => `${a.type} ${a.name}`).slice(0, 3)).toEqual([
      'bootstrap app',
      'baseline 0001_app_schema',
      'migration 0002_end_entrega',
    ]);
    expect(lines).toContain('recorded 0001_app_schema as baseline of the existing schema app');
    const expected = await expectedSchema();
    expect(report.counts).toMatchObject({
      tables: expected.tables,
      views: expected.views,
      triggers: expected.triggers,
    });

    const recorded = await pool.query('select version, kind from app.schema_migrations order by version');
    expect(recorded.rows.slice(0, 2)).toEqual([
      { version: '0001', kind: 'baseline' },
      { version: '0002', kind: 'migration' },
    ]);
    const col = await pool.query(
      "select data_type from information_schema.columns where table_schema = 'app' and table_name = 'pedidos' and column_name = 'end_entrega'",
    );
    expect(col.rows).toEqual([{ data_type: 'text' }]);
    // The old order and the old system's own column are still there.
    const old = await pool.query('select num_ped_sar, nome_cliente, legado_flag, end_entrega from app.pedidos');
    expect(old.rows).toEqual([
      { num_ped_sar: 41, nome_cliente: 'Cliente antigo', legado_flag: null, end_entrega: null },
    ]);
    // The old view was replaced by Campo's, and the old trigger by trg_pedido_aprovado.
    const cols = await pool.query('select * from app.vw_sitpedido where false');
    expect(cols.fields.map((f) => f.name)).toContain('situacao_descricao');
    const trigger = await pool.query(
      "select pg_get_triggerdef(oid) as def from pg_trigger where tgname = 'trg_pedido_aprovado'",
    );
    expect(trigger.rows[0].def).toMatch(/app\.fn_pedido_aprovado\(\)/);

    const again = await provision(pool);
    expect(again.upToDate).toBe(true);
  });

  it('says exactly what differs and changes nothing when the tables are not the verified setup', async () => {
    const pool = await oldSystemDatabase(
      OLD_SYSTEM.replace('situa smallint not null default 1', 'situa integer not null default 1')
        .replace(/create table app\.chamado_mensagens \([^;]*;/, '')
        .replace('tipo_pessoa character(1), ', ''),
    );
    const before = await catalogSnapshot(pool);
    const err = await provision(pool).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProvisionError);
    expect((err as ProvisionError).exitCode).toBe(4);
    const message = (err as ProvisionError).message;
    expect(message).toContain('column app.pedidos.situa is integer, expected smallint');
    expect(message).toContain('table app.chamado_mensagens is missing');
    expect(message).toContain('column app.clientes_novos.tipo_pessoa (character(1)) is missing');
    expect(message).not.toContain('end_entrega');
    expect(message.split('\n')).toHaveLength(4);
    expect(await catalogSnapshot(pool)).toEqual(before);
    const bookkeeping = await pool.query("select to_regclass('app.schema_migrations') as t");
    expect(bookkeeping.rows[0].t).toBeNull();
  });

  it('refuses to drop a view of the old system that selects from a view Campo must recreate', async () => {
    const pool = await oldSystemDatabase(
      `${OLD_SYSTEM}\ncreate view public.relatorio_pedidos as select id_pedido from app.vw_sitpedido;`,
    );
    const err = await provision(pool).catch((e: unknown) => e);
    expect((err as ProvisionError).exitCode).toBe(4);
    expect((err as ProvisionError).message).toMatch(/view public\.relatorio_pedidos selects from app\.vw_sitpedido/);
    const bookkeeping = await pool.query("select to_regclass('app.schema_migrations') as t");
    expect(bookkeeping.rows[0].t).toBeNull();
  });
});
