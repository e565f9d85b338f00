// Every SQL statement of the client portfolio. Each names the tenant (and, for a
// representative, the portfolio) itself: the scope settings of withScope are the second line
// of defence, not the first.
import { CLIENT_MIX_MAX, CLIENT_MIX_MONTHS, type FinancialStatus, type SearchTerm } from '@campo/shared';
import { type ExpressionBuilder, sql } from 'kysely';
import type { Scope, Tx } from '../db/scope.ts';
import type { DB } from '../db/types.ts';
import { folded, matchesEveryTerm } from './search.ts';

type ClientEb = ExpressionBuilder<DB, 'app.vw_clientes'>;

export interface ClientFilters {
  terms: SearchTerm[];
  financialStatus?: FinancialStatus | undefined;
  /** Inactive or active relative to `inactiveBefore`. */
  activity?: { status: 'active' | 'inactive'; inactiveBefore: Date } | undefined;
}

const summaryColumns = [
  'id_cliente',
  'razao_social',
  'nome_fantasia',
  'cnpj_cpf',
  'tipo_pessoa',
  'cidade',
  'uf',
  'id_pauta',
  'status_financeiro',
  'limite_credito',
  'ultimo_pedido_em',
  'cod_vendedor',
] as const;

const detailColumns = [
  ...summaryColumns,
  'endereco',
  'numero',
  'complemento',
  'bairro',
  'cep',
  'end_entrega',
  'telefone',
  'email',
  'inscricao_estadual',
  'valor_em_aberto',
  'pedidos_em_aberto',
  'valor_vencido',
  'dias_atraso_max',
  'cadastro_ativo',
  'dt_cadastro',
] as const;

function inScope(eb: ClientEb, scope: Scope) {
  const conditions = [eb('id_empresa', '=', scope.idEmpresa)];
  if (scope.codVendedor !== null) conditions.push(eb('cod_vendedor', '=', scope.codVendedor));
  return conditions;
}

function listFilter(eb: ClientEb, scope: Scope, f: ClientFilters) {
  const conditions = inScope(eb, scope);
  if (f.terms.length > 0) {
    conditions.push(
      matchesEveryTerm(
        eb,
        f.terms,
        [eb.ref('razao_social'), eb.ref('nome_fantasia'), eb.ref('cidade')],
        [eb.ref('cnpj_cpf')],
      ),
    );
  }
  if (f.financialStatus) conditions.push(eb('status_financeiro', '=', f.financialStatus));
  if (f.activity?.status === 'active') conditions.push(eb('ultimo_pedido_em', '>=', f.activity.inactiveBefore));
  if (f.activity?.status === 'inactive') {
    conditions.push(
      eb.or([eb('ultimo_pedido_em', 'is', null), eb('ultimo_pedido_em', '<', f.activity.inactiveBefore)]),
    );
  }
  return eb.and(conditions);
}

