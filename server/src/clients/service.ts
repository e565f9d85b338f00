// The client portfolio: who sees which client, and what the API says about each. A
// representative sees their own portfolio (cod_vendedor); supervisors, managers and admins see
// every client of the tenant. A client outside the caller's scope is "not found", never
// "forbidden", so its existence is not revealed.
import {
  activityStatusOf,
  availableCredit,
  CLIENT_ORDERS_LIMIT,
  type ClientDetail,
  type ClientListQuery,
  type ClientMixPage,
  type ClientMixQuery,
  type ClientOrder,
  type ClientPage,
  type ClientSummary,
  type ClientTitlePage,
  type ClientTitlesQuery,
  type DocumentType,
  type ErpOrder,
  type FinancialStatus,
  inactiveBefore,
  round2,
  searchTerms,
  ZClientOrderStatus,
} from '@campo/shared';
import { scopeOf } from '../auth/authorize.ts';
import { touchSqlDocuments } from '../changelog/changelog.ts';
import type { Db } from '../db/kysely.ts';
import { type Tx, withScope } from '../db/scope.ts';
import { notFound } from '../errors.ts';
import type { AuthContext } from '../http/env.ts';
import { portfolioDocuments } from './portfolio-documents.ts';
import {
  type ClientDetailRow,
  type ClientSummaryRow,
  countClients,
  countClientTitles,
  selectClient,
  selectClientMix,
  selectClientOrders,
  selectClientPage,
  selectClientTitles,
  selectErpOrder,
  selectErpOrderLines,
  upsertCreditLimit,
} from './queries.ts';

const FINANCIAL: readonly FinancialStatus[] = ['ok', 'overdue', 'blocked'];

// The ERP's tipo_pessoa says which document it is; when it is missing, the length does (a CPF
// has 11 characters, a CNPJ 14).
function documentTypeOf(tipoPessoa: string | null, document: string): DocumentType {
  if (tipoPessoa === 'F') return 'CPF';
  if (tipoPessoa === 'J') return 'CNPJ';
  return document.length === 11 ? 'CPF' : 'CNPJ';
}

function financialStatusOf(value: string | null): FinancialStatus {
  return FINANCIAL.find((s) => s === value) ?? 'ok';
}

const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

function toSummary(row: ClientSummaryRow, now: Date): ClientSummary {
  const document = row.cnpj_cpf ?? '';
  return {
    id: Number(row.id_cliente),
    name: row.razao_social ?? '',
    tradeName: row.nome_fantasia,
    document,
    documentType: documentTypeOf(row.tipo_pessoa, document),
    city: row.cidade,
    uf: row.uf,
    idPauta: row.id_pauta,
    activityStatus: activityStatusOf(row.ultimo_pedido_em, now),
    financialStatus: financialStatusOf(row.status_financeiro),
    creditLimit: row.limite_credito,
    lastOrderAt: iso(row.ultimo_pedido_em),
    codVendedor: row.cod_vendedor,
  };
}

function toDetail(row: ClientDetailRow, now: Date): ClientDetail {
  return {
    ...toSummary(row, now),
    address: {
      street: row.endereco,
      number: row.numero,
      complement: row.complemento,
      district: row.bairro,
      city: row.cidade,
      uf: row.uf,
      cep: row.cep,
    },
    deliveryAddress: row.end_entrega,
    phone: row.telefone,
    email: row.email,
    stateRegistration: row.inscricao_estadual,
    openAmount: row.valor_em_aberto ?? 0,
    overdueAmount: row.valor_vencido ?? 0,
    maxDaysOverdue: row.dias_atraso_max ?? 0,
    registrationActive: row.cadastro_ativo ?? false,
    registeredAt: iso(row.dt_cadastro),
    credit: creditOf(row),
  };
}

/** The client's available credit as the server counts it now; null without a limit (no check). */
function creditOf(row: ClientDetailRow): ClientDetail['credit'] {
  if (row.limite_credito === null) return null;
  const figures = {
    limit: row.limite_credito,
    openReceivables: row.valor_em_aberto ?? 0,
    openOrders: row.pedidos_em_aberto ?? 0,
  };
  return { ...figures, available: availableCredit(figures) ?? 0 };
}

export function listClients(db: Db, auth: AuthContext, query: ClientListQuery, now = new Date()): Promise<ClientPage> {
  const filters = {
    terms: searchTerms(query.q),
    financialStatus: query.financialStatus,
    activity: query.activityStatus ? { status: query.activityStatus, inactiveBefore: inactiveBefore(now) } : undefined,
  };
  const scope = scopeOf(auth);
  return withScope(db, scope, async (tx) => {
    const total = await countClients(tx, scope, filters);
    const offset = (query.page - 1) * query.pageSize;
    const rows = offset < total ? await selectClientPage(tx, scope, filters, query.pageSize, offset) : [];
    return { items: rows.map((r) => toSummary(r, now)), page: query.page, pageSize: query.pageSize, total };
  });
}

async function clientInScope(tx: Tx, auth: AuthContext, id: number): Promise<ClientDetailRow> {
  const row = await selectClient(tx, scopeOf(auth), id);
  if (!row) throw notFound('Cliente');
  return row;
}

export function getClient(db: Db, auth: AuthContext, id: number, now = new Date()): Promise<ClientDetail> {
  return withScope(db, scopeOf(auth), async (tx) => toDetail(await clientInScope(tx, auth, id), now));
}

/**
 * The client's latest orders, whoever placed them: a representative who may see the client may
 * see its history, including orders another representative placed before the client moved.
 */
