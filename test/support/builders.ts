// Builders for the set-up the database tests repeat, each named by the business thing it makes
// (a representative with a known ceiling, a client that can be sold to, a Campo order, a
// discount rule, a signed-in user), so a test's beforeAll reads in a few lines. They write as
// the owner (the superuser pool a test sets up with), through the same SQL the tests used.
import { randomUUID } from 'node:crypto';
import type { Order, OrderCreate, SyncOpportunity, SyncVisit } from '@campo/shared';
import type pg from 'pg';
import type { testApp } from './app.ts';
import { type ErpPeople, knownCeiling } from './erp.ts';
import { apiAs, logInAs, type SessionUser } from './session.ts';

export type Rep = ErpPeople['reps'][number];
export type Api = ReturnType<typeof apiAs>;
type App = ReturnType<typeof testApp>;

/**
 * A representative of the reference ERP: the first one (of `tenant` when given), or the first
 * other one of `besides`'s tenant. `ceiling` gives it a known discount ceiling (knownCeiling).
 */
export async function aRepresentative(
  pool: pg.Pool,
  erp: ErpPeople,
  options: { tenant?: number; besides?: Rep; ceiling?: number } = {},
): Promise<Rep> {
  const { tenant, besides, ceiling } = options;
  const rep = erp.reps.find(
    (r) =>
      (tenant === undefined || r.idEmpresa === tenant) &&
      (besides === undefined || (r.idEmpresa === besides.idEmpresa && r.codVendedor !== besides.codVendedor)),
  );
  if (!rep) throw new Error(`no representative${tenant === undefined ? '' : ` in tenant ${tenant}`} in the fixture`);
  if (ceiling !== undefined) await knownCeiling(pool, rep, ceiling);
  return rep;
}

/** A product of a price list as an order line needs it: its price, category and group. */
export interface PricedProduct {
  id: number;
  price: number;
  categoria: string;
  grupo: number;
}

/**
 * The representative's first client that is not blocked and has a price list (left as the ERP
 * has it), with the first `products` active products priced on that list.
 */
export async function aPricedClient(
  pool: pg.Pool,
  rep: { idEmpresa: number; codVendedor: number },
  options: { products?: number } = {},
): Promise<{ idCliente: number; idPauta: number; products: PricedProduct[] }> {
  const client = await pool.query<{ id_cliente: number; id_pauta: number }>(
    `select id_cliente, id_pauta from app.vw_clientes
      where id_empresa = $1 and cod_vendedor = $2 and status_financeiro <> 'blocked' and id_pauta is not null
      order by id_cliente limit 1`,
    [rep.idEmpresa, rep.codVendedor],
  );
  const row = client.rows[0];
  if (!row) throw new Error(`no client with a price list for representative ${rep.codVendedor}`);
  const products = await pool.query<PricedProduct>(
    `select p.id_produto as id, pr.preco as price, p.categoria, p.cod_grupo as grupo
       from app.vw_produtos p join app.vw_precos pr on pr.id_produto = p.id_produto and pr.id_pauta = $2
      where p.id_empresa = $1 and p.ativo order by p.id_produto limit $3`,
    [rep.idEmpresa, row.id_pauta, options.products ?? 1],
  );
  return {
    idCliente: row.id_cliente,
    idPauta: row.id_pauta,
    products: products.rows.map((p) => ({ ...p, price: Number(p.price) })),
  };
}

/** The representative's first client, whatever its state: what a card or an order can name. */
export async function aClientOf(
  pool: pg.Pool,
  rep: { idEmpresa: number; codVendedor: number },
): Promise<{ idCliente: number; razaoSocial: string }> {
  const { rows } = await pool.query<{ id_cliente: number; razao_social: string }>(
    'select id_cliente, razao_social from app.vw_clientes where id_empresa = $1 and cod_vendedor = $2 order by id_cliente limit 1',
    [rep.idEmpresa, rep.codVendedor],
  );
  const row = rows[0];
  if (!row) throw new Error(`no client for representative ${rep.codVendedor}`);
  return { idCliente: row.id_cliente, razaoSocial: row.razao_social };
}

