import {
  CREDIT_POLICIES,
  type CreditPolicy,
  DEFAULT_CREDIT_POLICY,
  type ErpEncoding,
  FLEX_OFF,
  type FlexPolicy,
  isErpEncoding,
} from '@campo/shared';
import { type Insertable, type RawBuilder, sql } from 'kysely';
import { collectionLockKey } from '../changelog/changelog.ts';
import { PREPARED } from '../db/prepared.ts';
import type { Tx } from '../db/scope.ts';
import type { AppPedidoItens, AppPedidos } from '../db/types.ts';
import { type PendingApprovalAudience, pendingApprovalAudienceSql } from '../notifications/order-events.ts';
import type { EngineRuleRow } from '../policies/service.ts';

/** What an order's checks read of its client. */
export interface OrderClientRow {
  id_cliente: number;
  cod_vendedor: number | null;
  id_pauta: number | null;
  razao_social: string | null;
  /** How people name it (shared clientDisplayName): the trade name, else the legal name. */
  nome: string | null;
  cnpj_cpf: string | null;
  end_entrega: string | null;
  status_financeiro: string | null;
  /** The client's default payment term in the ERP (none for a client registered through Campo). */
  id_condicao: number | null;
  /** The client's credit limit; null when none is set (no credit check). */
  limite_credito: number | null;
  /** Its open receivables in the ERP. */
  valor_em_aberto: number | null;
  /** Its Campo orders pending or approved, summed only when it has a limit (null otherwise). */
  pedidos_em_aberto: number | null;
}

/** The payment term the order goes on, as the client may use it (issue #19). */
export interface OrderPaymentTermRow {
  id_condicao: number;
  descricao: string | null;
  ativo: boolean | null;
  /** No restriction rows for the client in the ERP, or one for this term. */
  permitida: boolean;
}

/** A product of the order with its list price on the order's pauta (null when not on it). */
export interface OrderProductRow {
  id_produto: number;
  cod_produto: string | null;
  descricao: string | null;
  categoria: string | null;
  cod_grupo: number | null;
  cod_subgrupo: number | null;
  ativo: boolean | null;
  preco: number | null;
}

export interface OrderContext {
  /** The answer stored under the Idempotency-Key, when the key was used before. */
  key: { rota: string; hash_requisicao: string; status_resposta: number; corpo_resposta: Buffer } | null;
  client: OrderClientRow | null;
  /** Whether the pauta the order names exists (true when it names none). */
  pautaExists: boolean;
  products: OrderProductRow[];
  ceilings: { categoria: string | null; perc_desc_max: number | null }[];
  rules: EngineRuleRow[];
  /** The term asked, else the client's default; null when neither names one the ERP knows. */
  paymentTerm: OrderPaymentTermRow | null;
  /** The tenant's credit policy (app.config_empresa.politica_credito), 'flag' without a row. */
  creditPolicy: CreditPolicy;
  /** The tenant's flex settings (app.config_empresa), FLEX_OFF without a row. */
  flexPolicy: FlexPolicy;
  /** Who hears of the order (the representative's name, the approvers with a device). */
  audience: PendingApprovalAudience;
  /** The order's id, drawn now so the order's rows and texts can be written with it in one round trip. */
  idPedido: number;
  /** The transaction's start: the order's criado_em. */
  now: Date;
  /** The ERP database's encoding: what the order's ERP-bound text is made to fit. */
  encoding: ErpEncoding;
}

/** The context read's row, as PostgreSQL sends it (readOrderContext). */
export type OrderContextRow = {
  rota: string | null;
  hash_requisicao: string | null;
  status_resposta: number | null;
  corpo_resposta: Buffer | null;
  cliente: OrderClientRow | null;
  pauta_existe: boolean;
  produtos: OrderProductRow[] | null;
  tetos: OrderContext['ceilings'] | null;
  regras: EngineRuleRow[] | null;
  condicao: OrderPaymentTermRow | null;
  regras_dinheiro: {
    politica_credito: string | null;
    flex_percentual_credito: number | null;
    flex_maximo_pontos: number | null;
  } | null;
  id_pedido: number;
  agora: Date;
  codificacao: string;
} & PendingApprovalAudience;

