// A provisioned reference ERP (tiny) in a test database, and the people in it, for tests of
// the API that need real clients, representatives and products.
import type pg from 'pg';
import { createErpFixture } from '../../server/src/erp-fixture/generate.ts';
import { grantServerRole } from '../../server/src/provisioning/grant.ts';
import { provision } from '../../server/src/provisioning/provision.ts';
import { SERVER_ROLE } from './pg.ts';

export interface ErpPeople {
  reps: { idEmpresa: number; codVendedor: number; codSupervisor: number }[];
  supervisors: { idEmpresa: number; codSupervisor: number }[];
  tenants: number[];
}

/** `without`: optional ERP tables dropped before provisioning, as an ERP that lacks them. */
export async function provisionedErp(pool: pg.Pool, options: { without?: string[] } = {}): Promise<ErpPeople> {
  await createErpFixture(pool, { scale: 'tiny', asOf: new Date() });
  for (const table of options.without ?? []) await pool.query(`drop table public.${table}`);
  await provision(pool, {});
  await grantServerRole(pool, SERVER_ROLE);
  const reps = await pool.query<{ idEmpresa: number; codVendedor: number; codSupervisor: number }>(
    `select id_empresa as "idEmpresa", cod_vendedor as "codVendedor", cod_supervisor as "codSupervisor"
       from app.vw_vendedores order by id_empresa, cod_supervisor, cod_vendedor`,
  );
  const supervisors = await pool.query<{ idEmpresa: number; codSupervisor: number }>(
    `select id_empresa as "idEmpresa", cod_supervisor as "codSupervisor"
       from app.vw_supervisores order by id_empresa, cod_supervisor`,
  );
  return {
    reps: reps.rows,
    supervisors: supervisors.rows,
    tenants: [...new Set(reps.rows.map((r) => r.idEmpresa))],
  };
}

/**
 * A client of the representative that can receive orders (not blocked, nothing overdue: its
 * receivables are marked paid) and a product priced on its pauta — what an order test needs.
 */
export async function orderableClient(
  pool: pg.Pool,
  rep: { idEmpresa: number; codVendedor: number },
): Promise<{ idCliente: number; idProduto: number }> {
  const { rows } = await pool.query<{ id_cliente: number; id_produto: number }>(
    `select c.id_cliente, p.id_produto
       from app.vw_clientes c
       join app.vw_precos pr on pr.id_pauta = c.id_pauta and pr.id_empresa = c.id_empresa
       join app.vw_produtos p on p.id_produto = pr.id_produto and p.id_empresa = c.id_empresa and p.ativo
      where c.id_empresa = $1 and c.cod_vendedor = $2
      order by c.id_cliente, p.id_produto limit 1`,
    [rep.idEmpresa, rep.codVendedor],
  );
  const row = rows[0];
  if (!row) throw new Error(`no orderable client for representative ${rep.codVendedor}`);
  await clearForOrders(pool, row.id_cliente);
  return { idCliente: row.id_cliente, idProduto: row.id_produto };
}

/** Lets the client receive orders: not blocked in the ERP, and every receivable of it paid. */
export async function clearForOrders(pool: pg.Pool, idCliente: number): Promise<void> {
  await pool.query("update corrent set situacao = 'N' where id_corrent = $1", [idCliente]);
  await pool.query(
    'update titulos_receber set valor_pago = valor, dt_pagamento = dt_vencimento where id_corrent = $1',
    [idCliente],
  );
}

/**
 * An orderable client (orderableClient) and its product as a cart finds it: the code typed in
 * the search, the description its line is named by, and its group (what a promotion targets).
 */
export async function orderableSale(
  pool: pg.Pool,
  rep: { idEmpresa: number; codVendedor: number },
): Promise<{ idCliente: number; idProduto: number; code: string; description: string; grupo: number }> {
  const orderable = await orderableClient(pool, rep);
  const { rows } = await pool.query<{ code: string; description: string; grupo: number }>(
    `select cod_produto as code, descricao as description, cod_grupo as grupo
       from app.vw_produtos where id_produto = $1 and id_empresa = $2`,
    [orderable.idProduto, rep.idEmpresa],
  );
  const product = rows[0];
  if (!product) throw new Error(`no product ${orderable.idProduto}`);
  return { ...orderable, ...product };
}

