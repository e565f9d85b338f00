import { type Insertable, sql } from 'kysely';
import type { Tx } from '../db/scope.ts';
import type { PedidoItensTable, PedidosTable } from '../db/types.ts';

export function selectClientForOrder(tx: Tx, idEmpresa: number, idCliente: number) {
  return tx
    .selectFrom('app.vw_clientes')
    .select([
      'id_cliente',
      'cod_vendedor',
      'id_pauta',
      'razao_social',
      'cnpj_cpf',
      'end_entrega',
      'status_financeiro',
      'id_condicao',
    ])
    .where('id_empresa', '=', idEmpresa)
    .where('id_cliente', '=', idCliente)
    .executeTakeFirst();
}

export function selectPautaExists(tx: Tx, idEmpresa: number, idPauta: number) {
  return tx
    .selectFrom('app.vw_pautas')
    .select('id_pauta')
    .where('id_empresa', '=', idEmpresa)
    .where('id_pauta', '=', idPauta)
    .executeTakeFirst();
}

/**
 * A payment term as an order of the client may use it: its name, whether it is active, and
 * whether the client may buy on it (no restriction rows for the client, or one for the term).
 * The head office's definition first, should a branch define the same id.
 */
export function selectPaymentTermForClient(tx: Tx, idEmpresa: number, idCliente: number, idCondicao: number) {
  return tx
    .selectFrom('app.vw_condicoes_pagamento as c')
    .select((eb) => [
      'c.descricao',
      'c.ativo',
      eb
        .or([
          eb.not(
            eb.exists(
              eb
                .selectFrom('app.vw_clientes_condicoes as r')
                .select('r.id_condicao')
                .where('r.id_empresa', '=', idEmpresa)
                .where('r.id_cliente', '=', idCliente),
            ),
          ),
          eb.exists(
            eb
              .selectFrom('app.vw_clientes_condicoes as r')
              .select('r.id_condicao')
              .where('r.id_empresa', '=', idEmpresa)
              .where('r.id_cliente', '=', idCliente)
              .where('r.id_condicao', '=', idCondicao),
          ),
        ])
        .as('permitida'),
    ])
    .where('c.id_empresa', '=', idEmpresa)
    .where('c.id_condicao', '=', idCondicao)
    .orderBy(sql`c.id_filial <> c.id_empresa`)
    .limit(1)
    .executeTakeFirst();
}

/** The products of an order with their list price on the pauta (null when not on it). */
export function selectProductsWithPrice(tx: Tx, idEmpresa: number, idPauta: number, ids: number[]) {
  return tx
    .selectFrom('app.vw_produtos as p')
    .leftJoin('app.vw_precos as pr', (j) =>
      j
        .onRef('pr.id_produto', '=', 'p.id_produto')
        .onRef('pr.id_empresa', '=', 'p.id_empresa')
        .on('pr.id_pauta', '=', idPauta),
    )
    .select([
      'p.id_produto',
      'p.cod_produto',
      'p.descricao',
      'p.categoria',
      'p.cod_grupo',
      'p.cod_subgrupo',
      'p.ativo',
      'pr.preco',
    ])
    .where('p.id_empresa', '=', idEmpresa)
    .where('p.id_produto', 'in', ids)
    .execute();
}

export type NewOrderRow = Omit<Insertable<PedidosTable>, 'num_ped_sar' | 'id_empresa'>;
export type NewOrderLineRow = Omit<Insertable<PedidoItensTable>, 'id_pedido' | 'id_empresa' | 'seq'>;

/**
 * A new order in two statements rather than four (the busiest route of the API): the order
 * with its number from the tenant's sequence, then its lines and first history entry
 * (pending approval, by `usuario`) together. Not one: the representative's row-level policies
 * on lines and history look the order up, and a statement does not see its own inserts.
 */