/**
 * Everything an order is checked against, in ONE prepared statement (one round trip, planned
 * once per connection): the answer stored under its key, the client, whether the pauta it
 * names exists, its products priced on its pauta (the one it names, else the client's), and
 * the representative's ceilings and the discount rules in force on `date` that may reach them
 * (the rows policies' loadCeilingInputs reads, for ceilingInputs), who is to hear of the
 * order (notifications' pendingApprovalAudienceSql), and the order's id and timestamp. The id
 * is drawn for a replay or a refused order too: ids have gaps, the orders' numbers do not
 * (insertOrderSql draws those). Must run after the key's lock
 * (orderKeyLock), in a later statement, which may be sent with it (withScopePipelined): its
 * snapshot then sees a first request's commit.
 */
export function orderContextSql(p: {
  idEmpresa: number;
  idUsuario: number;
  chave: string;
  codVendedor: number;
  idCliente: number;
  idPauta: number | null;
  idProdutos: number[];
  /** The payment term the order asks for; null for the client's default. */
  idCondicao: number | null;
  date: string;
}): RawBuilder<OrderContextRow> {
  return sql<OrderContextRow>`${sql.raw(PREPARED)}
    with cliente as (
      select c.id_cliente, c.cod_vendedor, c.id_pauta, c.razao_social,
             coalesce(nullif(btrim(c.nome_fantasia), ''), c.razao_social) as nome,
             c.cnpj_cpf, c.end_entrega, c.status_financeiro,
             c.id_condicao, c.limite_credito, c.valor_em_aberto,
             -- Summed only for a client with a limit (CASE runs the sum only then), and after the
             -- limit's lock (orderKeyLock): this statement's snapshot sees every order that
             -- held the lock before.
             case when c.limite_credito is not null then c.pedidos_em_aberto end as pedidos_em_aberto
        from app.vw_clientes c
       where c.id_empresa = ${p.idEmpresa} and c.id_cliente = ${p.idCliente}
    )
    select k.rota, k.hash_requisicao, k.status_resposta, k.corpo_resposta,
           (select row_to_json(c) from cliente c) as cliente,
           (${p.idPauta}::integer is null
             or exists (select 1 from app.vw_pautas pa where pa.id_empresa = ${p.idEmpresa}
                                                       and pa.id_pauta = ${p.idPauta}::integer)) as pauta_existe,
           (select json_agg(json_build_object(
                     'id_produto', pr.id_produto, 'cod_produto', pr.cod_produto, 'descricao', pr.descricao,
                     'categoria', pr.categoria, 'cod_grupo', pr.cod_grupo, 'cod_subgrupo', pr.cod_subgrupo,
                     'ativo', pr.ativo, 'preco', pc.preco))
              from app.vw_produtos pr
              left join app.vw_precos pc
                     on pc.id_produto = pr.id_produto and pc.id_empresa = pr.id_empresa
                    and pc.id_pauta = coalesce(${p.idPauta}::integer, (select c.id_pauta from cliente c))
             where pr.id_empresa = ${p.idEmpresa} and pr.id_produto = any(${p.idProdutos}::integer[])) as produtos,
           (select json_agg(json_build_object('categoria', l.categoria, 'perc_desc_max', l.perc_desc_max))
              from app.vw_vendedor_limites l
             where l.id_empresa = ${p.idEmpresa} and l.cod_vendedor = ${p.codVendedor}) as tetos,
           (select json_agg(r order by r.id)
              from (select g.id, g.descricao, g.grupo, g.subgrupo, g.representante, g.id_pauta, g.percent,
                           to_char(g.vigencia_inicio, 'YYYY-MM-DD') as vigencia_inicio,
                           to_char(g.vigencia_fim, 'YYYY-MM-DD') as vigencia_fim, g.promocao
                      from app.regras_desconto g
                     where g.id_empresa = ${p.idEmpresa}
                       and (g.representante is null or g.representante = ${p.codVendedor})
                       and g.vigencia_inicio <= ${p.date}::date
                       and (g.vigencia_fim is null or g.vigencia_fim >= ${p.date}::date)) r) as regras,
           (select json_build_object(
                     'id_condicao', t.id_condicao, 'descricao', t.descricao, 'ativo', t.ativo,
                     -- A client with no terms of its own may use any; one with some, only those: one
                     -- scan of its terms (bool_or of none is null) instead of a scan for each case.
                     'permitida', (select coalesce(bool_or(coalesce(x.id_condicao = t.id_condicao, false)), true)
                                     from app.vw_clientes_condicoes x
                                    where x.id_empresa = ${p.idEmpresa} and x.id_cliente = ${p.idCliente}))
              from app.vw_condicoes_pagamento t
             where t.id_empresa = ${p.idEmpresa}
               and t.id_condicao = coalesce(${p.idCondicao}::integer, (select c.id_condicao from cliente c))
             -- The head office's definition first, should a branch define the same id.
             order by t.id_filial <> t.id_empresa
             limit 1) as condicao,
           -- The tenant's money rules (the company domain's moneyRulesOf reads the same row), here
           -- so that no statement is added to the order: its credit policy and flex settings.
           (select json_build_object('politica_credito', cf.politica_credito,
                                     'flex_percentual_credito', cf.flex_percentual_credito,
                                     'flex_maximo_pontos', cf.flex_maximo_pontos)
              from app.config_empresa cf where cf.id_empresa = ${p.idEmpresa}) as regras_dinheiro,
           ${pendingApprovalAudienceSql(p.idEmpresa, p.codVendedor)},
           nextval('app.pedidos_id_seq') as id_pedido, now() as agora,
           getdatabaseencoding() as codificacao
      from (select) um
      left join app.chaves_idempotencia k
             on k.id_empresa = ${p.idEmpresa} and k.id_usuario = ${p.idUsuario} and k.chave = ${p.chave}`;
}