/**
 * A Campo order row of the representative, written as the owner (no API, no engine): what a
 * test needs when it only needs an order to exist. Unless told otherwise it is pending, of the
 * rep's first client (aClientOf), numbered as the API numbers, on price list 1 and worth 10.
 */
export async function anOrder(
  pool: pg.Pool,
  rep: { idEmpresa: number; codVendedor: number },
  options: { situa?: 1 | 2 | 3 | 4; numPedSar?: number; client?: { idCliente: number; razaoSocial: string } } = {},
): Promise<{ id: number; idCliente: number; nomeCliente: string; numPedSar: number }> {
  const client = options.client ?? (await aClientOf(pool, rep));
  const numPedSar =
    options.numPedSar ??
    ((await pool.query<{ n: number }>('select app.proximo_num_ped_sar($1) as n', [rep.idEmpresa])).rows[0]
      ?.n as number);
  const { rows } = await pool.query<{ id: number }>(
    `insert into app.pedidos (id_empresa, cod_vendedor, num_ped_sar, situa, id_cliente, nome_cliente, id_pauta,
                              valor_bruto, valor_desconto, valor_total)
     values ($1, $2, $3, $4, $5, $6, 1, 10, 0, 10) returning id`,
    [rep.idEmpresa, rep.codVendedor, numPedSar, options.situa ?? 1, client.idCliente, client.razaoSocial],
  );
  return { id: rows[0]?.id as number, idCliente: client.idCliente, nomeCliente: client.razaoSocial, numPedSar };
}

/** A line of an ERP order: a product, its quantity and its unit price (the list price too). */
export interface ErpOrderLine {
  product: number;
  quantity: number;
  price: number;
}

/**
 * An ERP order (telesales, counter) of the representative's client, written into the reference
 * ERP's pedidos_venda and its lines: `daysAgo` days before now on São Paulo's wall clock (the
 * ERP's time), invoiced unless `situacao` says otherwise. What a test of the client's history
 * (its mix, its orders) needs; returns the ERP order id.
 */
export async function anErpOrder(
  pool: pg.Pool,
  rep: { idEmpresa: number; codVendedor: number },
  idCliente: number,
  order: { daysAgo: number; lines: ErpOrderLine[]; situacao?: 'A' | 'F' | 'C' },
): Promise<number> {
  const { rows } = await pool.query<{ id: number }>(
    `insert into public.pedidos_venda (id_empresa, num_pedido, id_corrent, cod_vendedor, dt_emissao, situacao, valor_total)
     select v.id_empresa, (select coalesce(max(num_pedido), 0) + 1 from public.pedidos_venda where id_empresa = v.id_empresa),
            $2, v.cod_vendedor, (now() at time zone 'America/Sao_Paulo') - make_interval(days => $4), $5, 0
       from public.vendedores v join public.empresas e on e.id_empresa = v.id_empresa
      where coalesce(e.id_matriz, e.id_empresa) = $1 and v.cod_vendedor = $3
      order by v.id_empresa limit 1
     returning id_pedido as id`,
    [rep.idEmpresa, idCliente, rep.codVendedor, order.daysAgo, order.situacao ?? 'F'],
  );
  const id = rows[0]?.id as number;
  for (const [i, l] of order.lines.entries()) {
    await pool.query(
      `insert into public.pedidos_venda_itens (id_pedido, seq, id_produto, quantidade, preco_tabela, preco_unitario, valor_total)
       values ($1, $2, $3, $4::numeric, $5::numeric, $5::numeric, round($4::numeric * $5::numeric, 2))`,
      [id, i + 1, l.product, l.quantity, l.price],
    );
  }
  return id;
}

/**
 * Moves the clients' ERP order history five years back, out of every window a test reads (the
 * mix's months, the dashboards' periods): the test then writes the history it means.
 */
export async function withoutRecentErpOrders(pool: pg.Pool, clients: number[]): Promise<void> {
  await pool.query(
    "update public.pedidos_venda set dt_emissao = dt_emissao - interval '5 years' where id_corrent = any($1)",
    [clients],
  );
}

/** A day of a rule's validity: an ISO date, or a number of days from the database's today. */
export type RuleDay = string | number;