export async function insertNewOrder(
  tx: Tx,
  idEmpresa: number,
  order: NewOrderRow,
  lines: NewOrderLineRow[],
  usuario: string,
): Promise<{ id: number; num_ped_sar: number; criado_em: Date }> {
  const col = <K extends keyof NewOrderLineRow>(k: K) => lines.map((l) => l[k] ?? null);
  const { rows } = await sql<{ id: number; num_ped_sar: number; criado_em: Date }>`
      insert into app.pedidos (id_empresa, num_ped_sar, cod_vendedor, id_cliente, nome_cliente, cnpj_cpf_cliente,
                               end_entrega, id_pauta, observacao, valor_bruto, valor_desconto, valor_total,
                               id_condicao, condicao_pagamento)
      values (${idEmpresa}, app.proximo_num_ped_sar(${idEmpresa}), ${order.cod_vendedor}, ${order.id_cliente},
              ${order.nome_cliente}, ${order.cnpj_cpf_cliente ?? null}, ${order.end_entrega ?? null},
              ${order.id_pauta ?? null}, ${order.observacao ?? null}, ${order.valor_bruto ?? 0},
              ${order.valor_desconto ?? 0}, ${order.valor_total ?? 0},
              ${order.id_condicao ?? null}, ${order.condicao_pagamento ?? null})
      returning id, num_ped_sar, criado_em`.execute(tx);
  const created = rows[0] as { id: number; num_ped_sar: number; criado_em: Date };
  await sql`
    with itens as (
      insert into app.pedido_itens (id_pedido, seq, id_empresa, id_produto, cod_produto, descricao, categoria,
                                    cod_grupo, cod_subgrupo, quantidade, preco_tabela, preco_unitario,
                                    perc_desconto, teto_desconto, id_regra, id_pauta, valor_total)
      select ${created.id}, l.seq, ${idEmpresa}, l.id_produto, l.cod_produto, l.descricao, l.categoria, l.cod_grupo,
             l.cod_subgrupo, l.quantidade, l.preco_tabela, l.preco_unitario, l.perc_desconto, l.teto_desconto,
             l.id_regra, l.id_pauta, l.valor_total
        from unnest(${col('id_produto')}::integer[], ${col('cod_produto')}::text[], ${col('descricao')}::text[],
                       ${col('categoria')}::text[], ${col('cod_grupo')}::integer[], ${col('cod_subgrupo')}::integer[],
                       ${col('quantidade')}::numeric[], ${col('preco_tabela')}::numeric[],
                       ${col('preco_unitario')}::numeric[], ${col('perc_desconto')}::numeric[],
                       ${col('teto_desconto')}::numeric[], ${col('id_regra')}::bigint[], ${col('id_pauta')}::integer[],
                       ${col('valor_total')}::numeric[])
             with ordinality as l(id_produto, cod_produto, descricao, categoria, cod_grupo, cod_subgrupo, quantidade,
                                  preco_tabela, preco_unitario, perc_desconto, teto_desconto, id_regra, id_pauta,
                                  valor_total, seq)
    )
    insert into app.pedido_status_historico (id_pedido, id_empresa, situa_de, situa_para, usuario, motivo)
    values (${created.id}, ${idEmpresa}, null, 1, ${usuario}, null)`.execute(tx);
  return created;
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

/**
 * Approved orders whose ERP copy is invoiced become invoiced, with a history line: the ERP is
 * the source of that fact (vw_sitpedido). Returns the ids that moved.
 */
export async function reconcileInvoiced(tx: Tx, idEmpresa: number): Promise<number[]> {
  const moved = await sql<{ id: number }>`
    with faturados as (
      update app.pedidos p
         set situa = 3, atualizado_em = now()
        from app.vw_sitpedido s
       where p.id_empresa = ${idEmpresa}
         and p.situa = 2
         and s.id_empresa = p.id_empresa
         and s.id_pedido = p.erp_id_pedido
         and s.situacao = 'F'
      returning p.id, p.id_empresa
    )
    insert into app.pedido_status_historico (id_pedido, id_empresa, situa_de, situa_para, usuario, motivo)
    select id, id_empresa, 2, 3, 'erp', 'faturado no ERP' from faturados
    returning id_pedido as id`.execute(tx);
  return moved.rows.map((r) => r.id);
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
      .select(['id', 'num_ped_sar', 'situa', 'cod_vendedor', 'id_cliente', 'nome_cliente', 'valor_total', 'criado_em'])
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
 * Takes the key for this transaction without waiting: false when another request with the
 * same key is still being processed (it will answer 409 instead of queueing behind it).
 */
export async function tryLockKey(tx: Tx, idEmpresa: number, idUsuario: number, chave: string): Promise<boolean> {
  const { rows } = await sql<{ ok: boolean }>`
    select pg_try_advisory_xact_lock(hashtextextended(${`campo:idem:${idEmpresa}:${idUsuario}:${chave}`}, 0)) as ok`.execute(
    tx,
  );
  return rows[0]?.ok === true;
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