/** The context read's answer (orderContextSql), as the order's checks use it. */
export function readOrderContext(rows: OrderContextRow[]): OrderContext {
  const r = rows[0];
  if (!r) throw new Error('the order context statement returned no row');
  return {
    key:
      r.rota === null || r.hash_requisicao === null || r.status_resposta === null || r.corpo_resposta === null
        ? null
        : {
            rota: r.rota,
            hash_requisicao: r.hash_requisicao,
            status_resposta: r.status_resposta,
            corpo_resposta: r.corpo_resposta,
          },
    client: r.cliente,
    pautaExists: r.pauta_existe,
    products: r.produtos ?? [],
    ceilings: r.tetos ?? [],
    rules: r.regras ?? [],
    paymentTerm: r.condicao,
    creditPolicy: CREDIT_POLICIES.find((c) => c === r.regras_dinheiro?.politica_credito) ?? DEFAULT_CREDIT_POLICY,
    flexPolicy: r.regras_dinheiro
      ? {
          creditSharePercent: Number(r.regras_dinheiro.flex_percentual_credito ?? 0),
          maxBeyondCeilingPoints: Number(r.regras_dinheiro.flex_maximo_pontos ?? 0),
        }
      : FLEX_OFF,
    audience: { nome_vendedor: r.nome_vendedor, aprovadores: r.aprovadores },
    idPedido: r.id_pedido,
    now: r.agora,
    // Provisioning refuses any other encoding; LATIN1's text fits the other two as well.
    encoding: isErpEncoding(r.codificacao) ? r.codificacao : 'LATIN1',
  };
}

export type NewOrderRow = Omit<Insertable<AppPedidos>, 'num_ped_sar' | 'id_empresa' | 'id'> & { id: number };
export type NewOrderLineRow = Omit<Insertable<AppPedidoItens>, 'id_pedido' | 'id_empresa' | 'seq'>;

/**
 * The order's row with the id its context read drew, numbered from the tenant's sequence: the
 * number is drawn only here, once the order passed its checks, so a refused order leaves no
 * gap in the numbering.
 */
export function insertOrderSql(idEmpresa: number, order: NewOrderRow): RawBuilder<{ num_ped_sar: number }> {
  return sql<{ num_ped_sar: number }>`${sql.raw(PREPARED)}
      insert into app.pedidos (id, id_empresa, num_ped_sar, cod_vendedor, id_cliente, nome_cliente, cnpj_cpf_cliente,
                               end_entrega, id_pauta, observacao, valor_bruto, valor_desconto, valor_total,
                               id_condicao, condicao_pagamento, credito_limite, credito_aberto, credito_disponivel,
                               credito_excedido, flex_gerado, flex_usado)
      values (${order.id}, ${idEmpresa}, app.proximo_num_ped_sar(${idEmpresa}), ${order.cod_vendedor}, ${order.id_cliente},
              ${order.nome_cliente}, ${order.cnpj_cpf_cliente ?? null}, ${order.end_entrega ?? null},
              ${order.id_pauta ?? null}, ${order.observacao ?? null}, ${order.valor_bruto ?? 0},
              ${order.valor_desconto ?? 0}, ${order.valor_total ?? 0},
              ${order.id_condicao ?? null}, ${order.condicao_pagamento ?? null}, ${order.credito_limite ?? null},
              ${order.credito_aberto ?? null}, ${order.credito_disponivel ?? null}, ${order.credito_excedido ?? false},
              ${order.flex_gerado ?? 0}, ${order.flex_usado ?? 0})
      returning num_ped_sar`;
}

