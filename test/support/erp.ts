// A provisioned reference ERP (tiny) in a test database, and the people in it, for tests of
// the API that need real clients, representatives and products. The ERP's shape is an ERP
// profile: the reference ERP's ('referencia') unless CAMPO_TEST_ERP_PROFILE names another
// (the pg-odoo project of vitest.config.ts runs the spec-level tests on 'odoo'). Helpers that
// must write the ERP's own tables (what an ERP user would do: block a client, invoice an
// order) have one implementation per profile; everything else reads the app views.
import type pg from 'pg';
import { createErpFixture, FIXTURE_PROFILES, type FixtureProfile } from '../../server/src/erp-fixture/generate.ts';
import { grantServerRole } from '../../server/src/provisioning/grant.ts';
import { provision } from '../../server/src/provisioning/provision.ts';
import { SERVER_ROLE } from './pg.ts';

export interface ErpPeople {
  reps: { idEmpresa: number; codVendedor: number; codSupervisor: number }[];
  supervisors: { idEmpresa: number; codSupervisor: number }[];
  tenants: number[];
}

/** The ERP profile of the run's test ERPs: 'referencia', or CAMPO_TEST_ERP_PROFILE. */
export const TEST_ERP_PROFILE: FixtureProfile = testProfile(process.env.CAMPO_TEST_ERP_PROFILE);

function testProfile(name: string | undefined): FixtureProfile {
  if (name === undefined || name === '') return 'referencia';
  const known: readonly string[] = FIXTURE_PROFILES;
  if (!known.includes(name)) throw new Error(`CAMPO_TEST_ERP_PROFILE=${name}: not one of ${known.join(', ')}`);
  return name as FixtureProfile;
}

/** The optional ERP tables `without` may name (the reference ERP's), per profile. */
const OPTIONAL_TABLES: Record<FixtureProfile, Record<string, string>> = {
  referencia: {
    corrent_visitas: 'corrent_visitas',
    estoque: 'estoque',
    notas_fiscais_itens: 'notas_fiscais_itens',
    produtos_fiscal: 'produtos_fiscal',
    corrent_fiscal: 'corrent_fiscal',
    regras_fiscais: 'regras_fiscais',
  },
  odoo: {
    corrent_visitas: 'x_campo_visita',
    estoque: 'stock_quant',
    produtos_fiscal: 'x_campo_produto_fiscal',
    corrent_fiscal: 'x_campo_partner_fiscal',
    regras_fiscais: 'x_campo_regra_fiscal',
  },
};

/**
 * `without`: optional ERP tables (named as in the reference ERP) dropped before provisioning,
 * as an ERP that lacks them. `profile`: the ERP's shape, TEST_ERP_PROFILE by default.
 */
