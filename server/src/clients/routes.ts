import {
  CLIENT_MIX_MAX,
  CLIENT_MIX_MONTHS,
  CLIENT_ORDERS_LIMIT,
  INACTIVE_AFTER_DAYS,
  PAGE_SIZE_MAX,
  PAID_TITLES_DAYS,
  ZClientDetail,
  ZClientIdParams,
  ZClientListQuery,
  ZClientMixPage,
  ZClientMixQuery,
  ZClientOrders,
  ZClientPage,
  ZClientTitlePage,
  ZClientTitlesQuery,
  ZCreditLimitUpdate,
  ZErpOrder,
  ZErpOrderParams,
  ZNewClient,
  ZNewClientResult,
} from '@campo/shared';
import { createRoute } from '@hono/zod-openapi';
import { permit } from '../auth/authorize.ts';
import type { Db } from '../db/kysely.ts';
import { bearer, errorResponses, json, problem, router } from '../http/openapi.ts';
import { registerClient } from './register.ts';
import {
  getClient,
  getClientMix,
  getClientOrders,
  getClientTitles,
  getErpOrder,
  listClients,
  setCreditLimit,
} from './service.ts';

const tags = ['clients'];
const scopeNote =
  'A representative sees only their portfolio (cod_vendedor); supervisors, managers and admins see every client of the tenant.';

const listRoute = createRoute({
  method: 'get',
  path: '/clients',
  tags,
  summary: 'List the client portfolio',
  description: `${scopeNote} Search words must each match the legal name, trade name, city or CPF/CNPJ (masked or not), ignoring case and accents. activityStatus: inactive when the latest order (Campo, not rejected; ERP, not cancelled; or the ERP's last-purchase date) is more than ${INACTIVE_AFTER_DAYS} days old, or when there is none. Ordered by legal name, ignoring case and accents; pageSize above ${PAGE_SIZE_MAX} is a 400.`,
  security: bearer,
  request: { query: ZClientListQuery },
  responses: {
    200: json(ZClientPage, 'A page of clients'),
    400: errorResponses[400],
    401: errorResponses[401],
  },
});

