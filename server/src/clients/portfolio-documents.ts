// Collection clientes as documents: a representative's portfolio (every client for the others),
// built in SQL from the ERP's views (docs/sync.md), and the order's cheap move of its client's
// last order date in the logged document. One builder serves the refresh (the hash) and the
// pull (the JSON of the changed keys), so both always agree; the change log runs it
// (changelog/collection.ts, SqlDocuments).

import { CLIENT_TITLES_SYNC_MAX } from '@campo/shared';
import { type RawBuilder, sql } from 'kysely';
import type { DocumentRow, SqlDocuments } from '../changelog/collection.ts';
import { mixRows } from './queries.ts';

/**
 * A client's key carries its representative: when the ERP moves a client to another
 * portfolio, the old key becomes a tombstone the old representative pulls, and the new key a
 * document the new one pulls. The document id on the device stays the client id.
 */
const CLIENT_KEY = sql`concat(c.id_cliente, '@', c.cod_vendedor)`;

/** CLIENT_KEY for one client, in TypeScript. */
const clientKeyOf = (idCliente: number, codVendedor: number) => `${idCliente}@${codVendedor}`;

/**
 * A timestamp as the client's document writes its last order date: UTC with milliseconds,
 * written by SQL itself, so the JSON (and its hash) does not depend on the session's time zone.
 */