/** A discount rule; what is not given keeps the table's default (no target, not a promotion). */
export interface RuleFields {
  idEmpresa: number;
  descricao: string;
  percent: number;
  grupo?: number | null;
  subgrupo?: number | null;
  representante?: number | null;
  idPauta?: number | null;
  promocao?: boolean;
  /** Yesterday unless given. */
  from?: RuleDay;
  to?: RuleDay | null;
}

/** Inserts a discount rule into app.regras_desconto and returns its id. */
export async function aRule(pool: pg.Pool, rule: RuleFields): Promise<number> {
  const columns: string[] = [];
  const values: string[] = [];
  const params: unknown[] = [];
  const put = (column: string, value: unknown, sql = (param: string) => param) => {
    params.push(value);
    columns.push(column);
    values.push(sql(`$${params.length}`));
  };
  const day = (column: string, value: RuleDay | null) =>
    put(column, value, (param) => (typeof value === 'number' ? `current_date + ${param}::int` : `${param}::date`));
  put('id_empresa', rule.idEmpresa);
  put('descricao', rule.descricao);
  if (rule.grupo !== undefined) put('grupo', rule.grupo);
  if (rule.subgrupo !== undefined) put('subgrupo', rule.subgrupo);
  if (rule.representante !== undefined) put('representante', rule.representante);
  if (rule.idPauta !== undefined) put('id_pauta', rule.idPauta);
  put('percent', rule.percent);
  day('vigencia_inicio', rule.from ?? -1);
  if (rule.to !== undefined) day('vigencia_fim', rule.to);
  if (rule.promocao !== undefined) put('promocao', rule.promocao);
  const { rows } = await pool.query<{ id: number }>(
    `insert into app.regras_desconto (${columns.join(', ')}) values (${values.join(', ')}) returning id`,
    params,
  );
  return Number(rows[0]?.id);
}

/** The user, created and logged in (logInAs), as an API client (apiAs). */
export async function signedIn(app: App, pool: pg.Pool, user: SessionUser): Promise<Api> {
  return apiAs(app, await logInAs(app, pool, user));
}

/** An order as a client sends it: a line's discount may be left out (it is then 0). */
export type OrderDraft = Omit<OrderCreate, 'itens'> & {
  itens: (Omit<OrderCreate['itens'][number], 'descontoPercent'> & { descontoPercent?: number })[];
};

/** POST /orders as the caller with a fresh Idempotency-Key: the answer, for the test to judge. */
export async function postOrder(api: Api, order: OrderDraft): Promise<Response> {
  return api('POST', '/orders', order, { 'idempotency-key': randomUUID() });
}

/** An order placed through the API (postOrder) as set-up: anything but 201 stops the test. */
export async function placeOrder(api: Api, order: OrderDraft): Promise<Order> {
  const res = await postOrder(api, order);
  if (res.status !== 201) throw new Error(`order: ${res.status} ${await res.text()}`);
  return (await res.json()) as Order;
}

/** How many Campo orders a representative has: what a push or a replay must add exactly once. */
export async function ordersOf(pool: pg.Pool, idEmpresa: number, codVendedor: number): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(
    'select count(*) as n from app.pedidos where id_empresa = $1 and cod_vendedor = $2',
    [idEmpresa, codVendedor],
  );
  return Number(rows[0]?.n);
}

/** A funnel card as a device creates it: a lead of a prospect, changed by `over`. */
export function aCard(over: Partial<SyncOpportunity> = {}): SyncOpportunity {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    estagio: 'lead',
    idCliente: null,
    nomeCliente: null,
    nomeProspect: 'Mercearia ☕',
    empresaProspect: null,
    idPedido: null,
    valor: 100,
    previsaoFechamento: null,
    observacoes: null,
    motivoPerda: null,
    criadoEm: now,
    atualizadoEm: now,
    _deleted: false,
    ...over,
  };
}

/** A visit as a phone pushes its check-in: open, no position, no reason; `over` changes any field. */
export function aPushedVisit(idCliente: number, over: Partial<SyncVisit> = {}): Partial<SyncVisit> & { id: string } {
  return {
    id: randomUUID(),
    idCliente,
    entradaEm: new Date().toISOString(),
    posicao: null,
    saidaEm: null,
    saidaPosicao: null,
    idMotivo: null,
    observacao: null,
    _deleted: false,
    ...over,
  };
}
