// Orders: the server's authoritative version of what the cart previewed. The order is a
// command, not a replicated row: prices, ceilings and totals are recomputed here, at the
// moment the order arrives, with the server's business date, and every line keeps the
// snapshot it was accepted with. The same function serves POST /orders and a queued order
// pushed by replication, so both are idempotent by the same key.
import { createHash } from 'node:crypto';
import {
  availableCredit,
  businessDate,
  ceilingRefusal,
  checkCredit,
  checkLineDiscount,
  creditOutcome,
  type ErpEncoding,
  encodeLossless,
  formatBrl,
  lineAmounts,
  lineCeiling,
  lineFlex,
  ORDER_STATUS_LABEL,
  type Order,
  type OrderCreate,
  type OrderDetail,
  type OrderStatus,
  orderTotals,
  type RefusalReason,
  SITUA,
  statusOfSitua,
  sumMoney,
  toErpText,
} from '@campo/shared';
import { authorize, type RepresentativeAuth, scopeOf, visibleReps } from '../auth/authorize.ts';
import { drawnDocumentWrite, touchDocuments, touchSqlDocuments } from '../changelog/changelog.ts';
import { announceCommitted } from '../changelog/notices.ts';
import { clientDocumentLogged, clientLastOrderWrites, portfolioDocuments } from '../clients/portfolio-documents.ts';
import { isDatabaseUnavailable } from '../db/availability.ts';
import { drawnNumber, splicedBytes } from '../db/drawn.ts';
import type { Db } from '../db/kysely.ts';
import { type Pipeline, type Tx, withScope, withScopePipelined } from '../db/scope.ts';
import { DomainError, notFound } from '../errors.ts';
import { creditFlex, releaseFlex, reserveNewOrderFlex } from '../flex/service.ts';
import type { AuthContext } from '../http/env.ts';
import { log } from '../log.ts';
import { ordersTotal } from '../metrics.ts';
import { notifyOrderDecided, pendingApprovalOutbox } from '../notifications/order-events.ts';
import { ceilingInputs } from '../policies/service.ts';
import { loadOrderDocs, orderSyncDoc, reconcileErpOrderEnds } from './documents.ts';
import { notInvoiced, withInvoices } from './invoices.ts';
import { creditOf, loadOrders } from './load.ts';
import * as q from './queries.ts';

export interface OrderResult {
  status: number;
  body: Order;
  replayed: boolean;
}

const ROUTE = 'POST /orders';

function refused(reasons: RefusalReason[]): DomainError {
  return new DomainError(
    'ORDER_REFUSED',
    reasons.length === 1
      ? (reasons[0]?.message ?? '')
      : `${reasons.length} motivos de recusa: ${reasons.map((r) => r.message).join(' ')}`,
    { reasons },
  );
}

/** Stable hash of the validated request: same order, same hash, whatever the key order of the JSON. */
export function requestHash(input: OrderCreate): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
          )
        : v;
  return createHash('sha256')
    .update(JSON.stringify(canonical(input)))
    .digest('hex');
}

/**
 * Checks the order against the portfolio, the catalog and the ceilings read by the order's
 * context statement; throws ORDER_REFUSED with every reason.
 */
