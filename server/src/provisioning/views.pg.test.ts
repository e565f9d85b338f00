// The 26 views on the tiny reference ERP. Expectations are computed here from the raw ERP
// tables, never copied from the views' own SQL, so a wrong join or rule shows up.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  insertPendingOrder,
  orderScenario,
  useErpDatabase,
  viewErpColumns,
} from '../../../test/support/provisioning.ts';
import { provision } from './provision.ts';
import { loadSqlSources } from './sources.ts';

const db = useErpDatabase(18);

/** Tenant of each ERP company: the head office itself, or the one a branch points to. */
async function tenantOf(): Promise<Map<number, number>> {
  const { rows } = await db.pool.query<{ id_empresa: number; id_matriz: number | null }>(
    'select id_empresa, id_matriz from empresas',
  );
  return new Map(rows.map((r) => [r.id_empresa, r.id_matriz ?? r.id_empresa]));
}

const byKey =
  <T>(key: (row: T) => string) =>
  (a: T, b: T) =>
    key(a).localeCompare(key(b));

describe('the views over the tiny reference ERP', () => {
  beforeAll(async () => {
    await provision(db.pool);
  });

  it('are 26, each selectable, and each ERP-backed one returns rows', async () => {
    const sources = await loadSqlSources();
    const views = sources.repeatables.filter((r) => r.kind === 'view');
    expect(views).toHaveLength(26);
    for (const v of views) {
      const { rows } = await db.pool.query(`select * from app.${v.name} limit 1`);
      // Rules in force and Campo-only data are empty until the service writes them.
      if (!['vw_regras_vigentes'].includes(v.name)) expect(rows, v.name).toHaveLength(1);
    }
  });

  it("expose no char(n) column: the ERP's blank padding never reaches the API", async () => {
    // Every column of every view, whatever the view: a char(n) one comes back blank-padded
    // (uf "  ", cep "        ") unless the view trims it.
    const { rows } = await db.pool.query<{ view: string; col: string }>(
      `select table_name as view, column_name as col from information_schema.columns
        where table_schema = 'app' and table_name like 'vw\\_%' and data_type = 'character'
        order by 1, 2`,
    );
    expect(rows).toEqual([]);
    // And the padded values an ERP keeps for a blank address come back null, not blanks.
    const { rows: blank } = await db.pool.query<{ id: number }>(
      "update corrent set uf = '  ', cep = '        ', endereco = '' where id_corrent = (select min(id_corrent) from corrent where tipo = 'C') returning id_corrent as id",
    );
    const row = await db.pool.query('select uf, cep, end_entrega from app.vw_clientes where id_cliente = $1', [
      blank[0]?.id,
    ]);
    expect(row.rows[0]).toEqual({ uf: null, cep: null, end_entrega: null });
  });

  it('declare exactly the ERP columns they read (the contract in their headers is exact)', async () => {
    const sources = await loadSqlSources();
    for (const v of sources.repeatables.filter((r) => r.kind === 'view')) {
      const declared = v.erp.flatMap((req) => req.columns.map((c) => `${req.table}.${c}`));
      expect([...new Set(declared)].sort(), v.name).toEqual(await viewErpColumns(db.pool, v.name));
    }
  });

  it('vw_sitpedido gives every ERP order with its tenant and situation', async () => {
    const tenant = await tenantOf();
    const raw = await db.pool.query(
      'select id_pedido, id_empresa, num_pedido, num_ped_sar, id_corrent, cod_vendedor, situacao, valor_total, origem from pedidos_venda',
    );
    const words: Record<string, string> = { A: 'aberto', F: 'faturado', C: 'cancelado' };
    const expected = raw.rows
      .map((r) => ({
        id_pedido: r.id_pedido,
        id_empresa: tenant.get(r.id_empresa),
        id_filial: r.id_empresa,
        num_pedido: r.num_pedido,
        num_ped_sar: r.num_ped_sar,
        id_corrent: r.id_corrent,
        cod_vendedor: r.cod_vendedor,
        situacao: r.situacao,
        situacao_descricao: words[r.situacao],
        valor_total: r.valor_total,
        origem: r.origem,
      }))
      .sort(byKey((r) => String(r.id_pedido).padStart(12, '0')));
    const view = await db.pool.query(
      `select id_pedido, id_empresa, id_filial, num_pedido, num_ped_sar, id_corrent, cod_vendedor, situacao,
              situacao_descricao, valor_total, origem
         from app.vw_sitpedido order by id_pedido`,
    );
    expect(view.rows).toEqual(expected);
    expect(new Set(expected.map((r) => r.situacao))).toEqual(new Set(['A', 'F', 'C']));
  });

  it("give the payment terms per tenant, each client's default and the terms a client is restricted to", async () => {
    const tenant = await tenantOf();
    const raw = await db.pool.query('select id_empresa, id_condicao, descricao, ativo from condicoes_pagamento');
    const terms = await db.pool.query(
      'select id_empresa, id_filial, id_condicao, descricao, ativo from app.vw_condicoes_pagamento',
    );
    const key = (r: { id_filial: number; id_condicao: number }) => `${r.id_filial}/${r.id_condicao}`;
    expect(terms.rows.sort(byKey(key))).toEqual(
      raw.rows
        .map((r) => ({
          id_empresa: tenant.get(r.id_empresa),
          id_filial: r.id_empresa,
          id_condicao: r.id_condicao,
          descricao: r.descricao,
          ativo: r.ativo === 'S',
        }))
        .sort(byKey(key)),
    );
    // Both kinds exist in the reference ERP, and accented names come through ('À vista').
    expect(new Set(terms.rows.map((r) => r.ativo))).toEqual(new Set([true, false]));
    expect(terms.rows.map((r) => r.descricao)).toContain('À vista');

    const restricted = await db.pool.query(
      'select cc.id_corrent, c.id_empresa, cc.id_condicao from corrent_condicoes cc join corrent c using (id_corrent)',
    );
    expect(restricted.rows.length).toBeGreaterThan(0);
    const view = await db.pool.query('select id_empresa, id_cliente, id_condicao from app.vw_clientes_condicoes');
    const k2 = (r: { id_cliente: number; id_condicao: number }) => `${r.id_cliente}/${r.id_condicao}`;
    expect(view.rows.sort(byKey(k2))).toEqual(
      restricted.rows
        .map((r) => ({ id_empresa: tenant.get(r.id_empresa), id_cliente: r.id_corrent, id_condicao: r.id_condicao }))
        .sort(byKey(k2)),
    );
    const defaults = await db.pool.query(
      `select count(*)::int as n from app.vw_clientes v join corrent c on c.id_corrent = v.id_cliente
        where v.id_condicao is distinct from c.id_condicao`,
    );
    expect(defaults.rows[0]?.n).toBe(0);
  });

  it('vw_clientes applies the ok / overdue / blocked rule to the open titles', async () => {
    const tenant = await tenantOf();
    const today = (await db.pool.query<{ d: string }>('select current_date::text as d')).rows[0]?.d as string;
    const dayMs = 86_400_000;
    const daysLate = (due: string) => Math.round((Date.parse(today) - Date.parse(due)) / dayMs);
    const clients = await db.pool.query<{ id_corrent: number; id_empresa: number; situacao: string }>(
      "select id_corrent, id_empresa, situacao from corrent where tipo = 'C'",
    );
    const titles = await db.pool.query<{ id_corrent: number; due: string; valor: string; valor_pago: string }>(
      "select id_corrent, to_char(dt_vencimento, 'YYYY-MM-DD') as due, valor::text, valor_pago::text from titulos_receber",
    );
    const cents = (v: string) => Math.round(Number(v) * 100);
    const expected = clients.rows.map((c) => {
      const open = titles.rows.filter((t) => t.id_corrent === c.id_corrent && cents(t.valor_pago) < cents(t.valor));
      const late = open.filter((t) => daysLate(t.due) > 0);
      const maxLate = Math.max(0, ...late.map((t) => daysLate(t.due)));
      const sum = (ts: typeof open) => ts.reduce((s, t) => s + cents(t.valor) - cents(t.valor_pago), 0);
      return {
        id_cliente: c.id_corrent,
        id_empresa: tenant.get(c.id_empresa),
        valor_em_aberto: (sum(open) / 100).toFixed(2),
        valor_vencido: (sum(late) / 100).toFixed(2),
        dias_atraso_max: maxLate,
        status_financeiro: c.situacao === 'B' || maxLate > 30 ? 'blocked' : late.length > 0 ? 'overdue' : 'ok',
      };
    });
    const view = await db.pool.query(
      'select id_cliente, id_empresa, valor_em_aberto, valor_vencido, dias_atraso_max, status_financeiro from app.vw_clientes',
    );
    const order = byKey<{ id_cliente: number }>((r) => String(r.id_cliente).padStart(12, '0'));
    expect(view.rows.sort(order)).toEqual(expected.sort(order));
    // The data must exercise the rule, or this test proves little.
    expect(new Set(expected.map((r) => r.status_financeiro)).size).toBeGreaterThanOrEqual(2);
  });

  it('vw_faturamento_mes sums the non-cancelled invoices per tenant, rep and month', async () => {
    const tenant = await tenantOf();
    const raw = await db.pool.query<{
      id_empresa: number;
      cod_vendedor: number;
      mes: string;
      valor: string;
      cancelada: string;
    }>(
      "select id_empresa, cod_vendedor, to_char(dt_emissao, 'YYYY-MM-01') as mes, valor_total::text as valor, cancelada from notas_fiscais",
    );
    const sums = new Map<string, number>();
    for (const r of raw.rows) {
      if (r.cancelada === 'S') continue;
      const key = `${tenant.get(r.id_empresa)}|${r.cod_vendedor}|${r.mes}`;
      sums.set(key, (sums.get(key) ?? 0) + Math.round(Number(r.valor) * 100));
    }
    const view = await db.pool.query<{ k: string; v: string }>(
      "select id_empresa || '|' || cod_vendedor || '|' || to_char(mes, 'YYYY-MM-DD') as k, valor_faturado::text as v from app.vw_faturamento_mes",
    );
    expect(Object.fromEntries(view.rows.map((r) => [r.k, r.v]))).toEqual(
      Object.fromEntries([...sums].map(([k, c]) => [k, (c / 100).toFixed(2)])),
    );
  });

  it('vw_notas_pedido and notas_itens_erp give every invoice of an order with its lines, cancelled ones flagged', async () => {
    const tenant = await tenantOf();
    const raw = await db.pool.query<{ k: string; id_empresa: number }>(
      `select n.id_nota || '|' || n.id_pedido || '|' || n.num_nota || '|' || n.serie || '|' || n.valor_total
              || '|' || (n.cancelada = 'S') || '|' || (select string_agg(i.seq || ':' || i.id_produto || ':' || i.quantidade
                 || ':' || i.valor_total, ',' order by i.seq) from notas_fiscais_itens i where i.id_nota = n.id_nota) as k,
              n.id_empresa
         from notas_fiscais n`,
    );
    const view = await db.pool.query<{ k: string; id_empresa: number }>(
      `select n.id_nota || '|' || n.id_pedido || '|' || n.num_nota || '|' || n.serie || '|' || n.valor_total
              || '|' || n.cancelada || '|' || (select string_agg(i.seq || ':' || i.id_produto || ':' || i.quantidade
                 || ':' || i.valor_total, ',' order by i.seq) from app.notas_itens_erp(array[n.id_nota]) i) as k,
              n.id_empresa
         from app.vw_notas_pedido n`,
    );
    const cmp = byKey<{ k: string }>((r) => r.k);
    expect(view.rows.sort(cmp)).toEqual(
      raw.rows.map((r) => ({ k: r.k, id_empresa: tenant.get(r.id_empresa) })).sort(cmp),
    );
    expect(view.rows.some((r) => r.k.includes('|true|'))).toBe(true);
  });

  it('vw_titulos_cliente gives the open titles and those paid in the last 60 days, with days overdue', async () => {
    // Make one paid title recent and one old, whatever the fixture's dates.
    await db.pool.query(
      `update titulos_receber set dt_pagamento = current_date - 5
        where id_titulo = (select min(id_titulo) from titulos_receber where valor_pago >= valor)`,
    );
    await db.pool.query(
      `update titulos_receber set dt_pagamento = current_date - 61
        where id_titulo = (select max(id_titulo) from titulos_receber where valor_pago >= valor)`,
    );
    const raw = await db.pool.query<{ k: string }>(
      `select id_titulo || '|' || num_documento || '|' || valor || '|' || valor_pago || '|'
              || (valor_pago >= valor) || '|' || case when valor_pago < valor and dt_vencimento < current_date
                 then current_date - dt_vencimento else 0 end as k
         from titulos_receber
        where valor_pago < valor or dt_pagamento >= current_date - 60`,
    );
    const view = await db.pool.query<{ k: string }>(
      `select id_titulo || '|' || num_documento || '|' || valor || '|' || valor_pago || '|' || pago || '|' || dias_atraso as k
         from app.vw_titulos_cliente`,
    );
    const keys = (rows: { k: string }[]) => rows.map((r) => r.k).sort();
    expect(keys(view.rows)).toEqual(keys(raw.rows));
    expect(view.rows.some((r) => r.k.includes('|true|'))).toBe(true);
    expect(view.rows.some((r) => r.k.includes('|false|'))).toBe(true);
  });

  it('show an approved Campo order once, with its ERP status, in the client and positivation views', async () => {
    const s = await orderScenario(db.pool);
    const id = await insertPendingOrder(db.pool, s);
    await db.pool.query('update app.pedidos set situa = 2 where id = $1', [id]);
    const { erp_id_pedido: erpId } = (await db.pool.query('select erp_id_pedido from app.pedidos where id = $1', [id]))
      .rows[0];

    const rows = await db.pool.query(
      'select origem, id_pedido, id_pedido_erp, status from app.vw_pedidos_cliente where id_cliente = $1 and id_pedido_erp = $2',
      [s.idCliente, erpId],
    );
    expect(rows.rows).toEqual([{ origem: 'campo', id_pedido: String(id), id_pedido_erp: erpId, status: 'approved' }]);
    await db.pool.query("update pedidos_venda set situacao = 'F' where id_pedido = $1", [erpId]);
    const invoiced = await db.pool.query('select status from app.vw_pedidos_cliente where id_pedido_erp = $1', [erpId]);
    expect(invoiced.rows).toEqual([{ status: 'invoiced' }]);

    const last = await db.pool.query('select ultimo_pedido_em from app.vw_clientes where id_cliente = $1', [
      s.idCliente,
    ]);
    const created = await db.pool.query('select criado_em from app.pedidos where id = $1', [id]);
    expect(last.rows[0].ultimo_pedido_em).toEqual(created.rows[0].criado_em);

    // Today's positivation of the rep counts the client once, though the order exists twice.
    const positivation = await db.pool.query(
      `select clientes_positivados, pedidos from app.vw_positivacao_dia
        where id_empresa = $1 and cod_vendedor = $2 and dia = (select criado_em::date from app.pedidos where id = $3)`,
      [s.idEmpresa, s.codVendedor, id],
    );
    const expected = await db.pool.query(
      `select count(distinct id_cliente)::int as clientes, count(*)::int as pedidos from (
         select id_cliente from app.pedidos
          where id_empresa = $1 and cod_vendedor = $2 and situa <> 4 and criado_em::date = (select criado_em::date from app.pedidos where id = $3)
         union all
         select pv.id_corrent from pedidos_venda pv join empresas e on e.id_empresa = pv.id_empresa
          where coalesce(e.id_matriz, e.id_empresa) = $1 and pv.cod_vendedor = $2 and pv.situacao <> 'C' and pv.origem <> 'CAMPO'
            and pv.dt_emissao::date = (select criado_em::date from app.pedidos where id = $3)) o`,
      [s.idEmpresa, s.codVendedor, id],
    );
    expect(positivation.rows[0]).toEqual({
      clientes_positivados: expected.rows[0].clientes,
      pedidos: expected.rows[0].pedidos,
    });
  });

  it('vw_vendedor_limites lets a ceiling set in Campo override the ERP one', async () => {
    const { rows } = await db.pool.query<{ id_empresa: number; cod_vendedor: number; categoria: string; perc: string }>(
      `select coalesce(e.id_matriz, e.id_empresa) as id_empresa, d.cod_vendedor, d.categoria, d.perc_desc_max::text as perc
         from vendedores_desc_categoria d join empresas e on e.id_empresa = d.id_empresa
        order by 1, 2, 3 limit 1`,
    );
    const erp = rows[0];
    if (!erp) throw new Error('the tiny ERP has no ceiling per category');
    const get = async () =>
      (
        await db.pool.query(
          'select perc_desc_max::text as perc, origem from app.vw_vendedor_limites where id_empresa = $1 and cod_vendedor = $2 and categoria = $3',
          [erp.id_empresa, erp.cod_vendedor, erp.categoria],
        )
      ).rows;
    expect(await get()).toEqual([{ perc: erp.perc, origem: 'erp' }]);
    await db.pool.query(
      'insert into app.limites_desconto_representante (id_empresa, cod_vendedor, categoria, perc_desc_max) values ($1, $2, $3, 12.5)',
      [erp.id_empresa, erp.cod_vendedor, erp.categoria],
    );
    expect(await get()).toEqual([{ perc: '12.50', origem: 'campo' }]);
  });

  it('vw_clientes carries the credit limit Campo keeps, not one from the ERP', async () => {
    const s = await orderScenario(db.pool);
    const limit = async () =>
      (await db.pool.query('select limite_credito from app.vw_clientes where id_cliente = $1', [s.idCliente])).rows[0];
    expect(await limit()).toEqual({ limite_credito: null });
    await db.pool.query('insert into app.limites_credito (id_empresa, id_cliente, limite) values ($1, $2, 15000)', [
      s.idEmpresa,
      s.idCliente,
    ]);
    expect(await limit()).toEqual({ limite_credito: '15000.00' });
    const count = await db.pool.query(
      "select (select count(*)::int from app.vw_clientes) as v, (select count(*)::int from corrent where tipo = 'C') as c",
    );
    expect(count.rows[0].v).toBe(count.rows[0].c);
  });

  // Last: it drops the ERP's stock table.
  it('vw_estoque sums the stock per tenant, and an ERP without stock provisions all the same with none', async () => {
    const tenant = await tenantOf();
    const raw = await db.pool.query<{ id_empresa: number; id_produto: number; quantidade: string }>(
      'select id_empresa, id_produto, quantidade from estoque',
    );
    const sums = new Map<string, number>();
    for (const r of raw.rows) {
      const k = `${tenant.get(r.id_empresa)}/${r.id_produto}`;
      sums.set(k, (sums.get(k) ?? 0) + Number(r.quantidade));
    }
    const view = await db.pool.query<{ id_empresa: number; id_produto: number; quantidade: string }>(
      'select id_empresa, id_produto, quantidade from app.vw_estoque',
    );
    expect(view.rows.length).toBeGreaterThan(0);
    expect(new Map(view.rows.map((r) => [`${r.id_empresa}/${r.id_produto}`, Number(r.quantidade)]))).toEqual(sums);
    // Products without a row have unknown stock, which the view leaves out (never zero).
    const without = await db.pool.query(
      'select count(*)::int as n from produtos p where not exists (select 1 from estoque e where e.id_produto = p.id_produto)',
    );
    expect(without.rows[0]?.n).toBeGreaterThan(0);

    await db.pool.query('drop table estoque');
    await provision(db.pool);
    expect((await db.pool.query('select * from app.vw_estoque')).rows).toEqual([]);
    await provision(db.pool);
  });
});
