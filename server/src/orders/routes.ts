import {
  IDEMPOTENCY_KEY,
  ZIsoDate,
  ZOrder,
  ZOrderCreate,
  ZOrderDetail,
  ZOrderReject,
  ZOrderStatus,
  ZOrderSummary,
} from '@campo/shared';
import { createRoute, z } from '@hono/zod-openapi';
import type { Db } from '../db/kysely.ts';
import { DomainError } from '../errors.ts';
import { badRequest, bearer, errorResponses, idParam, json, problem, router } from '../http/openapi.ts';
import { createOrder, decideOrder, getOrder, listOrders } from './service.ts';

const ZIdParam = idParam('Order id');

const createOrderRoute = createRoute({
  method: 'post',
  path: '/orders',
  tags: ['orders'],
  summary: 'Create an order (representatives)',
  description:
    'Idempotent by the Idempotency-Key header (required): the same key and payload replay the first answer with Idempotent-Replayed: true; the same key with another payload gets 422 IDEMPOTENCY_KEY_REUSED; while the first request is still being processed, 409 IDEMPOTENCY_KEY_IN_FLIGHT. Keys are scoped by tenant and user and never expire. Only a created order binds its key: a refused one may be fixed and sent again. The server recomputes prices, ceilings and totals; a line above its ceiling refuses the whole order with 422 ORDER_REFUSED and a reason per line.',
  security: bearer,
  request: {
    headers: z.object({
      'idempotency-key': z
        .string()
        // Documented only: the handler checks the key itself (trimmed, 8 to 128 of [A-Za-z0-9_.:-]) to
        // answer IDEMPOTENCY_KEY_INVALID, a code clients rely on, rather than VALIDATION_FAILED.
        .meta({ minLength: 8, maxLength: 128 })
        .optional()
        .describe('A unique key per order, e.g. a UUID made by the device when the order was created'),
    }),
    body: { required: true, content: { 'application/json': { schema: ZOrderCreate } } },
  },
  responses: {
    201: json(ZOrder, 'Created (or replayed: header Idempotent-Replayed: true)'),
    400: badRequest('IDEMPOTENCY_KEY_INVALID'),
    401: errorResponses[401],
    403: errorResponses[403],
    409: problem('Another request with this key is still being processed', 'IDEMPOTENCY_KEY_IN_FLIGHT'),
    422: problem(
      'Refused: ORDER_REFUSED with `reasons`, or IDEMPOTENCY_KEY_REUSED',
      'ORDER_REFUSED',
      'IDEMPOTENCY_KEY_REUSED',
    ),
  },
});

const ZListQuery = z.object({
  status: z
    .union([ZOrderStatus, z.array(ZOrderStatus).max(ZOrderStatus.options.length)])
    .optional()
    .transform((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]))
    .describe('Only these statuses (repeat the parameter for several)'),
  numero: z.coerce.number().int().positive().max(2_147_483_647).optional().describe('Order number (num_ped_sar)'),
  idCliente: z.coerce.number().int().positive().max(2_147_483_647).optional().describe('Only this client'),
  dataInicio: ZIsoDate.optional().describe('Created on or after this business day (São Paulo)'),
  dataFim: ZIsoDate.optional().describe('Created on or before this business day (São Paulo)'),
  page: z.coerce.number().int().min(1).max(100_000).default(1).describe('Page, from 1'),
  pageSize: z.coerce.number().int().min(1).max(100).default(50).describe('Orders per page, 1 to 100'),
});

const listOrdersRoute = createRoute({
  method: 'get',
  path: '/orders',
  tags: ['orders'],
  summary: 'List orders',
  description:
    "A representative sees their own orders, a supervisor their team's, managers and admins the tenant's; newest first.",
  security: bearer,
  request: { query: ZListQuery },
  responses: {
    200: json(
      z.object({
        items: z.array(ZOrderSummary).describe('The page'),
        page: z.number().int().describe('Page number'),
        pageSize: z.number().int().describe('Page size'),
        total: z.number().int().describe('Orders matching the filters'),
      }),
      'A page of orders',
    ),
    400: errorResponses[400],
    401: errorResponses[401],
  },
});