/** The representative's first client with a price list that is not blocked (id and display name). */
export async function clientWithPauta(
  pool: pg.Pool,
  rep: { idEmpresa: number; codVendedor: number },
): Promise<{ id: number; name: string; idPauta: number }> {
  const { rows } = await pool.query<{ id_cliente: number; nome: string; id_pauta: number }>(
    `select id_cliente, coalesce(nullif(nome_fantasia, ''), razao_social) as nome, id_pauta from app.vw_clientes
      where id_empresa = $1 and cod_vendedor = $2 and status_financeiro <> 'blocked' and id_pauta is not null
      order by id_cliente limit 1`,
    [rep.idEmpresa, rep.codVendedor],
  );
  const row = rows[0];
  if (!row) throw new Error(`no client with a price list for representative ${rep.codVendedor}`);
  return { id: row.id_cliente, name: row.nome, idPauta: row.id_pauta };
}

/**
 * A known discount ceiling for the representative: `percent` by default, no category ceilings
 * and no rules in the tenant, so a test's own rule is the only one that can raise it.
 */
export async function knownCeiling(
  pool: pg.Pool,
  rep: { idEmpresa: number; codVendedor: number },
  percent: number,
): Promise<void> {
  await pool.query('delete from app.regras_desconto where id_empresa = $1', [rep.idEmpresa]);
  await pool.query('delete from vendedores_desc_categoria where id_empresa = $1 and cod_vendedor = $2', [
    rep.idEmpresa,
    rep.codVendedor,
  ]);
  await pool.query(
    `insert into app.limites_desconto_representante (id_empresa, cod_vendedor, categoria, perc_desc_max)
     values ($1, $2, null, $3)`,
    [rep.idEmpresa, rep.codVendedor, percent],
  );
}

/** The ERP number of the representative's first ERP order (0 when none): what a ticket can name. */
export async function firstErpOrderNumber(
  pool: pg.Pool,
  rep: { idEmpresa: number; codVendedor: number },
): Promise<number> {
  const { rows } = await pool.query<{ num: number }>(
    'select num_pedido as num from app.vw_sitpedido where id_empresa = $1 and cod_vendedor = $2 order by id_pedido limit 1',
    [rep.idEmpresa, rep.codVendedor],
  );
  return rows[0]?.num ?? 0;
}

/**
 * The ERP invoices a third of each line of a Campo order's ERP replica under invoice number
 * `numNota`, after a first invoice (`numNota` - 1) it cancelled: the order is partly invoiced.
 * Each invoice has one line per product, of quantity 1.
 */
export async function partlyInvoiced(pool: pg.Pool, idPedido: number, numNota: number): Promise<void> {
  const { rows } = await pool.query<{ id_nota: number }>(
    `insert into notas_fiscais (id_empresa, num_nota, serie, id_pedido, id_corrent, cod_vendedor, dt_emissao,
                                valor_total, cancelada)
     select pv.id_empresa, $2 - 2 + k, '1', pv.id_pedido, pv.id_corrent, pv.cod_vendedor, date '2026-11-20',
            round(i.valor_total / 3, 2), case when k = 1 then 'S' else 'N' end
       from app.pedidos p join pedidos_venda pv on pv.id_pedido = p.erp_id_pedido
       join pedidos_venda_itens i on i.id_pedido = pv.id_pedido, generate_series(1, 2) k
      where p.id = $1
     returning id_nota`,
    [idPedido, numNota],
  );
  for (const nota of rows) {
    await pool.query(
      `insert into notas_fiscais_itens (id_nota, seq, id_produto, quantidade, valor_unitario, valor_total)
       select n.id_nota, 1, i.id_produto, 1, i.preco_unitario, n.valor_total
         from notas_fiscais n join pedidos_venda_itens i on i.id_pedido = n.id_pedido where n.id_nota = $1`,
      [nota.id_nota],
    );
  }
}

/** The client owes a boleto of R$ 321,50, issued 40 days ago and 12 days overdue. */
export async function owesOverdueBoleto(pool: pg.Pool, idCliente: number, numDocumento: string): Promise<void> {
  await pool.query(
    `insert into titulos_receber (id_empresa, id_corrent, num_documento, dt_emissao, dt_vencimento, valor)
     select id_empresa, id_corrent, $2, current_date - 40, current_date - 12, 321.5
       from corrent where id_corrent = $1`,
    [idCliente, numDocumento],
  );
}