function priceAndCheck(auth: RepresentativeAuth, input: OrderCreate, date: string, context: q.OrderContext) {
  const codVendedor = auth.codVendedor;
  const client = context.client;
  if (!client || client.cod_vendedor !== codVendedor) {
    throw refused([
      { code: 'CLIENT_NOT_IN_PORTFOLIO', message: `O cliente ${input.idCliente} não está na sua carteira.` },
    ]);
  }
  if (client.status_financeiro === 'blocked') {
    throw refused([
      {
        code: 'CLIENT_BLOCKED',
        message: `O cliente ${client.nome} está bloqueado no financeiro e não pode receber pedidos.`,
      },
    ]);
  }
  const idPauta = input.idPauta ?? client.id_pauta;
  if (idPauta === null) {
    throw refused([{ code: 'NO_PRICE_LIST', message: 'O cliente não tem pauta de preços; informe idPauta.' }]);
  }
  // Approval writes the address into the ERP: never an invented one (" - , CEP "). Made to fit
  // the ERP's encoding now, so the approval can never fail on it.
  const endEntrega = toErpText(input.endEntrega ?? client.end_entrega ?? '', 200, context.encoding).trim();
  if (!endEntrega) {
    throw refused([
      {
        code: 'NO_DELIVERY_ADDRESS',
        message: `O cliente ${client.nome} não tem endereço no cadastro do ERP; informe o endereço de entrega.`,
      },
    ]);
  }
  if (!context.pautaExists) {
    throw refused([{ code: 'PRICE_LIST_NOT_FOUND', message: `A pauta ${idPauta} não existe.` }]);
  }
  const condicao = paymentTermOf(input, client, context.paymentTerm, context.encoding);

  const products = new Map(context.products.map((p) => [p.id_produto, p]));
  const { ceilings, rules } = ceilingInputs(context.ceilings, context.rules);

  const reasons: RefusalReason[] = [];
  const lines = input.itens.map((item, index) => {
    const line = index + 1;
    const p = products.get(item.idProduto);
    if (!p) {
      reasons.push({
        code: 'PRODUCT_NOT_FOUND',
        line,
        idProduto: item.idProduto,
        message: `Linha ${line}: o produto ${item.idProduto} não existe.`,
      });
      return null;
    }
    if (!p.ativo) {
      reasons.push({
        code: 'PRODUCT_INACTIVE',
        line,
        idProduto: item.idProduto,
        message: `Linha ${line}: ${p.descricao} está inativo.`,
      });
      return null;
    }
    if (p.preco === null) {
      reasons.push({
        code: 'PRICE_NOT_ON_LIST',
        line,
        idProduto: item.idProduto,
        message: `Linha ${line}: ${p.descricao} não tem preço na pauta ${idPauta}.`,
      });
      return null;
    }
    const ceiling = lineCeiling(
      {
        codVendedor,
        idPauta,
        date,
        product: { categoria: p.categoria ?? '', grupo: p.cod_grupo ?? -1, subgrupo: p.cod_subgrupo ?? -1 },
      },
      ceilings,
      rules,
    );
    // An acréscimo (a negative discount) is always within the ceiling; beyond the ceiling, the
    // flex maximum decides (none with flex off: the ceiling itself), and the balance later.
    // The contract bounds the discount (−100 to 100), so DISCOUNT_INVALID cannot reach here.
    const check = checkLineDiscount(item.descontoPercent, ceiling, context.flexPolicy.maxBeyondCeilingPoints);
    if (!check.ok && check.code === 'DISCOUNT_ABOVE_CEILING') {
      reasons.push(ceilingRefusal(line, item.idProduto, p.descricao, check));
      return null;
    }
    const flex = lineFlex(
      {
        listPrice: p.preco,
        quantity: item.quantidade,
        discountPercent: item.descontoPercent,
        ceilingPercent: ceiling.ceilingPercent,
      },
      context.flexPolicy,
    );
    return { item, product: p, ceiling, flex, amounts: lineAmounts(p.preco, item.quantidade, item.descontoPercent) };
  });
  if (reasons.length) throw refused(reasons);
  const priced = lines.filter((l) => l !== null);
  const totals = orderTotals(priced.map((l) => l.amounts));
  const flex = {
    earned: sumMoney(priced.map((l) => l.flex.earned)),
    spent: sumMoney(priced.map((l) => l.flex.spent)),
  };
  return {
    client,
    idPauta,
    endEntrega,
    condicao,
    lines: priced,
    totals,
    flex,
    credit: judgeCredit(context, totals.total),
  };
}

/** The collections an order's transaction writes documents of, announced once it committed. */
type Changed = 'pedidos' | 'clientes' | 'ajustes';
/** The change-log write of the representative's flex document, in the order's last statement. */
type FlexWrite = NonNullable<Awaited<ReturnType<typeof reserveNewOrderFlex>>['write']>;