/** What else a new order writes in its last statement, built by the domains that own it. */
export interface OrderRestWrites {
  /** The change-log revision of the order's document (the change log's drawnDocumentWrite). */
  pedidos: RawBuilder<unknown>;
  /** The change-log revision of its client's document, its last order date moved (clients' clientLastOrderWrites). */
  clientes: RawBuilder<unknown>;
  /** Whether the client's document is logged at all (clientDocumentLogged): asked only when `clientes` wrote nothing. */
  clientLogged: RawBuilder<boolean>;
  /** The approvers' push messages (notifications' pendingApprovalOutbox); null: nobody to tell. */
  outbox: RawBuilder<unknown> | null;
  /**
   * The change-log revision of the representative's flex document, for an order that spends
   * flex (the flex ledger's reserveNewOrderFlex, which took the collection's lock); null: none.
   */
  ajustes: RawBuilder<unknown> | null;
}

/** Which of the documents insertOrderRestSql writes changed (the caller announces them), and whether the client's is logged. */
export interface OrderRestWritten {
  pedidos: boolean;
  clientes: boolean;
  ajustes: boolean;
  cliente_logado: boolean;
}

/**
 * The order's number inside insertOrderRestSql (its CTE numero), for the texts written there
 * with a placeholder where the number goes (db/drawn.ts).
 */
export const drawnOrderNumber = sql<number>`(select numero.num_ped_sar from numero)`;

/**
 * The rest of a new order in one prepared statement: its lines, its first history entry
 * (pending approval, by `usuario`), the answer stored under its Idempotency-Key, the
 * change-log revisions of the order's and its client's documents and, when it spent flex, of
 * its representative's flex document (whether each was written: the caller announces them once
 * committed), and the approvers' push messages. Not with the order's row: the representative's row-level
 * policies on lines and history look the order up, and a statement does not see its own
 * inserts; the client's document reads the client's last order date, which needs the order's
 * row too. Sent with the order's row (and COMMIT), in the same round trip: it reads the number
 * that row drew (drawnOrderNumber) and writes it into the stored answer, the order's document
 * and the push messages, built with a placeholder in its place.
 */
export function insertOrderRestSql(
  idEmpresa: number,
  idPedido: number,
  lines: NewOrderLineRow[],
  usuario: string,
  key: {
    id_usuario: number;
    chave: string;
    rota: string;
    hash_requisicao: string;
    corpo_resposta: RawBuilder<Buffer>;
  },
  writes: OrderRestWrites,
): RawBuilder<OrderRestWritten> {
  const col = <K extends keyof NewOrderLineRow>(k: K) => lines.map((l) => l[k] ?? null);
  return sql<OrderRestWritten>`${sql.raw(PREPARED)}
    with numero as (
      select p.num_ped_sar from app.pedidos p where p.id_empresa = ${idEmpresa} and p.id = ${idPedido}
    ),
    itens as (
      insert into app.pedido_itens (id_pedido, seq, id_empresa, id_produto, cod_produto, descricao, categoria,
                                    cod_grupo, cod_subgrupo, quantidade, preco_tabela, preco_unitario,
                                    perc_desconto, teto_desconto, id_regra, id_pauta, valor_total, flex_gerado,
                                    flex_usado)
      select ${idPedido}, l.seq, ${idEmpresa}, l.id_produto, l.cod_produto, l.descricao, l.categoria, l.cod_grupo,
             l.cod_subgrupo, l.quantidade, l.preco_tabela, l.preco_unitario, l.perc_desconto, l.teto_desconto,
             l.id_regra, l.id_pauta, l.valor_total, l.flex_gerado, l.flex_usado
        from unnest(${col('id_produto')}::integer[], ${col('cod_produto')}::text[], ${col('descricao')}::text[],
                       ${col('categoria')}::text[], ${col('cod_grupo')}::integer[], ${col('cod_subgrupo')}::integer[],
                       ${col('quantidade')}::numeric[], ${col('preco_tabela')}::numeric[],
                       ${col('preco_unitario')}::numeric[], ${col('perc_desconto')}::numeric[],
                       ${col('teto_desconto')}::numeric[], ${col('id_regra')}::bigint[], ${col('id_pauta')}::integer[],
                       ${col('valor_total')}::numeric[], ${col('flex_gerado')}::numeric[], ${col('flex_usado')}::numeric[])
             with ordinality as l(id_produto, cod_produto, descricao, categoria, cod_grupo, cod_subgrupo, quantidade,
                                  preco_tabela, preco_unitario, perc_desconto, teto_desconto, id_regra, id_pauta,
                                  valor_total, flex_gerado, flex_usado, seq)
    ),
    historico as (
      insert into app.pedido_status_historico (id_pedido, id_empresa, situa_de, situa_para, usuario, motivo)
      values (${idPedido}, ${idEmpresa}, null, 1, ${usuario}, null)
    ),
    chave as (
      insert into app.chaves_idempotencia (id_empresa, id_usuario, chave, rota, hash_requisicao, status_resposta,
                                           corpo_resposta, id_pedido)
      values (${idEmpresa}, ${key.id_usuario}, ${key.chave}, ${key.rota}, ${key.hash_requisicao}, 201,
              ${key.corpo_resposta}, ${idPedido})
    ),
    ${writes.outbox ? sql`envios as (${writes.outbox}),` : sql``}
    ${writes.ajustes ? sql`doc_flex as (${writes.ajustes}),` : sql``}
    doc_pedido as (${writes.pedidos}),
    doc_cliente as (${writes.clientes})
    select exists (select 1 from doc_pedido) as pedidos, exists (select 1 from doc_cliente) as clientes,
           ${writes.ajustes ? sql`exists (select 1 from doc_flex)` : sql`false`} as ajustes,
           -- OR evaluates its second operand only when the first is false: the lookup runs only then.
           (exists (select 1 from doc_cliente) or ${writes.clientLogged}) as cliente_logado
    `;
}