const getOrderRoute = createRoute({
  method: 'get',
  path: '/orders/{id}',
  tags: ['orders'],
  summary: 'An order with its lines, status history, ERP situation and invoices',
  description:
    "The representative who owns the order, and supervisors and managers whose scope covers it, see it; anyone else gets 404, as for an unknown order. invoices: the ERP's invoices of the order (app.vw_notas_pedido), cancelled ones included and marked, each with its lines (app.notas_itens_erp; optional in the ERP contract); per line, quantidadeFaturada counts only the non-cancelled invoices and quantidadeAberta is what remains to invoice, both null when the ERP keeps no invoice lines.",
  security: bearer,
  request: { params: ZIdParam },
  responses: {
    200: json(ZOrderDetail, 'The order'),
    400: errorResponses[400],
    401: errorResponses[401],
    404: errorResponses[404],
  },
});

const decisionResponses = {
  200: json(ZOrder, 'The order after the decision'),
  400: errorResponses[400],
  401: errorResponses[401],
  403: errorResponses[403],
  404: errorResponses[404],
  409: problem('The order is no longer pending', 'ORDER_ALREADY_DECIDED'),
  422: problem('The ERP refused the order; the approval was rolled back', 'ERP_REPLICATION_FAILED'),
};

const approveRoute = createRoute({
  method: 'post',
  path: '/orders/{id}/approve',
  tags: ['orders'],
  summary: 'Approve a pending order: it is written into the ERP in the same transaction',
  description: "The representative's supervisor, a manager or an admin of the tenant.",
  security: bearer,
  request: { params: ZIdParam },
  responses: decisionResponses,
});

const rejectRoute = createRoute({
  method: 'post',
  path: '/orders/{id}/reject',
  tags: ['orders'],
  summary: 'Reject a pending order, with the reason',
  description: "The representative's supervisor, a manager or an admin of the tenant.",
  security: bearer,
  request: { params: ZIdParam, body: { required: true, content: { 'application/json': { schema: ZOrderReject } } } },
  responses: decisionResponses,
});

export function orderRoutes(deps: { db: Db }) {
  return router()
    .openapi(createOrderRoute, async (c) => {
      const raw = c.req.valid('header')['idempotency-key'];
      const key = raw === undefined ? undefined : IDEMPOTENCY_KEY.exec(raw.trim())?.[1];
      if (!key) {
        throw new DomainError(
          'IDEMPOTENCY_KEY_INVALID',
          raw === undefined
            ? 'Envie o cabeçalho Idempotency-Key com uma chave única por pedido (por exemplo um UUID).'
            : 'A Idempotency-Key deve ter de 8 a 128 letras, dígitos, ponto, hífen, dois-pontos ou sublinhado.',
          { errors: [{ path: 'header.idempotency-key', message: 'obrigatória: 8 a 128 caracteres [A-Za-z0-9_.:-]' }] },
        );
      }
      const result = await createOrder(deps.db, c.get('auth'), key, c.req.valid('json'));
      if (result.replayed) c.header('Idempotent-Replayed', 'true');
      c.header('Location', `/api/v1/orders/${result.body.id}`);
      return c.json(result.body, 201);
    })
    .openapi(listOrdersRoute, async (c) => {
      const qy = c.req.valid('query');
      return c.json(
        await listOrders(deps.db, c.get('auth'), {
          status: qy.status,
          numPedSar: qy.numero,
          idCliente: qy.idCliente,
          dataInicio: qy.dataInicio,
          dataFim: qy.dataFim,
          page: qy.page,
          pageSize: qy.pageSize,
        }),
        200,
      );
    })
    .openapi(getOrderRoute, async (c) => c.json(await getOrder(deps.db, c.get('auth'), c.req.valid('param').id), 200))
    .openapi(approveRoute, async (c) =>
      c.json(await decideOrder(deps.db, c.get('auth'), c.req.valid('param').id, { approve: true }), 200),
    )
    .openapi(rejectRoute, async (c) =>
      c.json(
        await decideOrder(deps.db, c.get('auth'), c.req.valid('param').id, {
          approve: false,
          motivo: c.req.valid('json').motivo,
        }),
        200,
      ),
    );
}