/**
 * An order that spends flex reserves it from its representative's balance, in its own
 * transaction and after the client's credit lock (the order's first statement), so of orders
 * that arrive together each is judged on what the one before it left. One the balance no
 * longer covers is refused, each line beyond its ceiling with FLEX_BALANCE_INSUFFICIENT and
 * the balance now; the rep fixes and resends, as with any refusal. One round trip of the
 * order's pipeline (the ledger's reserveNewOrderFlex: the order's id is its own).
 */
async function reserveOrderFlex(
  p: Pipeline,
  auth: RepresentativeAuth,
  idPedido: number,
  checked: ReturnType<typeof priceAndCheck>,
): Promise<FlexWrite | null> {
  const needed = checked.flex.spent;
  const move = { idEmpresa: auth.idEmpresa, codVendedor: auth.codVendedor, idPedido, by: auth.login };
  // The order's row comes later: the balance's document is written with the rest, which reads
  // the number that row drew (insertOrderTx).
  const reserved = await reserveNewOrderFlex(p, { ...move, amount: needed, orderNumber: q.drawnOrderNumber });
  if (reserved.passed) return reserved.write;
  const saldo = reserved.saldo;
  throw refused(
    checked.lines.flatMap((l, i) =>
      l.flex.spent > 0
        ? [
            {
              code: 'FLEX_BALANCE_INSUFFICIENT' as const,
              line: i + 1,
              idProduto: l.item.idProduto,
              descontoPercent: l.item.descontoPercent,
              tetoPercent: l.ceiling.ceilingPercent,
              flex: { saldo, necessario: needed, linha: l.flex.spent },
              message:
                `Linha ${i + 1} (${l.product.descricao ?? l.item.idProduto}): o desconto de ` +
                `${l.item.descontoPercent.toLocaleString('pt-BR')}% passa do teto de ${l.ceiling.ceilingPercent.toLocaleString('pt-BR')}% ` +
                `e usaria ${formatBrl(l.flex.spent)} do saldo flex; o pedido precisa de ${formatBrl(needed)} ` +
                `e o saldo agora é ${formatBrl(saldo)}.`,
            },
          ]
        : [],
    ),
  );
}

/**
 * The order against its client's available credit, on the server's figures now (read after
 * the limit's lock: orderKeyLock) and the tenant's policy: refused under `block` when beyond
 * it, marked for the approver under `flag`. Null when the client has no limit: no check.
 */
function judgeCredit(context: q.OrderContext, orderTotal: number): Order['credit'] {
  const client = context.client;
  if (!client || client.limite_credito === null) return null;
  const figures = {
    limit: client.limite_credito,
    openReceivables: client.valor_em_aberto ?? 0,
    openOrders: client.pedidos_em_aberto ?? 0,
  };
  const check = checkCredit(figures, orderTotal);
  const available = availableCredit(figures) ?? 0;
  const outcome = creditOutcome(check, context.creditPolicy);
  if (outcome === 'refuse') {
    throw refused([
      {
        code: 'CREDIT_LIMIT_EXCEEDED',
        message:
          `O pedido de ${formatBrl(orderTotal)} passa do crédito disponível do cliente ${client.nome}: ` +
          `limite de ${formatBrl(figures.limit)}, ${formatBrl(sumMoney([figures.openReceivables, figures.openOrders]))} em aberto ` +
          `(títulos ${formatBrl(figures.openReceivables)}, pedidos ${formatBrl(figures.openOrders)}), ` +
          `disponível ${formatBrl(available)}.`,
        credit: { ...figures, orderTotal, available },
      },
    ]);
  }
  return {
    limit: figures.limit,
    open: sumMoney([figures.openReceivables, figures.openOrders]),
    available,
    exceeded: outcome === 'flag',
  };
}

/**
 * The order's payment term: the one asked, else the client's default; it must be active and,
 * where the ERP restricts the client's terms, one of them. Its name is copied into the order
 * (made to fit the ERP's encoding, like the client's name) so the order shows what was agreed even after the ERP
 * renames the term. Neither (a client registered through Campo has no default, and an app
 * older than terms sends none): the order goes without, and the ERP applies its own rule;
 * the app's cart never sends such an order, it asks for the term.
 */