export async function insertHistory(
  tx: Tx,
  row: {
    id_pedido: number;
    id_empresa: number;
    situa_de: number | null;
    situa_para: number;
    usuario: string;
    motivo: string | null;
  },
): Promise<void> {
  await tx.insertInto('app.pedido_status_historico').values(row).execute();
}

const orderColumns = [
  'id',
  'id_empresa',
  'cod_vendedor',
  'num_ped_sar',
  'situa',
  'id_cliente',
  'nome_cliente',
  'cnpj_cpf_cliente',
  'end_entrega',
  'id_pauta',
  'observacao',
  'valor_bruto',
  'valor_desconto',
  'valor_total',
  'erp_id_pedido',
  'motivo_rejeicao',
  'decidido_por',
  'decidido_em',
  'criado_em',
  'id_condicao',
  'condicao_pagamento',
  'credito_limite',
  'credito_aberto',
  'credito_disponivel',
  'credito_excedido',
  'flex_gerado',
  'flex_usado',
] as const;

export function selectOrder(tx: Tx, idEmpresa: number, id: number, forUpdate = false) {
  const q = tx.selectFrom('app.pedidos').select(orderColumns).where('id_empresa', '=', idEmpresa).where('id', '=', id);
  return (forUpdate ? q.forUpdate() : q).executeTakeFirst();
}
export type OrderRow = NonNullable<Awaited<ReturnType<typeof selectOrder>>>;

/** The lines of several orders, in order and line order. */
export function selectOrderLines(tx: Tx, idEmpresa: number, ids: readonly number[]) {
  return tx
    .selectFrom('app.pedido_itens as i')
    .leftJoin('app.regras_desconto as r', (j) =>
      j.onRef('r.id', '=', 'i.id_regra').onRef('r.id_empresa', '=', 'i.id_empresa'),
    )
    .select([
      'i.id_pedido',
      'i.seq',
      'i.id_produto',
      'i.cod_produto',
      'i.descricao',
      'i.categoria',
      'i.quantidade',
      'i.preco_tabela',
      'i.preco_unitario',
      'i.perc_desconto',
      'i.teto_desconto',
      'i.id_regra',
      'r.descricao as descricao_regra',
      'i.id_pauta',
      'i.valor_total',
      'i.flex_gerado',
      'i.flex_usado',
    ])
    .where('i.id_empresa', '=', idEmpresa)
    .where('i.id_pedido', 'in', ids.length > 0 ? [...ids] : [0])
    .orderBy('i.id_pedido')
    .orderBy('i.seq')
    .execute();
}

/** The status history of several orders, oldest first. */
export function selectHistory(tx: Tx, idEmpresa: number, ids: readonly number[]) {
  return tx
    .selectFrom('app.pedido_status_historico as h')
    .leftJoin('app.usuarios as u', 'u.login', 'h.usuario')
    .select(['h.id_pedido', 'h.situa_de', 'h.situa_para', 'h.usuario', 'u.nome', 'h.motivo', 'h.criado_em'])
    .where('h.id_empresa', '=', idEmpresa)
    .where('h.id_pedido', 'in', ids.length > 0 ? [...ids] : [0])
    .orderBy('h.id')
    .execute();
}