const utcMillis = (at: RawBuilder<unknown>) => sql`to_char(${at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The client's open Campo orders as its document writes them (numeric(14,2): "1234.50"), in
 * the builder and in the order's move of the logged document alike, so both write one text.
 */
const OPEN_ORDERS_OF = (idEmpresa: RawBuilder<unknown>, idCliente: RawBuilder<unknown>) =>
  sql`app.pedidos_em_aberto(${idEmpresa}, ${idCliente})::numeric(14, 2)`;

/**
 * The client's open titles as its document carries them (issue #41): the most overdue first,
 * at most CLIENT_TITLES_SYNC_MAX, and how many more. No days overdue: the phone counts them
 * from the due date, so the document changes when a title does, not every day.
 */
const OPEN_TITLES = sql`(select coalesce(json_agg(json_build_object('documento', t.num_documento,
                                                                     'vencimento', to_char(t.dt_vencimento, 'YYYY-MM-DD'),
                                                                     'valor', t.valor,
                                                                     'valorPago', t.valor_pago)
                                                   order by t.dt_vencimento, t.id_titulo), '[]'::json)
                          from (select * from app.vw_titulos_cliente t
                                 where t.id_empresa = c.id_empresa and t.id_cliente = c.id_cliente and not t.pago
                                 order by t.dt_vencimento, t.id_titulo
                                 limit ${CLIENT_TITLES_SYNC_MAX}) t)`;
const MORE_TITLES = sql`(select greatest(count(*) - ${CLIENT_TITLES_SYNC_MAX}, 0)::integer
                           from app.vw_titulos_cliente t
                          where t.id_empresa = c.id_empresa and t.id_cliente = c.id_cliente and not t.pago)`;

/**
 * The clients' mixes as their documents carry them (issue #41): per client one JSON array of
 * compact entries, [idProduto, pedidos, quantidadeUsual, ultimoPreco, ultimaCompra], the most
 * bought first. Built for the whole set at once (one pass over the window's order lines) and
 * joined to the clients, rather than one subquery per client.
 */
function mixes(idEmpresa: number, ids: number[] | null) {
  return sql`(select m.id_cliente,
                     json_agg(json_build_array(m.id_produto, m.pedidos, m.quantidade, m.preco, m.ultima)
                              order by m.posicao) as mix
                from (${mixRows(idEmpresa, ids)}) m
               group by m.id_cliente)`;
}

/**
 * The clients asked for as one array, for the ERP's optional functions that read only the
 * clients they are given (app.dias_visita_erp, app.posicao_clientes_erp): on a refresh, the
 * tenant's clients, read once for both (CLIENT_IDS, the builder's own CTE).
 */
const clientIds = (ids: number[] | null) =>
  ids === null ? sql`(select a.ids from ids_carteira a)` : sql`${ids}::integer[]`;
const CLIENT_IDS = (idEmpresa: number) =>
  sql`with ids_carteira as materialized (select coalesce(array_agg(v.id_cliente), '{}') as ids
                                           from app.vw_clientes v where v.id_empresa = ${idEmpresa})`;

/**
 * The clients' visit days as their documents carry them (issue #42): the ERP's where it keeps
 * some for the client, else Campo's plan (docs/visits.md, "The route"), so the phone computes
 * today's route offline with visitDue. PUT /visit-plans touches the client's document.
 */
function visitDays(idEmpresa: number, ids: number[] | null) {
  const only = ids === null ? sql`` : sql`and p.id_cliente = any(${ids}::integer[])`;
  return sql`(with erp as (select * from app.dias_visita_erp(${clientIds(ids)}))
              select d.id_cliente,
                     json_agg(json_build_object('diaSemana', d.dia_semana,
                                                'intervaloSemanas', d.intervalo_semanas,
                                                'dataBase', to_char(d.data_base, 'YYYY-MM-DD'))
                              order by d.dia_semana, d.intervalo_semanas, d.data_base) as dias
                from (select e.id_cliente, e.dia_semana, e.intervalo_semanas, e.data_base from erp e
                      union all
                      select p.id_cliente, p.dia_semana::integer, p.intervalo_semanas::integer, p.data_base
                        from app.roteiro_plano p
                       where p.id_empresa = ${idEmpresa} ${only}
                         and not exists (select 1 from erp e where e.id_cliente = p.id_cliente)) d
               group by d.id_cliente)`;
}

/**
 * The clients' known positions (issue #42): the ERP's, else one a supervisor confirmed from a
 * check-in; a proposal does not count (docs/visits.md, "Distance").
 */
function positions(idEmpresa: number, ids: number[] | null) {
  const only = ids === null ? sql`` : sql`and p.id_cliente = any(${ids}::integer[])`;
  return sql`(with erp as (select * from app.posicao_clientes_erp(${clientIds(ids)}))
              select e.id_cliente, e.latitude, e.longitude from erp e
              union all
              select p.id_cliente, p.latitude, p.longitude
                from app.clientes_posicao p
               where p.id_empresa = ${idEmpresa} and p.confirmada ${only}
                 and not exists (select 1 from erp e where e.id_cliente = p.id_cliente))`;
}

function clientDocuments(idEmpresa: number, ids: number[] | null): RawBuilder<DocumentRow> {
  const only = ids === null ? sql`` : sql`and c.id_cliente = any(${ids}::integer[])`;
  return sql<DocumentRow>`
    ${ids === null ? CLIENT_IDS(idEmpresa) : sql``}
    select ${CLIENT_KEY} as chave,
           c.cod_vendedor as escopo,
           c.id_cliente::text as documento,
           json_build_object(
             'id', c.id_cliente::text,
             'codVendedor', c.cod_vendedor,
             'name', c.razao_social,
             'tradeName', c.nome_fantasia,
             'document', c.cnpj_cpf,
             'documentType', case when c.tipo_pessoa = 'F' then 'CPF'
                                  when c.tipo_pessoa = 'J' then 'CNPJ'
                                  when length(coalesce(c.cnpj_cpf, '')) = 11 then 'CPF'
                                  else 'CNPJ' end,
             'street', c.endereco,
             'number', c.numero,
             'complement', c.complemento,
             'district', c.bairro,
             'zip', c.cep,
             'deliveryAddress', c.end_entrega,
             'city', c.cidade,
             'uf', c.uf,
             'phone', c.telefone,
             'email', c.email,
             'idPauta', c.id_pauta,
             'financialStatus', case when c.status_financeiro in ('ok', 'overdue', 'blocked')
                                     then c.status_financeiro else 'ok' end,
             'creditLimit', c.limite_credito,
             'openReceivables', c.valor_em_aberto,
             'openOrders', ${OPEN_ORDERS_OF(sql`c.id_empresa`, sql`c.id_cliente`)},
             'titulos', ${OPEN_TITLES},
             'titulosAlem', ${MORE_TITLES},
             'lastOrderAt', ${utcMillis(sql`c.ultimo_pedido_em`)},
             'active', coalesce(c.cadastro_ativo, false),
             'paymentTermId', c.id_condicao,
             'paymentTermIds', (select json_agg(cc.id_condicao order by cc.id_condicao)
                                  from app.vw_clientes_condicoes cc
                                 where cc.id_empresa = c.id_empresa and cc.id_cliente = c.id_cliente),
             'mix', coalesce(m.mix, '[]'::json),
             'diasVisita', coalesce(d.dias, '[]'::json),
             'posicao', case when pos.id_cliente is null then null
                             else json_build_object('latitude', pos.latitude, 'longitude', pos.longitude) end,
             '_deleted', false) as doc
      from app.vw_clientes c
      left join ${mixes(idEmpresa, ids)} m on m.id_cliente = c.id_cliente
      left join ${visitDays(idEmpresa, ids)} d on d.id_cliente = c.id_cliente
      left join ${positions(idEmpresa, ids)} pos on pos.id_cliente = c.id_cliente
     where c.id_empresa = ${idEmpresa} ${only}`;
}

export const portfolioDocuments: SqlDocuments<'clientes'> = {
  colecao: 'clientes',
  documents: clientDocuments,
  keys: (idEmpresa) =>
    sql<{ chave: string }>`select ${CLIENT_KEY} as chave from app.vw_clientes c where c.id_empresa = ${idEmpresa}`,
};

/**
 * An order placed through Campo moves its client's last order date to the order's own time (the
 * transaction's start, its criado_em) and its open Campo orders by the order's total, and
 * nothing else of the client's document: the logged document is rewritten with those two
 * fields, as a statement to run inside the order's (one row per revision written; the caller
 * holds the collection's shared lock and announces). Building the whole document there cost
 * the order more PostgreSQL CPU than all its other writes (the portfolio view's plan,
 * initialised at every execution: docs/orders.md, "Cost").
 *
 * Each field is replaced in the text json_build_object wrote (`"lastOrderAt" : value`; inside a
 * JSON string every quote is escaped, so only the key itself matches), with the builder's own
 * format, so a refresh that rebuilds the document finds the same hash and writes nothing. The
 * date moves only forward (an ERP order dated ahead stays the latest). The open orders are the
 * logged figure plus `orderTotal` (issue #51): what changed, written, rather than the client's
 * open orders summed again, which read every one of them at every order (two buffers each: 600
 * at 400 open orders). The logged figure is the client's sum as every path that moves an order
 * out of the open ones (approval, rejection, the ERP's invoicing) or builds the document last
 * wrote it; orders for one client at once each add to the row version the other committed
 * (PostgreSQL evaluates the SET again on it), where each summing in its own snapshot left the
 * other out. A document logged by an older server, without openOrders, keeps it absent until
 * the next refresh. No row comes back when neither field changes, or when the client has no
 * logged document yet (new in the portfolio since the last refresh). Only the second needs the
 * document built whole (touchSqlDocuments, once the order committed), which
 * clientDocumentLogged tells apart.
 */
export function clientLastOrderWrites(idEmpresa: number, idCliente: number, codVendedor: number, orderTotal: number) {
  const at = utcMillis(sql`now()`);
  const logged = sql`coalesce(substring(a.dados from '"lastOrderAt" : "([^"]*)"'), '')`;
  const later = sql`${logged} collate "C" < ${at} collate "C"`;
  const total = sql`${orderTotal}::numeric`;
  const loggedOpen = sql`substring(a.dados from '"openOrders" : ([-0-9.]+)')`;
  // As OPEN_ORDERS_OF writes it: numeric(14, 2), "1234.50". None logged (an older server's
  // document): the pattern finds nothing to replace, but regexp_replace answers null for a null.
  const open = sql`coalesce((${loggedOpen}::numeric + ${total})::numeric(14, 2)::text, '')`;
  return sql`
    update app.sync_alteracoes a
       set (dados, hash) = (select d.dados, md5(d.dados)
                              from (select regexp_replace(
                                             case when ${later}
                                                  then regexp_replace(a.dados, '"lastOrderAt" : (null|"[^"]*")',
                                                                      '"lastOrderAt" : "' || ${at} || '"')
                                                  else a.dados end,
                                             '"openOrders" : [-0-9.]+', '"openOrders" : ' || ${open}) as dados) d),
           revisao = nextval('app.sync_revisao'), xid = txid_current(), atualizado_em = now()
     where ${loggedClientDocument(idEmpresa, idCliente, codVendedor)}
       and (${later} or (${total} <> 0 and ${loggedOpen} is not null))
    returning 1`;
}

/**
 * Whether the client's portfolio document is in the change log, as clientLastOrderWrites
 * moves it: an SQL boolean for the order's last statement. Where it is not, the order builds
 * it whole; where it is and its date is later than the order's, nothing is written. Building
 * it whole there too rewrote nothing and cost the order more than all its statements.
 */
export function clientDocumentLogged(idEmpresa: number, idCliente: number, codVendedor: number) {
  return sql<boolean>`exists (select 1 from app.sync_alteracoes a
                      where ${loggedClientDocument(idEmpresa, idCliente, codVendedor)})`;
}

/** The client's logged document (alias a): present, not deleted, its text stored. */
function loggedClientDocument(idEmpresa: number, idCliente: number, codVendedor: number) {
  return sql`a.id_empresa = ${idEmpresa} and a.colecao = 'clientes' and a.chave = ${clientKeyOf(idCliente, codVendedor)}
             and not a.excluido and a.dados is not null`;
}