function paymentTermOf(
  input: OrderCreate,
  client: { id_condicao: number | null; nome: string | null },
  term: q.OrderPaymentTermRow | null,
  encoding: ErpEncoding,
): { id: number; descricao: string } | null {
  const id = input.idCondicao ?? client.id_condicao;
  if (id === null) return null;
  if (!term?.ativo || !term.permitida) {
    const name = term?.descricao ? `"${term.descricao}"` : id;
    throw refused([
      {
        code: 'PAYMENT_TERM_NOT_ALLOWED',
        message: !term
          ? `A condição de pagamento ${id} não existe no ERP.`
          : !term.ativo
            ? `A condição de pagamento ${name} está inativa no ERP.`
            : `A condição de pagamento ${name} não está liberada para o cliente ${client.nome}.`,
      },
    ]);
  }
  return { id, descricao: toErpText(term.descricao ?? '', undefined, encoding) };
}

/**
 * Writes the order in one round trip: its row (which draws its number), then its lines, first
 * history entry, idempotency record, documents and push messages, and COMMIT. The answer is
 * built from what it writes rather than read back (a test holds it equal to what
 * GET /orders/{id} reads: load.ts); the texts written with it hold a placeholder where the
 * number goes, which the statement fills in (db/drawn.ts).
 */