export async function provisionedErp(
  pool: pg.Pool,
  options: { without?: string[]; profile?: FixtureProfile } = {},
): Promise<ErpPeople> {
  const profile = options.profile ?? TEST_ERP_PROFILE;
  await createErpFixture(pool, { scale: 'tiny', asOf: new Date(), profile });
  for (const table of options.without ?? []) {
    const actual = OPTIONAL_TABLES[profile][table];
    if (!actual) throw new Error(`provisionedErp: the ${profile} ERP has no optional table for ${table}`);
    await pool.query(`drop table public.${actual}`);
  }
  await provision(pool, { profile });
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

/** The ERP profile a provisioned test database holds (app.perfil_erp). */
async function profileOf(pool: pg.Pool): Promise<FixtureProfile> {
  const table = await pool.query<{ ok: boolean }>("select to_regclass('app.perfil_erp') is not null as ok");
  if (!table.rows[0]?.ok) return TEST_ERP_PROFILE;
  const { rows } = await pool.query<{ perfil: FixtureProfile }>('select perfil from app.perfil_erp');
  return rows[0]?.perfil ?? 'referencia';
}

/** Lets the client receive orders: not blocked in the ERP, and every receivable of it paid. */
export async function clearForOrders(pool: pg.Pool, idCliente: number): Promise<void> {
  if ((await profileOf(pool)) === 'odoo') {
    await pool.query("update res_partner set x_bloqueio_financeiro = 'N' where id = $1", [idCliente]);
    // Paid as Odoo pays: a payment matched against each open receivable, on its due date.
    await pool.query(
      `insert into account_partial_reconcile (debit_move_id, amount, max_date)
       select id, amount_residual, coalesce(date_maturity, date) from account_move_line
        where partner_id = $1 and account_type = 'asset_receivable' and amount_residual > 0`,
      [idCliente],
    );
    await pool.query(
      `update account_move_line set amount_residual = 0, reconciled = true
        where partner_id = $1 and account_type = 'asset_receivable'`,
      [idCliente],
    );
    return;
  }
  await pool.query("update corrent set situacao = 'N' where id_corrent = $1", [idCliente]);
  await pool.query(
    'update titulos_receber set valor_pago = valor, dt_pagamento = dt_vencimento where id_corrent = $1',
    [idCliente],
  );
}

/** The ERP's credit department blocks the client by hand. */
export async function blockInErp(pool: pg.Pool, idCliente: number): Promise<void> {
  if ((await profileOf(pool)) === 'odoo') {
    await pool.query("update res_partner set x_bloqueio_financeiro = 'S' where id = $1", [idCliente]);
  } else {
    await pool.query("update corrent set situacao = 'B' where id_corrent = $1", [idCliente]);
  }
}

/** The ERP invoices the whole of an order's replica (its situation becomes 'F'). */
export async function invoicedInErp(pool: pg.Pool, idPedidoErp: number): Promise<void> {
  if ((await profileOf(pool)) === 'odoo') {
    await pool.query("update sale_order set invoice_status = 'invoiced' where id = $1", [idPedidoErp]);
  } else {
    await pool.query("update pedidos_venda set situacao = 'F' where id_pedido = $1", [idPedidoErp]);
  }
}

/** The ERP cancels an order's replica (its situation becomes 'C'; Odoo's state 'cancel'). */
export async function cancelledInErp(pool: pg.Pool, idPedidoErp: number): Promise<void> {
  if ((await profileOf(pool)) === 'odoo') {
    await pool.query("update sale_order set state = 'cancel' where id = $1", [idPedidoErp]);
  } else {
    await pool.query("update pedidos_venda set situacao = 'C' where id_pedido = $1", [idPedidoErp]);
  }
}

/** The ERP deletes an order's replica, with its lines (not invoiced: no invoice names it). */
export async function deletedInErp(pool: pg.Pool, idPedidoErp: number): Promise<void> {
  if ((await profileOf(pool)) === 'odoo') {
    await pool.query('delete from sale_order_line where order_id = $1', [idPedidoErp]);
    await pool.query('delete from sale_order where id = $1', [idPedidoErp]);
  } else {
    await pool.query('delete from pedidos_venda_itens where id_pedido = $1', [idPedidoErp]);
    await pool.query('delete from pedidos_venda where id_pedido = $1', [idPedidoErp]);
  }
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
  if ((await profileOf(pool)) === 'odoo') {
    await pool.query('delete from x_campo_vendedor_categoria where user_id = $1', [rep.codVendedor]);
  } else {
    await pool.query('delete from vendedores_desc_categoria where id_empresa = $1 and cod_vendedor = $2', [
      rep.idEmpresa,
      rep.codVendedor,
    ]);
  }
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
  if ((await profileOf(pool)) === 'odoo') return partlyInvoicedOdoo(pool, idPedido, numNota);
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

/** partlyInvoiced on Odoo: customer invoices (account_move) naming the sale order, one cancelled. */
async function partlyInvoicedOdoo(pool: pg.Pool, idPedido: number, numNota: number): Promise<void> {
  const { rows } = await pool.query<{ id: number }>(
    `insert into account_move (name, move_type, state, company_id, partner_id, invoice_user_id, invoice_date, date,
                               invoice_origin, amount_total, x_nf_numero, x_nf_serie)
     select 'NF/1/' || lpad(($2 - 2 + k)::text, 6, '0'), 'out_invoice', case when k = 1 then 'cancel' else 'posted' end,
            so.company_id, so.partner_id, so.user_id, date '2026-11-20', date '2026-11-20', so.name,
            round(l.price_subtotal / 3, 2), $2 - 2 + k, '1'
       from app.pedidos p join sale_order so on so.id = p.erp_id_pedido
       join sale_order_line l on l.order_id = so.id, generate_series(1, 2) k
      where p.id = $1
     returning id`,
    [idPedido, numNota],
  );
  for (const move of rows) {
    await pool.query(
      `insert into account_move_line (move_id, company_id, partner_id, display_type, name, product_id, quantity,
                                      price_unit, price_subtotal, date, credit)
       select m.id, m.company_id, m.partner_id, 'product', l.name, l.product_id, 1, l.price_reduce, m.amount_total,
              m.date, m.amount_total
         from account_move m join sale_order so on so.company_id = m.company_id and so.name = m.invoice_origin
         join sale_order_line l on l.order_id = so.id
        where m.id = $1`,
      [move.id],
    );
  }
}

/** The client owes a boleto of R$ 321,50, issued 40 days ago and 12 days overdue. */
export async function owesOverdueBoleto(pool: pg.Pool, idCliente: number, numDocumento: string): Promise<void> {
  await erpReceivable(pool, idCliente, { numDocumento, valor: 321.5, issuedDaysAgo: 40, dueInDays: -12 });
}

/** The ERP issues the client a receivable (not an invoice's) of `valor`, unpaid. */
export async function erpReceivable(
  pool: pg.Pool,
  idCliente: number,
  r: { numDocumento: string; valor: number; issuedDaysAgo: number; dueInDays: number },
): Promise<void> {
  const params = [idCliente, r.numDocumento, r.valor, r.issuedDaysAgo, r.dueInDays];
  if ((await profileOf(pool)) === 'odoo') {
    // An entry of its own with one receivable line.
    await pool.query(
      `with m as (
         insert into account_move (name, move_type, state, company_id, partner_id, date, amount_total)
         select 'LANC/' || $2, 'entry', 'posted', company_id, id, current_date - $4::int, $3
           from res_partner where id = $1
         returning id, company_id, partner_id)
       insert into account_move_line (move_id, company_id, partner_id, display_type, account_type, name, date,
                                      date_maturity, debit, amount_residual)
       select m.id, m.company_id, m.partner_id, 'payment_term', 'asset_receivable', $2, current_date - $4::int,
              current_date + $5::int, $3, $3
         from m`,
      params,
    );
    return;
  }
  await pool.query(
    `insert into titulos_receber (id_empresa, id_corrent, num_documento, dt_emissao, dt_vencimento, valor)
     select id_empresa, id_corrent, $2, current_date - $4::int, current_date + $5::int, $3
       from corrent where id_corrent = $1`,
    params,
  );
}

/** What the ERP got for an approved order: its own order row and lines, in Campo's terms. */
export interface ErpOrderWritten {
  idPedido: number;
  numPedido: number;
  idCorrent: number;
  codVendedor: number;
  numPedSar: number | null;
  origem: string;
  situacao: string;
  valorTotal: number;
  idCondicao: number | null;
  endEntrega: string | null;
  observacao: string | null;
  items: {
    seq: number;
    idProduto: number;
    quantidade: number;
    precoTabela: number;
    precoUnitario: number;
    percDesconto: number;
    valorTotal: number;
  }[];
}

/**
 * Reads the ERP's own order tables (not the app views: what the trigger wrote, whatever the
 * views make of it): pedidos_venda on the reference ERP, sale_order on Odoo.
 */
export async function erpOrderWritten(pool: pg.Pool, idPedidoErp: number): Promise<ErpOrderWritten> {
  const odoo = (await profileOf(pool)) === 'odoo';
  const head = await pool.query(
    odoo
      ? `select id as id_pedido, regexp_replace(name, '[^0-9]', '', 'g')::int as num_pedido, partner_id as id_corrent,
                user_id as cod_vendedor, nullif(client_order_ref, '')::int as num_ped_sar,
                coalesce(origin, 'ERP') as origem,
                case when state = 'cancel' then 'C' when invoice_status = 'invoiced' then 'F' else 'A' end as situacao,
                amount_total as valor_total, payment_term_id as id_condicao, x_endereco_entrega as end_entrega,
                note as observacao
           from sale_order where id = $1`
      : `select id_pedido, num_pedido, id_corrent, cod_vendedor, num_ped_sar, origem, situacao, valor_total,
                id_condicao, end_entrega, observacao
           from pedidos_venda where id_pedido = $1`,
    [idPedidoErp],
  );
  const items = await pool.query(
    odoo
      ? `select sequence as seq, product_id as id_produto, product_uom_qty as quantidade, price_unit as preco_tabela,
                price_reduce as preco_unitario, discount as perc_desconto, price_subtotal as valor_total
           from sale_order_line where order_id = $1 order by sequence, id`
      : `select seq, id_produto, quantidade, preco_tabela, preco_unitario, perc_desconto, valor_total
           from pedidos_venda_itens where id_pedido = $1 order by seq`,
    [idPedidoErp],
  );
  const h = head.rows[0];
  if (!h) throw new Error(`the ERP has no order ${idPedidoErp}`);
  return {
    idPedido: h.id_pedido,
    numPedido: h.num_pedido,
    idCorrent: h.id_corrent,
    codVendedor: h.cod_vendedor,
    numPedSar: h.num_ped_sar,
    origem: h.origem,
    situacao: h.situacao,
    valorTotal: Number(h.valor_total),
    idCondicao: h.id_condicao,
    endEntrega: h.end_entrega,
    observacao: h.observacao,
    items: items.rows.map((i) => ({
      seq: i.seq,
      idProduto: i.id_produto,
      quantidade: Number(i.quantidade),
      precoTabela: Number(i.preco_tabela),
      precoUnitario: Number(i.preco_unitario),
      percDesconto: Number(i.perc_desconto),
      valorTotal: Number(i.valor_total),
    })),
  };
}

/** How many orders the ERP's order table holds. */
export async function erpOrderCount(pool: pg.Pool): Promise<number> {
  const table = (await profileOf(pool)) === 'odoo' ? 'sale_order' : 'pedidos_venda';
  const { rows } = await pool.query<{ n: number }>(`select count(*)::int as n from ${table}`);
  return rows[0]?.n ?? 0;
}

/** Makes the ERP refuse every new order line (a check of its own), until the returned undo runs. */
export async function erpRefusesOrderLines(pool: pg.Pool): Promise<() => Promise<void>> {
  const [table, column] =
    (await profileOf(pool)) === 'odoo' ? ['sale_order_line', 'product_uom_qty'] : ['pedidos_venda_itens', 'quantidade'];
  await pool.query(`alter table ${table} add constraint campo_test_falha check (${column} < 0) not valid`);
  return async () => {
    await pool.query(`alter table ${table} drop constraint campo_test_falha`);
  };
}

/**
 * The client's payment terms in the ERP: its default (null: none), and the terms the credit
 * department restricts it to (empty: every active term).
 */
export async function erpPaymentTerms(
  pool: pg.Pool,
  idCliente: number,
  terms: { default?: number | null; restrictedTo?: number[] },
): Promise<void> {
  const odoo = (await profileOf(pool)) === 'odoo';
  if (terms.default !== undefined) {
    await pool.query(
      odoo
        ? 'update res_partner set property_payment_term_id = $2 where id = $1'
        : 'update corrent set id_condicao = $2 where id_corrent = $1',
      [idCliente, terms.default],
    );
  }
  if (terms.restrictedTo !== undefined) {
    if (odoo) {
      await pool.query('delete from x_campo_partner_payment_term where partner_id = $1', [idCliente]);
      await pool.query(
        'insert into x_campo_partner_payment_term (partner_id, payment_term_id) select $1, unnest($2::int[])',
        [idCliente, terms.restrictedTo],
      );
    } else {
      await pool.query('delete from corrent_condicoes where id_corrent = $1', [idCliente]);
      await pool.query(
        `insert into corrent_condicoes (id_corrent, id_empresa, id_condicao)
         select id_corrent, id_empresa, unnest($2::int[]) from corrent where id_corrent = $1`,
        [idCliente, terms.restrictedTo],
      );
    }
  }
}

/** What an ERP keeps for a client registered without an address: blanks, char(n) padded. */
export async function erpAddressBlank(pool: pg.Pool, idCliente: number): Promise<void> {
  if ((await profileOf(pool)) === 'odoo') {
    await pool.query(
      `update res_partner set street = '', street_number = '', street2 = null, l10n_br_district = ' ', city = '',
                              state_id = null, zip = '        ' where id = $1`,
      [idCliente],
    );
    return;
  }
  await pool.query(
    `update corrent set endereco = '', numero = '', complemento = null, bairro = ' ', cidade = '',
                        uf = '  ', cep = '        ' where id_corrent = $1`,
    [idCliente],
  );
}

/**
 * The ERP's own client row (what trg_cliente_novo wrote), under the reference ERP's column
 * names: corrent as it is, or Odoo's res_partner mapped onto those names.
 */
export async function erpClientWritten(pool: pg.Pool, idCliente: number): Promise<Record<string, unknown>> {
  const odoo = (await profileOf(pool)) === 'odoo';
  const { rows } = await pool.query(
    odoo
      ? `select p.id as id_corrent, p.company_id as id_empresa, case when p.customer_rank > 0 then 'C' else 'F' end as tipo,
                case when p.is_company then 'J' else 'F' end as tipo_pessoa, p.name as razao_social,
                p.x_nome_fantasia as nome_fantasia, regexp_replace(p.vat, '[^0-9A-Za-z]', '', 'g') as cnpj_cpf,
                p.l10n_br_ie_code as inscricao_estadual, p.street as endereco, p.street_number as numero,
                p.street2 as complemento, p.l10n_br_district as bairro, p.city as cidade, s.code as uf,
                regexp_replace(p.zip, '[^0-9]', '', 'g') as cep, p.phone as telefone, p.email,
                p.user_id as cod_vendedor, p.property_product_pricelist as id_pauta,
                case when p.x_bloqueio_financeiro = 'S' then 'B' else 'N' end as situacao,
                p.x_data_ultima_compra as dt_ultima_compra, p.create_date as dt_cadastro, p.x_origem as origem,
                case when p.active then 'S' else 'N' end as ativo, p.property_payment_term_id as id_condicao,
                p.partner_latitude as latitude, p.partner_longitude as longitude
           from res_partner p left join res_country_state s on s.id = p.state_id where p.id = $1`
      : 'select * from corrent where id_corrent = $1',
    [idCliente],
  );
  const row = rows[0];
  if (!row) throw new Error(`the ERP has no client ${idCliente}`);
  return row;
}

/** The ERP changes a product's price on a price list. */
export async function erpSetPrice(pool: pg.Pool, idPauta: number, idProduto: number, preco: number): Promise<void> {
  if ((await profileOf(pool)) === 'odoo') {
    await pool.query(
      'update product_pricelist_item set fixed_price = $3, write_date = now() where pricelist_id = $1 and product_id = $2',
      [idPauta, idProduto, preco],
    );
  } else {
    await pool.query('update pautas_precos set preco = $3 where id_pauta = $1 and id_produto = $2', [
      idPauta,
      idProduto,
      preco,
    ]);
  }
}

/** The ERP deletes a product (and its prices, and its stock). */
export async function erpDeleteProduct(pool: pg.Pool, idProduto: number): Promise<void> {
  if ((await profileOf(pool)) === 'odoo') {
    await pool.query('delete from product_pricelist_item where product_id = $1', [idProduto]);
    await pool.query('delete from stock_quant where product_id = $1', [idProduto]);
    await pool.query('delete from product_product where id = $1', [idProduto]);
    await pool.query('delete from product_template where id = $1', [idProduto]);
  } else {
    await pool.query('delete from pautas_precos where id_produto = $1', [idProduto]);
    await pool.query('delete from produtos where id_produto = $1', [idProduto]);
  }
}