/** The ERP situation of the replicated orders, by ERP order id. */
export function selectErpSituations(tx: Tx, idEmpresa: number, erpIds: readonly number[]) {
  return tx
    .selectFrom('app.vw_sitpedido')
    .select(['id_pedido', 'num_pedido', 'situacao_descricao'])
    .where('id_empresa', '=', idEmpresa)
    .where('id_pedido', 'in', erpIds.length > 0 ? [...erpIds] : [0])
    .execute();
}

/** Several orders of the tenant, by id. */
export function selectOrdersById(tx: Tx, idEmpresa: number, ids: readonly number[]) {
  return (
    tx
      .selectFrom('app.pedidos')
      .select(orderColumns)
      // The name of who decided, for people to read (lossless-encoded like every users' name).
      .select((eb) =>
        eb
          .selectFrom('app.usuarios as u')
          .select('u.nome')
          .whereRef('u.login', '=', 'app.pedidos.decidido_por')
          .as('nome_decidido_por'),
      )
      .where('id_empresa', '=', idEmpresa)
      .where('id', 'in', ids.length > 0 ? [...ids] : [0])
      .execute()
  );
}

/**
 * The orders a representative's device holds: those still waiting for a decision, and any
 * other created in the last `days` days. Older decided orders leave the devices (tombstones);
 * the server keeps them for the REST routes.
 */
export function selectReplicatedOrders(tx: Tx, idEmpresa: number, days: number, ids: readonly number[] | null) {
  let q = tx
    .selectFrom('app.pedidos as p')
    .leftJoin('app.chaves_idempotencia as k', (j) =>
      j.onRef('k.id_pedido', '=', 'p.id').onRef('k.id_empresa', '=', 'p.id_empresa'),
    )
    .select(['p.id', 'p.cod_vendedor', 'k.chave'])
    .where('p.id_empresa', '=', idEmpresa)
    .where((eb) =>
      eb.or([eb('p.situa', '=', 1), eb('p.criado_em', '>=', sql<Date>`now() - make_interval(days => ${days})`)]),
    );
  if (ids !== null) q = q.where('p.id', 'in', ids.length > 0 ? [...ids] : [0]);
  return q.execute();
}

export function selectTeam(tx: Tx, idEmpresa: number, codSupervisor: number) {
  return tx
    .selectFrom('app.vw_vendedores')
    .select('cod_vendedor')
    .where('id_empresa', '=', idEmpresa)
    .where('cod_supervisor', '=', codSupervisor)
    .execute();
}

export async function updateDecision(
  tx: Tx,
  idEmpresa: number,
  id: number,
  change: { situa: 2 | 4; decidido_por: string; motivo_rejeicao: string | null },
) {
  return tx
    .updateTable('app.pedidos')
    .set({ ...change, decidido_em: sql`now()`, atualizado_em: sql`now()` })
    .where('id_empresa', '=', idEmpresa)
    .where('id', '=', id)
    .where('situa', '=', 1)
    .returning(['erp_id_pedido'])
    .executeTakeFirst();
}

/** An approved order the ERP brought to an end (reconcileErpEnds). */
export interface ErpEnd {
  id: number;
  id_cliente: number;
  cod_vendedor: number;
  /** 3 invoiced, 5 cancelled (the replica cancelled or deleted in the ERP). */
  situa: 3 | 5;
  motivo: string;
  flex_usado: number;
  flex_gerado: number;
}

/**
 * Approved orders whose ERP copy reached an end take it, with a history line by 'erp': the
 * ERP is the source of that fact (vw_sitpedido). Invoiced ('F') becomes invoiced (3); cancelled
 * ('C'), or gone from the ERP (deleted before it was invoiced), becomes cancelled (5). Only
 * approved orders are looked at (as before, a few per tenant), so an order invoiced stays
 * invoiced whatever the ERP does later (docs/orders.md, "Status"). Returns the orders that
 * moved, with what they held.
 */