async function insertOrderTx(
  p: Pipeline,
  auth: RepresentativeAuth,
  input: OrderCreate,
  checked: ReturnType<typeof priceAndCheck>,
  idempotency: { key: string; hash: string },
  context: Pick<q.OrderContext, 'audience' | 'idPedido' | 'now' | 'encoding'>,
  flexWrite: FlexWrite | null,
): Promise<{ body: Order; changed: Changed[]; clientDocumentLeft: boolean }> {
  const { client, idPauta, endEntrega, condicao, lines, totals, credit } = checked;
  const erp = (text: string, width?: number) => toErpText(text, width, context.encoding);
  const observacao = input.observacao ? erp(input.observacao, 500) : null;
  // ERP text read as Windows-1252 (server/src/db/pool.ts) may hold "€" or curly quotes, which a
  // LATIN1 database cannot store: written in its LATIN1 spelling there, and answered as written
  // (the answer, its stored replay and the device's document say what GET /orders/{id} reads).
  // The client as people name it (the trade name first, shared clientDisplayName), copied so
  // that listings, the PDF and push messages need no join.
  const nomeCliente = erp(client.nome ?? '');
  const stored = lines.map((l) => ({
    codProduto: erp(l.product.cod_produto ?? ''),
    descricao: erp(l.product.descricao ?? ''),
    categoria: l.product.categoria === null ? null : erp(l.product.categoria),
  }));
  const id = context.idPedido;
  const row = q.insertOrderSql(auth.idEmpresa, {
    id,
    cod_vendedor: auth.codVendedor,
    id_cliente: input.idCliente,
    nome_cliente: nomeCliente,
    cnpj_cpf_cliente: client.cnpj_cpf,
    // Both go to the ERP on approval: made to fit now, so the approval can never fail on them.
    end_entrega: endEntrega,
    id_pauta: idPauta,
    observacao,
    valor_bruto: totals.gross,
    valor_desconto: totals.discount,
    valor_total: totals.total,
    // The payment term (issue #19): written into the ERP order by trg_pedido_aprovado.
    id_condicao: condicao?.id ?? null,
    condicao_pagamento: condicao?.descricao ?? null,
    // The credit the order was judged by, for the approver (docs/credit-and-flex.md).
    credito_limite: credit?.limit ?? null,
    credito_aberto: credit?.open ?? null,
    credito_disponivel: credit?.available ?? null,
    credito_excedido: credit?.exceeded ?? false,
    // What it earns (credited at approval) and what it reserved (docs/credit-and-flex.md).
    flex_gerado: checked.flex.earned,
    flex_usado: checked.flex.spent,
  });
  // now() is the transaction's start: the order's criado_em, and its history entry's.
  const criadoEm = context.now.toISOString();
  const drawn = drawnNumber(q.drawnOrderNumber);
  const body: Order = {
    id,
    numPedSar: drawn.placeholder,
    status: 'pending_approval',
    codVendedor: auth.codVendedor,
    idCliente: input.idCliente,
    nomeCliente,
    cnpjCpfCliente: client.cnpj_cpf,
    endEntrega,
    idPauta,
    observacao,
    condicaoPagamento: condicao,
    valorBruto: totals.gross,
    valorDesconto: totals.discount,
    valorTotal: totals.total,
    credit,
    motivoRejeicao: null,
    decididoPor: null,
    nomeDecididoPor: null,
    decididoEm: null,
    criadoEm,
    erpIdPedido: null,
    numPedidoErp: null,
    erpSituacao: null,
    itens: lines.map((l, i) => ({
      seq: i + 1,
      idProduto: l.item.idProduto,
      ...(stored[i] as (typeof stored)[number]),
      quantidade: l.item.quantidade,
      precoTabela: l.product.preco as number,
      precoUnitario: l.amounts.unitPrice,
      descontoPercent: l.item.descontoPercent,
      tetoPercent: l.ceiling.ceilingPercent,
      regra: l.ceiling.rule ? { id: l.ceiling.rule.id, descricao: l.ceiling.rule.descricao } : null,
      idPauta,
      valorTotal: l.amounts.total,
      flexGerado: l.flex.earned,
      flexUsado: l.flex.spent,
    })),
    historico: [
      { de: null, para: 'pending_approval', usuario: auth.login, nomeUsuario: auth.name, motivo: null, em: criadoEm },
    ],
  };
  const rest = q.insertOrderRestSql(
    auth.idEmpresa,
    id,
    lines.map((l, i) => ({
      id_produto: l.item.idProduto,
      cod_produto: stored[i]?.codProduto ?? '',
      descricao: stored[i]?.descricao ?? '',
      categoria: stored[i]?.categoria ?? null,
      cod_grupo: l.product.cod_grupo,
      cod_subgrupo: l.product.cod_subgrupo,
      quantidade: l.item.quantidade,
      preco_tabela: l.product.preco as number,
      preco_unitario: l.amounts.unitPrice,
      perc_desconto: l.item.descontoPercent,
      teto_desconto: l.ceiling.ceilingPercent,
      id_regra: l.ceiling.rule?.id ?? null,
      id_pauta: idPauta,
      valor_total: l.amounts.total,
      flex_gerado: l.flex.earned,
      flex_usado: l.flex.spent,
    })),
    auth.login,
    {
      id_usuario: auth.userId,
      chave: idempotency.key,
      rota: ROUTE,
      hash_requisicao: idempotency.hash,
      corpo_resposta: splicedBytes(JSON.stringify(body), drawn),
    },
    {
      // The device's copy (collection pedidos), built from the answer in hand: no extra read.
      pedidos: drawnDocumentWrite(auth.idEmpresa, 'pedidos', orderSyncDoc(notInvoiced(body), idempotency.key), drawn),
      // The client's last order date changed: its portfolio document goes out with the order,
      // not at the next scheduled refresh. The collections' locks were taken with the key's.
      clientes: clientLastOrderWrites(auth.idEmpresa, body.idCliente, body.codVendedor, body.valorTotal),
      clientLogged: clientDocumentLogged(auth.idEmpresa, body.idCliente, body.codVendedor),
      // The approvers hear of it exactly when it commits.
      outbox: pendingApprovalOutbox({ ...body, idEmpresa: auth.idEmpresa }, context.audience, drawn),
      // The representative's balance document, when the order spent flex (reserveOrderFlex).
      ajustes: flexWrite,
    },
  );
  // The order's row, the rest and COMMIT in one round trip.
  const [[numbered], [written]] = await Promise.all([p.send(row), p.send(rest), p.commit()]);
  body.numPedSar = (numbered as { num_ped_sar: number }).num_ped_sar;
  const changed: Changed[] = (['pedidos', 'clientes', 'ajustes'] as const).filter((c) => written?.[c]);
  // No logged document to move the date in (a client new since the last refresh): the caller
  // builds it whole once the order committed. One logged with a later date stands as it is.
  return { body, changed, clientDocumentLeft: !written?.cliente_logado };
}

