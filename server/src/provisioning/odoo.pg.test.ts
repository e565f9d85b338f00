// The odoo profile (sql/erp-profiles/odoo) on the Odoo-like reference ERP, next to the
// reference profile on the reference ERP filled with the same data: provisioning selects and
// remembers the profile, every app view has the same columns and the same figures on both,
// and the triggers write Odoo's tables.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearForOrders, owesOverdueBoleto, partlyInvoiced } from '../../../test/support/erp.ts';
import { createDatabase, dropDatabase } from '../../../test/support/pg.ts';
import { collectLog, insertPendingOrder, orderScenario, viewErpColumns } from '../../../test/support/provisioning.ts';
import { createDb } from '../db/kysely.ts';
import { createErpFixture } from '../erp-fixture/generate.ts';
import { writeProductImages } from '../erp-fixture/images.ts';
import { invoiceOrderInErp } from '../erp-fixture/invoicing.ts';
import { provision } from './provision.ts';
import { loadSqlSources } from './sources.ts';

const AS_OF = new Date();

function useFixture(profile: 'referencia' | 'odoo') {
  const handle = { pool: undefined as unknown as pg.Pool, name: '' };
  beforeAll(async () => {
    const db = await createDatabase();
    handle.name = db.name;
    // The session's wall clock is Sao Paulo's, as the API sets it: Odoo's UTC datetimes and the
    // reference ERP's local ones then read alike.
    handle.pool = new pg.Pool({ connectionString: db.url, max: 4, options: '-c TimeZone=America/Sao_Paulo' });
    handle.pool.on('error', () => undefined);
    await createErpFixture(handle.pool, { scale: 'tiny', asOf: AS_OF, profile });
  });
  afterAll(async () => {
    await handle.pool?.end();
    if (handle.name) await dropDatabase(handle.name);
  });
  return handle;
}