export async function reconcileErpEnds(tx: Tx, idEmpresa: number): Promise<ErpEnd[]> {
  const moved = await sql<ErpEnd>`
    with fins as (
      select p.id,
             case when s.situacao = 'F' then 3 else 5 end::smallint as situa,
             case when s.id_pedido is null then 'excluído no ERP'
                  when s.situacao = 'C' then 'cancelado no ERP'
                  else 'faturado no ERP' end as motivo
        from app.pedidos p
        left join app.vw_sitpedido s on s.id_empresa = p.id_empresa and s.id_pedido = p.erp_id_pedido
       where p.id_empresa = ${idEmpresa}
         and p.situa = 2
         and p.erp_id_pedido is not null
         and (s.id_pedido is null or s.situacao in ('F', 'C'))
    ),
    movidos as (
      update app.pedidos p
         set situa = f.situa, atualizado_em = now()
        from fins f
       where p.id_empresa = ${idEmpresa} and p.id = f.id and p.situa = 2
      returning p.id, p.id_empresa, p.id_cliente, p.cod_vendedor, p.situa, f.motivo, p.flex_usado, p.flex_gerado
    ),
    historico as (
      insert into app.pedido_status_historico (id_pedido, id_empresa, situa_de, situa_para, usuario, motivo)
      select id, id_empresa, 2, situa, 'erp', motivo from movidos
    )
    select id, id_cliente, cod_vendedor, situa, motivo, flex_usado, flex_gerado from movidos`.execute(tx);
  return moved.rows.map((r) => ({ ...r, flex_usado: Number(r.flex_usado), flex_gerado: Number(r.flex_gerado) }));
}

export interface OrderFilters {
  idEmpresa: number;
  codVendedores: number[] | null;
  situa?: number[];
  numPedSar?: number;
  idCliente?: number;
  from?: string;
  to?: string;
  limit: number;
  offset: number;
}

function filtered(tx: Tx, f: OrderFilters) {
  let q = tx.selectFrom('app.pedidos').where('id_empresa', '=', f.idEmpresa);
  if (f.codVendedores) q = q.where('cod_vendedor', 'in', f.codVendedores.length ? f.codVendedores : [-1]);
  if (f.situa?.length) q = q.where('situa', 'in', f.situa);
  if (f.numPedSar !== undefined) q = q.where('num_ped_sar', '=', f.numPedSar);
  if (f.idCliente !== undefined) q = q.where('id_cliente', '=', f.idCliente);
  // Dates are business days in São Paulo, inclusive.
  if (f.from) q = q.where(sql<boolean>`(criado_em at time zone 'America/Sao_Paulo')::date >= ${f.from}::date`);
  if (f.to) q = q.where(sql<boolean>`(criado_em at time zone 'America/Sao_Paulo')::date <= ${f.to}::date`);
  return q;
}