const registerRoute = createRoute({
  method: 'post',
  path: '/clients',
  tags,
  summary: 'Register a new client (representatives)',
  description:
    "A representative registers a client in the field (docs/clients.md). The row goes into app.clientes_novos and trg_cliente_novo creates the ERP record (corrent) with every mandatory field, in the same transaction: the answer carries the new ERP id, and the client is in the representative's portfolio (and its devices' clientes collection) at once. Idempotent by the body's id (a UUID made by the device): the same id again answers 200 with the same client. CPF/CNPJ check digits are verified (alphanumeric CNPJ accepted), CEP has 8 digits, UF is one of the 27; each bad field is named in errors. Text bound for the ERP is made to fit the ERP database's encoding (transliterated where LATIN1 or WIN1252 lacks a character). A document already registered for the tenant (in the ERP or through Campo) is 409 CLIENT_DOCUMENT_EXISTS, naming the client only when it is the caller's own. Offline, the app queues the same body in the cadastros collection.",
  security: bearer,
  request: { body: { content: { 'application/json': { schema: ZNewClient } }, required: true } },
  responses: {
    201: json(ZNewClientResult, 'Registered: the new ERP client'),
    200: json(ZNewClientResult, 'Already registered with this id: the same client'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
    409: problem('The document is already registered for the tenant', 'CLIENT_DOCUMENT_EXISTS'),
    422: problem('Unknown pauta, or the ERP refused the record', 'PRICE_LIST_NOT_FOUND', 'ERP_REFUSED_CLIENT'),
  },
});

const detailRoute = createRoute({
  method: 'get',
  path: '/clients/{id}',
  tags,
  summary: 'Client detail',
  description: `${scopeNote} A client outside the caller's scope answers 404, as an unknown one does.`,
  security: bearer,
  request: { params: ZClientIdParams },
  responses: {
    200: json(ZClientDetail, 'The client'),
    400: errorResponses[400],
    401: errorResponses[401],
    404: errorResponses[404],
  },
});

const ordersRoute = createRoute({
  method: 'get',
  path: '/clients/{id}/orders',
  tags,
  summary: `The latest ${CLIENT_ORDERS_LIMIT} orders of a client`,
  description: `Campo and ERP orders alike (an approved Campo order shows once, with its ERP number), newest first, whoever placed them. ${scopeNote} A client outside the caller's scope answers 404.`,
  security: bearer,
  request: { params: ZClientIdParams },
  responses: {
    200: json(ZClientOrders, 'The orders'),
    400: errorResponses[400],
    401: errorResponses[401],
    404: errorResponses[404],
  },
});

const erpOrderRoute = createRoute({
  method: 'get',
  path: '/clients/{id}/erp-orders/{erpId}',
  tags,
  summary: 'An ERP order of a client, with its lines',
  description: `An order placed in the ERP (telesales, counter; source 'erp' in GET /clients/{id}/orders), with its lines from app.vw_pedidos_erp_itens, so the app can show it and repeat it. A Campo order replicated into the ERP is not served here (GET /orders/{id}). ${scopeNote} A client outside the caller's scope, or an order that is not this client's, answers 404.`,
  security: bearer,
  request: { params: ZErpOrderParams },
  responses: {
    200: json(ZErpOrder, 'The order and its lines'),
    400: errorResponses[400],
    401: errorResponses[401],
    404: errorResponses[404],
  },
});

const titlesRoute = createRoute({
  method: 'get',
  path: '/clients/{id}/titles',
  tags,
  summary: 'The titles (receivables) of a client',
  description: `The client's open titles and, unless status=open, those paid in the last ${PAID_TITLES_DAYS} days (app.vw_titulos_cliente): the same ERP rows the financial status is computed from. Open ones first, the most overdue first; then the paid ones, the latest payment first. diasAtraso counts from the server's date. ${scopeNote} A client outside the caller's scope answers 404. pageSize above ${PAGE_SIZE_MAX} is a 400.`,
  security: bearer,
  request: { params: ZClientIdParams, query: ZClientTitlesQuery },
  responses: {
    200: json(ZClientTitlePage, 'A page of titles'),
    400: errorResponses[400],
    401: errorResponses[401],
    404: errorResponses[404],
  },
});

const mixRoute = createRoute({
  method: 'get',
  path: '/clients/{id}/mix',
  tags,
  summary: "The client's mix: what it buys, how often, how much",
  description: `The products the client bought in the last ${CLIENT_MIX_MONTHS} months, through ERP orders not cancelled (app.vw_pedidos_cliente, app.vw_pedidos_erp_itens) and Campo orders approved or invoiced (a pending order joins at its approval), at most ${CLIENT_MIX_MAX}, the most bought first (by how many orders had each, then the latest purchase): per product the number of orders, the usual quantity (the median of its lines), the unit price and date of the latest purchase. The same mix the client's document carries to the representative's phone (collection clientes, field mix). ${scopeNote} A client outside the caller's scope answers 404. pageSize above ${PAGE_SIZE_MAX} is a 400.`,
  security: bearer,
  request: { params: ZClientIdParams, query: ZClientMixQuery },
  responses: {
    200: json(ZClientMixPage, "A page of the client's mix"),
    400: errorResponses[400],
    401: errorResponses[401],
    404: errorResponses[404],
  },
});

const creditLimitRoute = createRoute({
  method: 'put',
  path: '/clients/{id}/credit-limit',
  tags,
  summary: 'Set a client’s credit limit (manager, admin)',
  description:
    'The credit limit is kept by Campo, not taken from the ERP. Answers the client with its new limit. The role is checked before anything is read.',
  security: bearer,
  middleware: [permit('clients.creditLimit')] as const,
  request: {
    params: ZClientIdParams,
    body: { required: true, content: { 'application/json': { schema: ZCreditLimitUpdate } } },
  },
  responses: {
    200: json(ZClientDetail, 'The client with its new credit limit'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
    404: errorResponses[404],
  },
});

export function clientRoutes(deps: { db: Db }) {
  return router()
    .openapi(listRoute, async (c) => c.json(await listClients(deps.db, c.get('auth'), c.req.valid('query')), 200))
    .openapi(registerRoute, async (c) => {
      const { created, body } = await registerClient(deps.db, c.get('auth'), c.req.valid('json'));
      return created ? c.json(body, 201) : c.json(body, 200);
    })
    .openapi(detailRoute, async (c) => c.json(await getClient(deps.db, c.get('auth'), c.req.valid('param').id), 200))
    .openapi(ordersRoute, async (c) => {
      const items = await getClientOrders(deps.db, c.get('auth'), c.req.valid('param').id);
      return c.json({ items }, 200);
    })
    .openapi(erpOrderRoute, async (c) => {
      const { id, erpId } = c.req.valid('param');
      return c.json(await getErpOrder(deps.db, c.get('auth'), id, erpId), 200);
    })
    .openapi(titlesRoute, async (c) =>
      c.json(await getClientTitles(deps.db, c.get('auth'), c.req.valid('param').id, c.req.valid('query')), 200),
    )
    .openapi(mixRoute, async (c) =>
      c.json(await getClientMix(deps.db, c.get('auth'), c.req.valid('param').id, c.req.valid('query')), 200),
    )
    .openapi(creditLimitRoute, async (c) => {
      const { creditLimit } = c.req.valid('json');
      return c.json(await setCreditLimit(deps.db, c.get('auth'), c.req.valid('param').id, creditLimit), 200);
    });
}