describe('the odoo profile', () => {
  const odoo = useFixture('odoo');
  const reference = useFixture('referencia');

  it('is refused where the ERP is not Odoo-shaped, naming what is missing, and nothing changes', async () => {
    const err = await provision(reference.pool, { profile: 'odoo' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ exitCode: 3 });
    expect((err as Error).message).toMatch(/missing table public\.res_partner \(used by .*vw_clientes/);
    const app = await reference.pool.query("select to_regnamespace('app') is null as none");
    expect(app.rows[0].none).toBe(true);
  });

  it('refuses an unknown profile, listing the known ones', async () => {
    const err = await provision(odoo.pool, { profile: 'sap' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ exitCode: 3 });
    expect((err as Error).message).toBe(
      'unknown ERP profile "sap"; the known profiles are referencia, odoo; nothing was changed',
    );
  });

  it('provisions with --profile odoo, and a later run without it keeps the profile', async () => {
    const first = await provision(odoo.pool, { profile: 'odoo' });
    expect(first).toMatchObject({ upToDate: false, mode: 'fresh', profile: 'odoo' });
    const recorded = await odoo.pool.query('select perfil from app.perfil_erp');
    expect(recorded.rows).toEqual([{ perfil: 'odoo' }]);
    const { lines, log } = collectLog();
    const second = await provision(odoo.pool, { log });
    expect(second).toMatchObject({ upToDate: true, profile: 'odoo', actions: [] });
    expect(lines).toEqual([]);
    await provision(reference.pool);
  });

  it('switching back to the reference profile on the Odoo ERP is refused by the contract check', async () => {
    const err = await provision(odoo.pool, { profile: 'referencia' }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/missing table public\.corrent/);
    const recorded = await odoo.pool.query('select perfil from app.perfil_erp');
    expect(recorded.rows).toEqual([{ perfil: 'odoo' }]);
  });

  it('gives every app view the same columns, of the same types, as the reference profile', async () => {
    const columns = async (pool: pg.Pool) =>
      (
        await pool.query<{ view: string; column: string; type: string }>(
          `select c.table_name as view, c.column_name as column,
                  case when c.data_type in ('character varying', 'character', 'text') then 'text'
                       else c.data_type end as type
             from information_schema.columns c join information_schema.views v
               on v.table_schema = c.table_schema and v.table_name = c.table_name
            where c.table_schema = 'app' order by 1, c.ordinal_position`,
        )
      ).rows;
    expect(await columns(odoo.pool)).toEqual(await columns(reference.pool));
  });

  it('declare exactly the Odoo columns they read, and expose no char(n) column', async () => {
    const sources = await loadSqlSources(undefined, 'odoo');
    for (const v of sources.repeatables.filter((r) => r.kind === 'view')) {
      const declared = v.erp.flatMap((req) => req.columns.map((c) => `${req.table}.${c}`));
      expect([...new Set(declared)].sort(), v.name).toEqual(await viewErpColumns(odoo.pool, v.name));
    }
    const padded = await odoo.pool.query(
      `select table_name, column_name from information_schema.columns
        where table_schema = 'app' and table_name like 'vw\\_%' and data_type = 'character'`,
    );
    expect(padded.rows).toEqual([]);
  });

  it('maps the same data onto the same figures in every view', async () => {
    const figures = async (pool: pg.Pool) => {
      // Arrays, not objects: several columns share a name (count, sum).
      const one = async (sql: string) => (await pool.query({ text: sql, rowMode: 'array' })).rows;
      return {
        empresas: await one(
          "select count(*), count(*) filter (where matriz), string_agg(cnpj || uf || cep, ',' order by id_filial) from app.vw_empresas",
        ),
        vendedores: await one(
          'select count(*), sum(perc_desc_max), sum(perc_comissao), count(distinct (id_empresa, cod_supervisor)), count(*) filter (where ativo) from app.vw_vendedores',
        ),
        supervisores: await one("select count(*), string_agg(nome, ',' order by nome) from app.vw_supervisores"),
        limites: await one(
          "select count(*), sum(perc_desc_max), string_agg(distinct categoria, ',') from app.vw_vendedor_limites",
        ),
        clientes: await one(
          `select count(*), status_financeiro, sum(valor_em_aberto), sum(valor_vencido), max(dias_atraso_max),
                  count(end_entrega), count(ultimo_pedido_em), max(ultimo_pedido_em), string_agg(left(cnpj_cpf, 3), '' order by razao_social)
             from app.vw_clientes group by status_financeiro order by 2`,
        ),
        produtos: await one(
          "select count(*), count(*) filter (where ativo), count(ean), sum(peso_kg), string_agg(distinct categoria, ','), count(distinct (id_empresa, cod_grupo)), count(distinct (id_empresa, cod_grupo, cod_subgrupo)) from app.vw_produtos",
        ),
        grupos: await one("select count(*), string_agg(descricao, ',' order by descricao) from app.vw_grupos_produto"),
        subgrupos: await one(
          "select count(*), string_agg(descricao, ',' order by descricao) from app.vw_subgrupos_produto",
        ),
        precos: await one('select count(*), sum(preco) from app.vw_precos'),
        pautas: await one("select count(*), string_agg(descricao, ',' order by descricao) from app.vw_pautas"),
        estoque: await one('select count(*), sum(quantidade) from app.vw_estoque'),
        produtosFiscal: await one(
          "select count(*), string_agg(concat_ws(':', id_produto, ncm, cest, origem, perc_ipi, atualizado_em), ',' order by id_produto) from app.vw_produtos_fiscal",
        ),
        clientesFiscal: await one(
          'select regime, contribuinte_icms, simples_nacional, consumidor_final, count(*), sum(id_cliente) from app.vw_clientes_fiscal group by 1, 2, 3, 4 order by 1',
        ),
        regrasFiscais: await one(
          `select id_regra, id_empresa, id_filial, ncm, uf_origem, uf_destino, regime, aliq_icms, icms_st, mva,
                  aliq_icms_destino, perc_fcp, perc_fcp_st, perc_reducao_base, atualizado_em
             from app.vw_regras_fiscais order by id_regra`,
        ),
        condicoes: await one('select count(*), count(*) filter (where ativo) from app.vw_condicoes_pagamento'),
        clientesCondicoes: await one('select count(*), count(distinct id_cliente) from app.vw_clientes_condicoes'),
        sitpedido: await one(
          'select situacao, count(*), sum(valor_total), min(dt_emissao), max(dt_emissao), sum(num_pedido), count(num_ped_sar), count(end_entrega) from app.vw_sitpedido group by 1 order by 1',
        ),
        pedidosCliente: await one(
          'select status, count(*), sum(valor_total) from app.vw_pedidos_cliente group by 1 order by 1',
        ),
        itens: await one(
          'select count(*), sum(quantidade), sum(valor_total), sum(preco_unitario), count(cod_produto) from app.vw_pedidos_erp_itens',
        ),
        positivacao: await one(
          'select count(*), sum(clientes_positivados), sum(pedidos), min(dia), max(dia) from app.vw_positivacao_dia',
        ),
        faturamento: await one(
          'select mes, sum(valor_faturado), sum(notas), sum(clientes) from app.vw_faturamento_mes group by 1 order by 1',
        ),
        notasPedido: await one(
          'select count(*), count(*) filter (where cancelada), sum(valor_total), sum(num_nota) from app.vw_notas_pedido',
        ),
        titulosAbertos: await one(
          'select count(*), sum(valor_em_aberto), sum(dias_atraso), count(id_nota) from app.vw_titulos_abertos',
        ),
        titulosCliente: await one(
          'select count(*), count(*) filter (where pago), max(dt_pagamento), sum(valor_pago) from app.vw_titulos_cliente',
        ),
        notasItens: await one(
          'select count(*), sum(quantidade), sum(valor_total) from app.notas_itens_erp((select array_agg(id_nota::bigint) from app.vw_notas_pedido))',
        ),
        visitas: await one(
          'select count(*), sum(dia_semana), sum(intervalo_semanas) from app.dias_visita_erp((select array_agg(id_cliente) from app.vw_clientes))',
        ),
        posicoes: await one(
          'select count(*), sum(latitude) from app.posicao_clientes_erp((select array_agg(id_cliente) from app.vw_clientes))',
        ),
      };
    };
    const [o, r] = [await figures(odoo.pool), await figures(reference.pool)];
    expect(o).toEqual(r);
  });

  it('writes an approved order into sale_order and sale_order_line, named from ir_sequence', async () => {
    const s = await orderScenario(odoo.pool);
    const seq = await odoo.pool.query<{ number_next: number; company_id: number }>(
      `select s.number_next, s.company_id from ir_sequence s join res_users u on u.company_id = s.company_id
        where s.code = 'sale.order' and u.id = $1`,
      [s.codVendedor],
    );
    const next = seq.rows[0]?.number_next ?? 0;
    const id = await insertPendingOrder(odoo.pool, s, {
      endEntrega: 'Rua Sao Joao, 1000 - Centro',
      observacao: 'Entregar\tcedo',
    });
    await odoo.pool.query('update app.pedidos set situa = 2 where id = $1 and situa = 1', [id]);

    const order = (
      await odoo.pool.query(
        'select num_ped_sar, id_cliente, id_pauta, valor_total, erp_id_pedido, criado_em from app.pedidos where id = $1',
        [id],
      )
    ).rows[0];
    const so = (await odoo.pool.query('select * from sale_order where id = $1', [order.erp_id_pedido])).rows[0];
    expect(so).toMatchObject({
      name: `S${String(next).padStart(5, '0')}`,
      company_id: seq.rows[0]?.company_id,
      partner_id: order.id_cliente,
      user_id: s.codVendedor,
      pricelist_id: order.id_pauta,
      state: 'sale',
      invoice_status: 'to invoice',
      amount_total: order.valor_total,
      origin: 'CAMPO',
      client_order_ref: String(order.num_ped_sar),
      note: 'Entregar cedo',
      x_endereco_entrega: 'Rua Sao Joao, 1000 - Centro',
    });
    expect(so.team_id).toEqual(expect.any(Number));
    // Odoo keeps UTC: the naive date_order is the moment the client placed the order, in UTC.
    const utc = await odoo.pool.query(
      `select (so.date_order at time zone 'UTC') = p.criado_em as same
         from app.pedidos p join sale_order so on so.id = p.erp_id_pedido where p.id = $1`,
      [id],
    );
    expect(utc.rows[0].same).toBe(true);
    const after = await odoo.pool.query('select number_next from ir_sequence where company_id = $1 and code = $2', [
      seq.rows[0]?.company_id,
      'sale.order',
    ]);
    expect(after.rows[0].number_next).toBe(next + 1);

    const lines = await odoo.pool.query(
      `select l.sequence, l.product_id, l.name, l.product_uom_qty, l.price_unit, l.discount, l.price_reduce, l.price_subtotal
         from sale_order_line l where l.order_id = $1 order by l.sequence`,
      [order.erp_id_pedido],
    );
    const items = await odoo.pool.query(
      `select seq as sequence, id_produto as product_id, descricao as name, quantidade as product_uom_qty,
              preco_tabela as price_unit, perc_desconto as discount, preco_unitario as price_reduce,
              valor_total as price_subtotal
         from app.pedido_itens where id_pedido = $1 order by seq`,
      [id],
    );
    expect(lines.rows).toHaveLength(2);
    expect(lines.rows).toEqual(items.rows);
    // And Campo reads the replica back through the views: one order, approved, with its ERP number.
    const seen = await odoo.pool.query(
      "select status, num_pedido_erp from app.vw_pedidos_cliente where origem = 'campo' and id_pedido = $1",
      [id],
    );
    expect(seen.rows).toEqual([{ status: 'approved', num_pedido_erp: next }]);
    const sit = await odoo.pool.query(
      'select situacao, origem, num_ped_sar from app.vw_sitpedido where id_pedido = $1',
      [order.erp_id_pedido],
    );
    expect(sit.rows).toEqual([{ situacao: 'A', origem: 'CAMPO', num_ped_sar: order.num_ped_sar }]);
  });

  it('gives concurrent approvals distinct order names from the one sequence row', async () => {
    const s = await orderScenario(odoo.pool);
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(await insertPendingOrder(odoo.pool, s));
    const before = await odoo.pool.query<{ n: number }>(
      "select sum(number_next)::int as n from ir_sequence where code = 'sale.order'",
    );
    await Promise.all(ids.map((id) => odoo.pool.query('update app.pedidos set situa = 2 where id = $1', [id])));
    const names = await odoo.pool.query<{ name: string }>(
      'select so.name from app.pedidos p join sale_order so on so.id = p.erp_id_pedido where p.id = any($1)',
      [ids],
    );
    expect(new Set(names.rows.map((r) => r.name)).size).toBe(6);
    const after = await odoo.pool.query<{ n: number }>(
      "select sum(number_next)::int as n from ir_sequence where code = 'sale.order'",
    );
    expect(after.rows[0]?.n).toBe((before.rows[0]?.n ?? 0) + 6);
  });

  it('rolls the approval back when Odoo refuses a line, and no order name is used up', async () => {
    const s = await orderScenario(odoo.pool);
    const id = await insertPendingOrder(odoo.pool, s, { extraItem: 99_999_999 });
    const before = await odoo.pool.query(
      "select sum(number_next)::int as n from ir_sequence where code = 'sale.order'",
    );
    await expect(odoo.pool.query('update app.pedidos set situa = 2 where id = $1', [id])).rejects.toThrow(
      /sale_order_line/,
    );
    expect((await odoo.pool.query('select situa, erp_id_pedido from app.pedidos where id = $1', [id])).rows[0]).toEqual(
      {
        situa: 1,
        erp_id_pedido: null,
      },
    );
    const after = await odoo.pool.query("select sum(number_next)::int as n from ir_sequence where code = 'sale.order'");
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('turns a new client into a customer partner, and refuses one registered already', async () => {
    const s = await orderScenario(odoo.pool);
    const { rows } = await odoo.pool.query(
      `insert into app.clientes_novos (id_empresa, cod_vendedor, tipo_pessoa, razao_social, cnpj_cpf, cep, endereco,
                                       bairro, cidade, uf, id_pauta)
       values ($1, $2, 'J', 'Mercearia Conceição Ltda', '12345678000195', '01310100', 'Avenida Paulista',
               'Bela Vista', 'São Paulo', 'sp', $3)
       returning id_corrent_erp, sincronizado`,
      [s.idEmpresa, s.codVendedor, s.idPauta],
    );
    expect(rows[0].sincronizado).toBe(true);
    const partner = (await odoo.pool.query('select * from res_partner where id = $1', [rows[0].id_corrent_erp]))
      .rows[0];
    expect(partner).toMatchObject({
      name: 'Mercearia Conceição Ltda',
      x_nome_fantasia: 'Mercearia Conceição Ltda',
      is_company: true,
      customer_rank: 1,
      supplier_rank: 0,
      vat: '12.345.678/0001-95',
      zip: '01310-100',
      l10n_br_ie_code: 'ISENTO',
      street_number: 'S/N',
      user_id: s.codVendedor,
      property_product_pricelist: s.idPauta,
      x_origem: 'CAMPO',
      x_bloqueio_financeiro: 'N',
      active: true,
    });
    const client = await odoo.pool.query(
      'select cnpj_cpf, cep, uf, tipo_pessoa, status_financeiro, cod_vendedor from app.vw_clientes where id_cliente = $1',
      [rows[0].id_corrent_erp],
    );
    expect(client.rows).toEqual([
      {
        cnpj_cpf: '12345678000195',
        cep: '01310100',
        uf: 'SP',
        tipo_pessoa: 'J',
        status_financeiro: 'ok',
        cod_vendedor: s.codVendedor,
      },
    ]);
    await expect(
      odoo.pool.query(
        `insert into app.clientes_novos (id_empresa, cod_vendedor, tipo_pessoa, razao_social, cnpj_cpf, cep, endereco,
                                         bairro, cidade, uf)
         values ($1, $2, 'J', 'Outra', '12.345.678/0001-95', '01310100', 'Rua A', 'Centro', 'Cidade', 'SP')`,
        [s.idEmpresa, s.codVendedor],
      ),
    ).rejects.toThrow(/already registered in the ERP \(res_partner \d+\)/);
  });

  it('draws the same product photos from the Odoo ERP as from the reference (erp-fixture --images)', async () => {
    const dirs = [await mkdtemp(join(tmpdir(), 'campo-odoo-')), await mkdtemp(join(tmpdir(), 'campo-ref-'))];
    try {
      const [o, r] = [
        await writeProductImages(odoo.pool, dirs[0] as string),
        await writeProductImages(reference.pool, dirs[1] as string),
      ];
      expect(o.written).toBeGreaterThan(0);
      expect(o.written).toBe(r.written);
      const files = await readdir(join(dirs[0] as string, 'produtos'));
      expect(files).toEqual(await readdir(join(dirs[1] as string, 'produtos')));
      const first = files[0] as string;
      expect(await readFile(join(dirs[0] as string, 'produtos', first))).toEqual(
        await readFile(join(dirs[1] as string, 'produtos', first)),
      );
    } finally {
      for (const d of dirs) await rm(d, { recursive: true, force: true });
    }
  });

  it("gives the test helpers' ERP writes the same meaning on both: a paid client, an overdue boleto, a partial invoice", async () => {
    const seen = async (pool: pg.Pool) => {
      const s = await orderScenario(pool);
      await clearForOrders(pool, s.idCliente);
      const cleared = await pool.query(
        'select status_financeiro, valor_em_aberto from app.vw_clientes where id_cliente = $1',
        [s.idCliente],
      );
      await owesOverdueBoleto(pool, s.idCliente, 'BOL-77');
      const owing = await pool.query(
        `select c.status_financeiro, c.valor_vencido, c.dias_atraso_max, t.num_documento, t.valor, t.valor_pago,
                t.dias_atraso, t.pago, t.id_nota, t.dt_vencimento::text
           from app.vw_clientes c join app.vw_titulos_cliente t on t.id_cliente = c.id_cliente
          where c.id_cliente = $1 and t.num_documento = 'BOL-77'`,
        [s.idCliente],
      );
      await clearForOrders(pool, s.idCliente);
      const id = await insertPendingOrder(pool, { ...s, products: s.products.slice(0, 1) });
      await pool.query('update app.pedidos set situa = 2 where id = $1', [id]);
      await partlyInvoiced(pool, id, 5002);
      const notas = await pool.query(
        `select n.num_nota, n.serie, n.cancelada, n.valor_total, n.dt_emissao::text
           from app.vw_notas_pedido n join app.pedidos p on p.erp_id_pedido = n.id_pedido
          where p.id = $1 order by n.num_nota`,
        [id],
      );
      const itens = await pool.query(
        `select i.seq, i.id_produto, i.quantidade, i.valor_unitario, i.valor_total
           from app.notas_itens_erp((select array_agg(n.id_nota::bigint) from app.vw_notas_pedido n
                                       join app.pedidos p on p.erp_id_pedido = n.id_pedido where p.id = $1)) i
          order by i.valor_total, i.seq`,
        [id],
      );
      const status = await pool.query(
        "select status from app.vw_pedidos_cliente where origem = 'campo' and id_pedido = $1",
        [id],
      );
      return {
        cleared: cleared.rows,
        owing: owing.rows,
        notas: notas.rows,
        itens: itens.rows,
        status: status.rows,
      };
    };
    const [o, r] = [await seen(odoo.pool), await seen(reference.pool)];
    expect(r.owing).toHaveLength(1);
    expect(r.notas).toHaveLength(2);
    expect(o).toEqual(r);
  });

  it("plays the ERP's invoicing for the demo alike on both: in full, and in part", async () => {
    const seen = async (pool: pg.Pool) => {
      const s = await orderScenario(pool);
      await clearForOrders(pool, s.idCliente);
      const db = createDb(pool);
      const out = [];
      for (const part of [false, true]) {
        const id = await insertPendingOrder(pool, s);
        await pool.query('update app.pedidos set situa = 2 where id = $1', [id]);
        await invoiceOrderInErp(db, id, part);
        const notas = await pool.query(
          `select n.num_nota, n.serie, n.cancelada, n.valor_total, n.dt_emissao::text, i.seq, i.id_produto,
                  i.quantidade, i.valor_unitario, i.valor_total as valor_item
             from app.vw_notas_pedido n join app.pedidos p on p.erp_id_pedido = n.id_pedido
             join lateral app.notas_itens_erp(array[n.id_nota::bigint]) i on true
            where p.id = $1 order by i.seq`,
          [id],
        );
        const status = await pool.query(
          "select status from app.vw_pedidos_cliente where origem = 'campo' and id_pedido = $1",
          [id],
        );
        out.push({ notas: notas.rows, status: status.rows });
      }
      return out;
    };
    const [o, r] = [await seen(odoo.pool), await seen(reference.pool)];
    expect(r[0]?.status).toEqual([{ status: 'invoiced' }]);
    expect(r[1]?.notas).toHaveLength(2);
    expect(o).toEqual(r);
  });
});