/**
 * Creates an order once per Idempotency-Key. A second request with the key gets the first
 * answer again (replayed), or 422 if its payload differs, or 409 while the first is still being
 * processed. Only a created order binds the key: a refused order can be fixed and sent again
 * with the same key, and is checked again then.
 */
export async function createOrder(
  db: Db,
  auth: AuthContext,
  key: string,
  input: OrderCreate,
  now = new Date(),
): Promise<OrderResult> {
  const rep = authorize(auth, 'orders.create');
  const hash = requestHash(input);
  try {
    const result = await createOrderTx(db, rep, key, input, hash, now);
    if (!result.replayed) ordersTotal.inc({ outcome: 'created' });
    return result;
  } catch (err) {
    if (err instanceof DomainError && err.code === 'ORDER_REFUSED') ordersTotal.inc({ outcome: 'refused' });
    throw err;
  }
}

/**
 * The order's transaction: four statements between BEGIN and COMMIT in two round trips
 * (docs/orders.md, "Cost"). BEGIN, the scope with the key's and the collections' locks, and
 * the context read (with the push audience and the order's id) go out together; then the
 * order's row, the rest of the order (lines, history, key, the change-log revisions of the
 * order and its client, the approvers' push messages) and COMMIT. An order that spends flex
 * sends two more, its reservation, in a round trip between the two (reserveOrderFlex). The
 * devices hear of the revisions once the transaction committed (announceCommitted).
 */
async function createOrderTx(
  db: Db,
  auth: RepresentativeAuth,
  key: string,
  input: OrderCreate,
  hash: string,
  now: Date,
): Promise<OrderResult> {
  const lock = q.orderKeyLock(auth.idEmpresa, auth.userId, key, input.idCliente);
  type Done = OrderResult & { changed: Changed[]; clientDocumentLeft: boolean };
  const date = businessDate(now);
  const { changed, clientDocumentLeft, ...result } = await withScopePipelined(
    db,
    scopeOf(auth),
    lock,
    async (p, first): Promise<Done> => {
      // Sent with the key's lock, it runs after it: it sees a first request with the key that
      // committed just before, and is not read when the key is taken.
      const contextRows = p.send(
        q.orderContextSql({
          idEmpresa: auth.idEmpresa,
          idUsuario: auth.userId,
          chave: key,
          codVendedor: auth.codVendedor,
          idCliente: input.idCliente,
          idPauta: input.idPauta ?? null,
          idProdutos: [...new Set(input.itens.map((i) => i.idProduto))],
          idCondicao: input.idCondicao ?? null,
          date,
        }),
      );
      if (!(await first).ok) {
        throw new DomainError(
          'IDEMPOTENCY_KEY_IN_FLIGHT',
          'Um envio com esta chave ainda está em andamento; tente de novo em instantes.',
        );
      }
      const context = q.readOrderContext(await contextRows);
      const previous = context.key;
      if (previous) {
        if (previous.rota !== ROUTE || previous.hash_requisicao !== hash) {
          throw new DomainError(
            'IDEMPOTENCY_KEY_REUSED',
            'Esta Idempotency-Key já foi usada para outro pedido; gere uma nova chave para um pedido diferente.',
          );
        }
        return {
          status: previous.status_resposta,
          body: JSON.parse(previous.corpo_resposta.toString('utf8')) as Order,
          replayed: true,
          changed: [],
          clientDocumentLeft: false,
        };
      }
      const checked = priceAndCheck(auth, input, date, context);
      // Only an order that spends flex pays the reservation's statements.
      const flexWrite = checked.flex.spent > 0 ? await reserveOrderFlex(p, auth, context.idPedido, checked) : null;
      const created = await insertOrderTx(p, auth, input, checked, { key, hash }, context, flexWrite);
      return { status: 201, replayed: false, ...created };
    },
  );
  // Not awaited: the devices' notice goes out with those of the orders around it (changelog's announceCommitted).
  for (const colecao of changed)
    announceCommitted(db, { idEmpresa: auth.idEmpresa, colecao, codVendedor: auth.codVendedor });
  if (clientDocumentLeft) await writeClientDocument(db, auth, result.body.idCliente);
  return result;
}