export function getClientOrders(db: Db, auth: AuthContext, id: number): Promise<ClientOrder[]> {
  return withScope(db, scopeOf(auth), async (tx) => {
    await clientInScope(tx, auth, id);
    const rows = await selectClientOrders(tx, auth.idEmpresa, id, CLIENT_ORDERS_LIMIT);
    return rows.map((r) => ({
      source: r.origem === 'campo' ? 'campo' : 'erp',
      id: r.id_pedido,
      erpId: r.id_pedido_erp,
      number: r.origem === 'campo' ? r.num_ped_sar : r.num_pedido_erp,
      erpNumber: r.num_pedido_erp,
      date: iso(r.emitido_em) ?? '',
      status: ZClientOrderStatus.options.find((st) => st === r.status) ?? 'approved',
      total: r.valor_total ?? 0,
      codVendedor: r.cod_vendedor,
    }));
  });
}

/**
 * An ERP order of the client with its lines, so the app can show it and repeat it. The same
 * scope as the history: whoever may see the client may see its orders.
 */
export function getErpOrder(db: Db, auth: AuthContext, id: number, erpId: number): Promise<ErpOrder> {
  return withScope(db, scopeOf(auth), async (tx) => {
    await clientInScope(tx, auth, id);
    const head = await selectErpOrder(tx, auth.idEmpresa, id, erpId);
    if (!head) throw notFound('Pedido do ERP');
    const lines = await selectErpOrderLines(tx, auth.idEmpresa, erpId);
    return {
      source: 'erp',
      id: null,
      erpId,
      number: head.num_pedido_erp,
      erpNumber: head.num_pedido_erp,
      date: iso(head.emitido_em) ?? '',
      status: ZClientOrderStatus.options.find((st) => st === head.status) ?? 'approved',
      total: head.valor_total ?? 0,
      codVendedor: head.cod_vendedor,
      idCliente: id,
      lines: lines.map((l) => ({
        seq: l.seq ?? 0,
        idProduto: l.id_produto ?? 0,
        code: l.cod_produto,
        description: l.descricao,
        unit: l.unidade,
        quantity: Number(l.quantidade ?? 0),
        listPrice: num(l.preco_tabela),
        unitPrice: num(l.preco_unitario),
        discountPct: num(l.perc_desconto),
        total: num(l.valor_total),
      })),
    };
  });
}

const num = (v: string | number | null): number | null => (v === null ? null : Number(v));

/** Managers and admins (checked by the route) set the limit Campo keeps for a client of their tenant. */
export function setCreditLimit(
  db: Db,
  auth: AuthContext,
  id: number,
  creditLimit: number,
  now = new Date(),
): Promise<ClientDetail> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const client = await clientInScope(tx, auth, id);
    await upsertCreditLimit(tx, {
      idEmpresa: auth.idEmpresa,
      idCliente: id,
      limite: round2(creditLimit),
      atualizadoPor: auth.login,
    });
    // The phone shows the client's available credit offline from its document: the new
    // limit goes out now, not at the next scheduled refresh.
    await touchSqlDocuments(tx, auth.idEmpresa, portfolioDocuments, client.cod_vendedor, [id]);
    return toDetail(await clientInScope(tx, auth, id), now);
  });
}

/**
 * The client's titles (receivables): open ones and those paid in the last days, from the same
 * ERP rows the financial status is computed from. The same scope as the client.
 */
export function getClientTitles(
  db: Db,
  auth: AuthContext,
  id: number,
  query: ClientTitlesQuery,
): Promise<ClientTitlePage> {
  return withScope(db, scopeOf(auth), async (tx) => {
    await clientInScope(tx, auth, id);
    const openOnly = query.status === 'open';
    const total = await countClientTitles(tx, auth.idEmpresa, id, openOnly);
    const offset = (query.page - 1) * query.pageSize;
    const rows =
      offset < total ? await selectClientTitles(tx, auth.idEmpresa, id, openOnly, query.pageSize, offset) : [];
    return {
      items: rows.map((r) => ({
        id: r.id_titulo ?? 0,
        documento: r.num_documento ?? '',
        emissao: r.emissao,
        vencimento: r.vencimento,
        valor: Number(r.valor ?? 0),
        valorPago: Number(r.valor_pago ?? 0),
        pagamento: r.pagamento,
        emAberto: Number(r.valor_em_aberto ?? 0),
        pago: r.pago === true,
        diasAtraso: r.dias_atraso ?? 0,
      })),
      page: query.page,
      pageSize: query.pageSize,
      total,
    };
  });
}

/**
 * The client's mix (issue #41): what it bought in the last months, the most bought first, the
 * same rows its replicated document carries. The same scope as the client. At most
 * CLIENT_MIX_MAX products, so the page is cut from the whole mix rather than asked of the database.
 */
export function getClientMix(db: Db, auth: AuthContext, id: number, query: ClientMixQuery): Promise<ClientMixPage> {
  return withScope(db, scopeOf(auth), async (tx) => {
    await clientInScope(tx, auth, id);
    const rows = await selectClientMix(tx, auth.idEmpresa, id);
    const offset = (query.page - 1) * query.pageSize;
    return {
      items: rows.slice(offset, offset + query.pageSize).map((r) => ({
        idProduto: r.id_produto,
        code: r.cod_produto,
        description: r.descricao,
        unit: r.unidade,
        pedidos: r.pedidos,
        quantidadeUsual: r.quantidade,
        ultimoPreco: r.preco,
        ultimaCompra: r.ultima,
      })),
      page: query.page,
      pageSize: query.pageSize,
      total: rows.length,
    };
  });
}