export async function countClients(tx: Tx, scope: Scope, filters: ClientFilters): Promise<number> {
  const row = await tx
    .selectFrom('app.vw_clientes')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where((eb) => listFilter(eb, scope, filters))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export function selectClientPage(tx: Tx, scope: Scope, filters: ClientFilters, limit: number, offset: number) {
  return (
    tx
      .selectFrom('app.vw_clientes')
      .select(summaryColumns)
      .where((eb) => listFilter(eb, scope, filters))
      // Folded, so that "Açougue" sorts among the A's and not after every ASCII name (C collation).
      .orderBy((eb) => folded(eb, eb.ref('razao_social')))
      .orderBy('id_cliente')
      .limit(limit)
      .offset(offset)
      .execute()
  );
}

export type ClientSummaryRow = Awaited<ReturnType<typeof selectClientPage>>[number];

export function selectClient(tx: Tx, scope: Scope, idCliente: number) {
  return tx
    .selectFrom('app.vw_clientes')
    .select(detailColumns)
    .where((eb) => eb.and([...inScope(eb, scope), eb('id_cliente', '=', idCliente)]))
    .executeTakeFirst();
}

export type ClientDetailRow = NonNullable<Awaited<ReturnType<typeof selectClient>>>;

/** The latest orders of one client, Campo's and the ERP's; the caller has checked the client is in scope. */
export function selectClientOrders(tx: Tx, idEmpresa: number, idCliente: number, limit: number) {
  return tx
    .selectFrom('app.vw_pedidos_cliente')
    .select([
      'origem',
      'id_pedido',
      'id_pedido_erp',
      'num_ped_sar',
      'num_pedido_erp',
      'emitido_em',
      'status',
      'valor_total',
      'cod_vendedor',
    ])
    .where('id_empresa', '=', idEmpresa)
    .where('id_cliente', '=', idCliente)
    .orderBy('emitido_em', 'desc')
    .orderBy('id_pedido', (ob) => ob.desc().nullsLast())
    .orderBy('id_pedido_erp', (ob) => ob.desc().nullsLast())
    .limit(limit)
    .execute();
}

/** One order placed in the ERP for this client (not a replica of a Campo order), or undefined. */
export function selectErpOrder(tx: Tx, idEmpresa: number, idCliente: number, idPedidoErp: number) {
  return tx
    .selectFrom('app.vw_pedidos_cliente')
    .select(['id_pedido_erp', 'num_pedido_erp', 'emitido_em', 'status', 'valor_total', 'cod_vendedor'])
    .where('origem', '=', 'erp')
    .where('id_empresa', '=', idEmpresa)
    .where('id_cliente', '=', idCliente)
    .where('id_pedido_erp', '=', idPedidoErp)
    .executeTakeFirst();
}

export function selectErpOrderLines(tx: Tx, idEmpresa: number, idPedidoErp: number) {
  return tx
    .selectFrom('app.vw_pedidos_erp_itens')
    .select([
      'seq',
      'id_produto',
      'cod_produto',
      'descricao',
      'unidade',
      'quantidade',
      'preco_tabela',
      'preco_unitario',
      'perc_desconto',
      'valor_total',
    ])
    .where('id_empresa', '=', idEmpresa)
    .where('id_pedido', '=', idPedidoErp)
    .orderBy('seq')
    .execute();
}

export async function upsertCreditLimit(
  tx: Tx,
  row: { idEmpresa: number; idCliente: number; limite: number; atualizadoPor: string },
): Promise<void> {
  await tx
    .insertInto('app.limites_credito')
    .values({
      id_empresa: row.idEmpresa,
      id_cliente: row.idCliente,
      limite: row.limite,
      atualizado_por: row.atualizadoPor,
    })
    .onConflict((oc) =>
      oc.columns(['id_empresa', 'id_cliente']).doUpdateSet((eb) => ({
        limite: eb.ref('excluded.limite'),
        atualizado_por: eb.ref('excluded.atualizado_por'),
        atualizado_em: eb.fn('now'),
      })),
    )
    .execute();
}

/** The client's titles (vw_titulos_cliente): open ones, and paid ones unless only open ones are asked. */
function clientTitles(tx: Tx, idEmpresa: number, idCliente: number, openOnly: boolean) {
  let query = tx
    .selectFrom('app.vw_titulos_cliente')
    .where('id_empresa', '=', idEmpresa)
    .where('id_cliente', '=', idCliente);
  if (openOnly) query = query.where('pago', '=', false);
  return query;
}

export async function countClientTitles(tx: Tx, idEmpresa: number, idCliente: number, openOnly: boolean) {
  const row = await clientTitles(tx, idEmpresa, idCliente, openOnly)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Open titles first, the most overdue first, then the paid ones, the latest payment first. */
export function selectClientTitles(
  tx: Tx,
  idEmpresa: number,
  idCliente: number,
  openOnly: boolean,
  limit: number,
  offset: number,
) {
  return (
    clientTitles(tx, idEmpresa, idCliente, openOnly)
      .select(['id_titulo', 'num_documento', 'valor', 'valor_pago', 'valor_em_aberto', 'pago', 'dias_atraso'])
      .select([
        sql<string>`to_char(dt_emissao, 'YYYY-MM-DD')`.as('emissao'),
        sql<string>`to_char(dt_vencimento, 'YYYY-MM-DD')`.as('vencimento'),
        sql<string | null>`to_char(dt_pagamento, 'YYYY-MM-DD')`.as('pagamento'),
      ])
      .orderBy('pago')
      // Open ones by due date; the paid ones by their payment alone (the due date is null for them
      // here), the latest first.
      .orderBy(sql`case when not pago then dt_vencimento end`)
      .orderBy('dt_pagamento', (ob) => ob.desc().nullsLast())
      .orderBy('id_titulo')
      .limit(limit)
      .offset(offset)
      .execute()
  );
}

/**
 * The client's mix (issue #41) as rows, the most bought first (rank 1 up to CLIENT_MIX_MAX):
 * for each product the client bought in the last CLIENT_MIX_MONTHS months, through ERP orders
 * not cancelled (app.vw_pedidos_cliente, app.vw_pedidos_erp_itens) or Campo orders approved
 * or invoiced (their own lines, app.pedido_itens), how many orders had it, the median quantity of
 * its lines, the unit price and the date of the latest purchase. One builder for the clients'
 * replicated documents (`ids` null: the whole tenant at a refresh; a few clients when a write
 * touches them) and for GET /clients/{id}/mix, so the phone and the REST route never disagree.
 * A Campo order joins the mix at its approval, not when placed: pending, it may still be
 * rejected, and the order's own transaction moves only two fields of the client's document
 * (clientLastOrderWrites), while its approval builds the document whole.
 * The window starts at today's midnight on the session's clock (São Paulo's) less the months:
 * a refresh on the day an old order leaves it rewrites that client's document, once.
 */
export function mixRows(idEmpresa: number, ids: number[] | null) {
  const since = sql`date_trunc('day', now() at time zone 'America/Sao_Paulo') - make_interval(months => ${CLIENT_MIX_MONTHS})`;
  const only = ids === null ? sql`` : sql`and o.id_cliente = any(${ids}::integer[])`;
  return sql<MixRow>`
    select m.id_cliente, m.id_produto, m.pedidos, m.quantidade, m.preco, m.ultima, m.posicao
      from (select l.id_cliente, l.id_produto,
                   count(distinct l.pedido)::integer as pedidos,
                   percentile_disc(0.5) within group (order by l.quantidade)::float8 as quantidade,
                   ((array_agg(l.preco order by l.em desc, l.pedido desc))[1])::float8 as preco,
                   to_char(max(l.em), 'YYYY-MM-DD') as ultima,
                   row_number() over (partition by l.id_cliente
                                      order by count(distinct l.pedido) desc, max(l.em) desc, l.id_produto)::integer as posicao
              from (select o.id_cliente, i.id_produto, -o.id_pedido_erp::bigint as pedido, o.emitido_em_local as em,
                           i.quantidade, i.preco_unitario as preco
                      from app.vw_pedidos_cliente o
                      join app.vw_pedidos_erp_itens i on i.id_pedido = o.id_pedido_erp and i.id_empresa = o.id_empresa
                     where o.origem = 'erp' and o.status <> 'cancelled' and o.id_empresa = ${idEmpresa}
                       and o.emitido_em_local >= ${since} ${only}
                    union all
                    select o.id_cliente, i.id_produto, o.id_pedido, o.emitido_em_local,
                           i.quantidade, i.preco_unitario
                      from app.vw_pedidos_cliente o
                      join app.pedido_itens i on i.id_pedido = o.id_pedido and i.id_empresa = o.id_empresa
                     where o.origem = 'campo' and o.status in ('approved', 'invoiced') and o.id_empresa = ${idEmpresa}
                       and o.emitido_em_local >= ${since} ${only}) l
             where l.id_produto is not null and l.quantidade > 0
             group by l.id_cliente, l.id_produto) m
     where m.posicao <= ${CLIENT_MIX_MAX}`;
}

export interface MixRow {
  id_cliente: number;
  id_produto: number;
  pedidos: number;
  quantidade: number;
  preco: number;
  ultima: string;
  posicao: number;
}

/** One client's mix with each product's code, description and unit, the most bought first. */
export function selectClientMix(tx: Tx, idEmpresa: number, idCliente: number) {
  return sql<MixRow & { cod_produto: string | null; descricao: string | null; unidade: string | null }>`
    select m.*, p.cod_produto, p.descricao, p.unidade
      from (${mixRows(idEmpresa, [idCliente])}) m
      left join app.vw_produtos p on p.id_empresa = ${idEmpresa} and p.id_produto = m.id_produto
     order by m.posicao`
    .execute(tx)
    .then((r) => r.rows);
}