/**
 * The client's portfolio document built whole, in a transaction of its own after the order's:
 * the order found no logged document to move the last order date in (a client new in the
 * portfolio since the last refresh). Building it in
 * the order's transaction would keep COMMIT from going out with the order's last statement.
 * The order stands if this fails: the next scheduled refresh writes the document.
 */
async function writeClientDocument(db: Db, auth: AuthContext, idCliente: number): Promise<void> {
  try {
    await withScope(db, scopeOf(auth), (tx) =>
      touchSqlDocuments(tx, auth.idEmpresa, portfolioDocuments, auth.codVendedor, [idCliente]),
    );
  } catch (err) {
    log.warn('orders: the client document was left to the next refresh', {
      idCliente,
      error: err instanceof Error ? err.message : String(err),
    });
  }
}

async function loadOrder(tx: Tx, idEmpresa: number, id: number): Promise<Order> {
  const order = (await loadOrders(tx, idEmpresa, [id])).get(id);
  if (!order) throw notFound('Pedido');
  return order;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The representatives whose orders the caller may see; null means every one of the tenant. */
function visibleOrderReps(tx: Tx, auth: AuthContext): Promise<number[] | null> {
  return visibleReps(auth, async (codSupervisor) =>
    (await q.selectTeam(tx, auth.idEmpresa, codSupervisor)).flatMap((r) =>
      r.cod_vendedor === null ? [] : [r.cod_vendedor],
    ),
  );
}

/**
 * Orders the ERP has invoiced, cancelled or deleted since the last look become invoiced or
 * cancelled here too, and their devices' copies go out in the same transaction (the scheduled
 * refresh does the same for the orders nobody reads).
 */
async function reconcileErpOrders(tx: Tx, idEmpresa: number): Promise<void> {
  const moved = await reconcileErpOrderEnds(tx, idEmpresa);
  if (moved.length === 0) return;
  await touchDocuments(tx, idEmpresa, 'pedidos', null, await loadOrderDocs(tx, idEmpresa, moved.map(String)));
}

async function orderInScope(tx: Tx, auth: AuthContext, id: number, forUpdate = false) {
  const row = await q.selectOrder(tx, auth.idEmpresa, id, forUpdate);
  const reps = await visibleOrderReps(tx, auth);
  // Out of scope answers like unknown: the caller learns nothing about other teams' orders.
  if (!row || (reps !== null && !reps.includes(row.cod_vendedor))) throw notFound('Pedido');
  return row;
}

export async function getOrder(db: Db, auth: AuthContext, id: number): Promise<OrderDetail> {
  return withScope(db, scopeOf(auth), async (tx) => {
    await reconcileErpOrders(tx, auth.idEmpresa);
    await orderInScope(tx, auth, id);
    return withInvoices(tx, auth.idEmpresa, await loadOrder(tx, auth.idEmpresa, id));
  });
}

export interface ListOrdersQuery {
  status?: OrderStatus[];
  numPedSar?: number;
  idCliente?: number;
  dataInicio?: string;
  dataFim?: string;
  page: number;
  pageSize: number;
}

export async function listOrders(db: Db, auth: AuthContext, query: ListOrdersQuery) {
  return withScope(db, scopeOf(auth), async (tx) => {
    await reconcileErpOrders(tx, auth.idEmpresa);
    const { items, total } = await q.selectOrders(tx, {
      idEmpresa: auth.idEmpresa,
      codVendedores: await visibleOrderReps(tx, auth),
      situa: query.status?.map((s) => SITUA[s]),
      numPedSar: query.numPedSar,
      idCliente: query.idCliente,
      from: query.dataInicio,
      to: query.dataFim,
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    });
    return {
      items: items.map((r) => ({
        id: r.id,
        numPedSar: r.num_ped_sar,
        status: statusOfSitua(r.situa),
        codVendedor: r.cod_vendedor,
        idCliente: r.id_cliente,
        nomeCliente: r.nome_cliente,
        valorTotal: r.valor_total,
        criadoEm: iso(r.criado_em) as string,
        credit: creditOf(r),
      })),
      page: query.page,
      pageSize: query.pageSize,
      total,
    };
  });
}

/** PostgreSQL's message from a failed ERP insert, without internals a client need not see. */
function erpFailure(err: unknown): DomainError {
  const message = err instanceof Error ? err.message : String(err);
  return new DomainError(
    'ERP_REPLICATION_FAILED',
    `A aprovação foi desfeita: o ERP não aceitou o pedido (${message.slice(0, 300)}).`,
  );
}

/**
 * Approves (situa 1 → 2, and the trigger writes the order into the ERP in the same
 * transaction) or rejects (→ 4). Only the representative's supervisor, a manager or an admin.
 */
export async function decideOrder(
  db: Db,
  auth: AuthContext,
  id: number,
  decision: { approve: true } | { approve: false; motivo: string },
): Promise<Order> {
  authorize(auth, 'orders.decide');
  try {
    const decided = await withScope(db, scopeOf(auth), async (tx) => {
      const row = await orderInScope(tx, auth, id, true);
      if (row.situa !== SITUA.pending_approval) {
        throw new DomainError(
          'ORDER_ALREADY_DECIDED',
          `O pedido ${row.num_ped_sar} já está ${ORDER_STATUS_LABEL[statusOfSitua(row.situa)]}.`,
          { orderStatus: statusOfSitua(row.situa) },
        );
      }
      const to: 2 | 4 = decision.approve ? 2 : 4;
      // The reason stays in Campo (never written to the ERP): kept as typed, emoji included.
      const motivo = decision.approve ? null : encodeLossless(decision.motivo.trim());
      await q.updateDecision(tx, auth.idEmpresa, id, { situa: to, decidido_por: auth.login, motivo_rejeicao: motivo });
      await q.insertHistory(tx, {
        id_pedido: id,
        id_empresa: auth.idEmpresa,
        situa_de: SITUA.pending_approval,
        situa_para: to,
        usuario: auth.login,
        motivo,
      });
      // The balance's moves, after the order's row lock: approval credits what the order earned,
      // rejection gives back what it reserved (docs/credit-and-flex.md, "The ledger").
      const move = { idEmpresa: auth.idEmpresa, codVendedor: row.cod_vendedor, idPedido: id, by: auth.login };
      if (decision.approve && row.flex_gerado > 0) await creditFlex(tx, { ...move, amount: row.flex_gerado });
      if (!decision.approve && row.flex_usado > 0) await releaseFlex(tx, move);
      const order = await loadOrder(tx, auth.idEmpresa, id);
      const key = await q.selectKeyOfOrder(tx, auth.idEmpresa, id);
      await touchDocuments(tx, auth.idEmpresa, 'pedidos', row.cod_vendedor, [
        orderSyncDoc(await withInvoices(tx, auth.idEmpresa, order), key),
      ]);
      // A rejected order no longer counts as the client's last order, nor among its open
      // orders; an approved one stays among them. Built whole either way, the document is
      // written only when it changed.
      await touchSqlDocuments(tx, auth.idEmpresa, portfolioDocuments, row.cod_vendedor, [order.idCliente]);
      await notifyOrderDecided(
        tx,
        { ...order, idEmpresa: auth.idEmpresa },
        decision.approve ? { status: 'approved' } : { status: 'rejected', reason: decision.motivo },
      );
      return order;
    });
    ordersTotal.inc({ outcome: decision.approve ? 'approved' : 'rejected' });
    return decided;
  } catch (err) {
    if (err instanceof DomainError) throw err;
    // Raised by trg_pedido_aprovado or the ERP's own constraints: the whole approval rolled back.
    // Not the database going away under the approval (its codes are strings too): that is 503, to retry.
    if (
      decision.approve &&
      !isDatabaseUnavailable(err) &&
      typeof err === 'object' &&
      err !== null &&
      'code' in err &&
      typeof err.code === 'string'
    ) {
      throw erpFailure(err);
    }
    throw err;
  }
}