export async function selectOrders(tx: Tx, f: OrderFilters) {
  const [items, total] = await Promise.all([
    filtered(tx, f)
      .select([
        'id',
        'num_ped_sar',
        'situa',
        'cod_vendedor',
        'id_cliente',
        'nome_cliente',
        'valor_total',
        'criado_em',
        'credito_limite',
        'credito_aberto',
        'credito_disponivel',
        'credito_excedido',
      ])
      .orderBy('criado_em', 'desc')
      .orderBy('id', 'desc')
      .limit(f.limit)
      .offset(f.offset)
      .execute(),
    filtered(tx, f).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: total.n };
}

export function selectIdempotencyKey(tx: Tx, idEmpresa: number, idUsuario: number, chave: string) {
  return tx
    .selectFrom('app.chaves_idempotencia')
    .select(['hash_requisicao', 'status_resposta', 'corpo_resposta', 'id_pedido', 'rota'])
    .where('id_empresa', '=', idEmpresa)
    .where('id_usuario', '=', idUsuario)
    .where('chave', '=', chave)
    .executeTakeFirst();
}

export async function insertIdempotencyKey(
  tx: Tx,
  row: {
    id_empresa: number;
    id_usuario: number;
    chave: string;
    rota: string;
    hash_requisicao: string;
    status_resposta: number;
    corpo_resposta: Buffer;
    id_pedido: number | null;
  },
): Promise<void> {
  await tx.insertInto('app.chaves_idempotencia').values(row).execute();
}

/**
 * Select-list items for the order's first statement (withScopePipelined): takes the key for this
 * transaction without waiting, `ok` false when another request with the same key is still
 * being processed (it will answer 409 instead of queueing behind it). In the same statement, the shared locks of the change-log collections the order touches
 * (pedidos, and clientes for its client's last order date), which touchSqlDocuments would
 * otherwise take in a statement of its own. And, for the rest of the order's transaction,
 * generic plans from the first execution on: with custom plans PostgreSQL judged a custom plan
 * of the client's portfolio document cheaper every time and replanned its views on every
 * order (6 ms of planning for 2 ms of execution on the small fixture); the generic plans of
 * these statements look rows up by the same indexes.
 *
 * And the client's credit limit row, for update: orders for one client compete for its credit
 * in arrival order (docs/credit-and-flex.md). The order's context statement, a later statement
 * with a later snapshot, then sums the client's open orders with every order that held the
 * lock before it committed. A client without a limit has no row: nothing is locked, and its
 * orders do not wait for one another.
 */
export function orderKeyLock(
  idEmpresa: number,
  idUsuario: number,
  chave: string,
  idCliente: number,
): RawBuilder<{ ok: boolean }> {
  return sql<{ ok: boolean }>`set_config('plan_cache_mode', 'force_generic_plan', true),
    pg_try_advisory_xact_lock(hashtextextended(${keyLockName(idEmpresa, idUsuario, chave)}, 0)) as ok,
    pg_advisory_xact_lock_shared(hashtext(${collectionLockKey('pedidos')}), ${idEmpresa}),
    pg_advisory_xact_lock_shared(hashtext(${collectionLockKey('clientes')}), ${idEmpresa}),
    (select true from app.limites_credito l
      where l.id_empresa = ${idEmpresa} and l.id_cliente = ${idCliente}::integer for update) as credito_travado`;
}

const keyLockName = (idEmpresa: number, idUsuario: number, chave: string) =>
  `campo:idem:${idEmpresa}:${idUsuario}:${chave}`;

/**
 * Waits, at most `timeout` (a PostgreSQL interval), until no other transaction holds the key's
 * lock (orderKeyLock): the request creating the order under it has committed or rolled back.
 * Fails with lock_not_available (55P03) when the wait runs out.
 */
export async function waitForOrderKey(
  tx: Tx,
  idEmpresa: number,
  idUsuario: number,
  chave: string,
  timeout: string,
): Promise<void> {
  await sql`select set_config('lock_timeout', ${timeout}, true)`.execute(tx);
  await sql`select pg_advisory_xact_lock(hashtextextended(${keyLockName(idEmpresa, idUsuario, chave)}, 0))`.execute(tx);
}

/** The Idempotency-Key an order was created with: the id of its document on the devices. */
export async function selectKeyOfOrder(tx: Tx, idEmpresa: number, idPedido: number): Promise<string | null> {
  const row = await tx
    .selectFrom('app.chaves_idempotencia')
    .select('chave')
    .where('id_empresa', '=', idEmpresa)
    .where('id_pedido', '=', idPedido)
    .executeTakeFirst();
  return row?.chave ?? null;
}

/**
 * The ERP invoices of some orders (ERP ids), cancelled ones included (vw_notas_pedido), each
 * order's oldest first. Bounded by the orders asked for; the caller keeps ORDER_INVOICES_MAX
 * of each.
 */
export function selectOrdersInvoices(tx: Tx, idEmpresa: number, erpIds: readonly number[]) {
  return tx
    .selectFrom('app.vw_notas_pedido')
    .select(['id_nota', 'id_pedido', 'num_nota', 'serie', 'valor_total', 'cancelada'])
    .select(sql<string>`to_char(dt_emissao, 'YYYY-MM-DD')`.as('emissao'))
    .where('id_empresa', '=', idEmpresa)
    .where('id_pedido', '=', sql<number>`any(${sql.val([...erpIds])}::bigint[])`)
    .orderBy('id_pedido')
    .orderBy('dt_emissao')
    .orderBy('num_nota')
    .execute();
}

/**
 * The lines of some invoices of the tenant, in their own order: app.notas_itens_erp reads
 * only those invoices (none when the ERP keeps no lines), and the join keeps them to the
 * tenant's invoices of vw_notas_pedido.
 */
export function selectInvoiceLines(tx: Tx, idEmpresa: number, notaIds: readonly number[]) {
  return tx
    .selectFrom(
      sql<{
        id_nota: number | null;
        seq: number | null;
        id_produto: number | null;
        quantidade: number | null;
        valor_total: number | null;
      }>`app.notas_itens_erp(${sql.val([...notaIds])}::bigint[])`.as('i'),
    )
    .innerJoin('app.vw_notas_pedido as n', 'n.id_nota', 'i.id_nota')
    .select(['i.id_nota', 'i.id_produto', 'i.quantidade', 'i.valor_total'])
    .where('n.id_empresa', '=', idEmpresa)
    .orderBy('i.id_nota')
    .orderBy('i.seq')
    .execute();
}
