import {
  pageOf,
  ZCompanyTicketListQuery,
  ZTicket,
  ZTicketCreate,
  ZTicketListQuery,
  ZTicketReply,
  ZTicketSummary,
} from '@campo/shared';
import { createRoute } from '@hono/zod-openapi';
import type { Db } from '../db/kysely.ts';
import { bearer, errorResponses, idParam, json, problem, router } from '../http/openapi.ts';
import { closeTicket, createTicket, getTicket, listTickets, replyTicket } from './service.ts';

const ZIdParam = idParam('Ticket id');

const STATES =
  'States: create → aberto; company reply → respondido; representative reply → aberto; resolve (company) and cancel (representative) from aberto or respondido → resolvido / cancelado. Any action on a resolvido or cancelado ticket answers 409 TICKET_CLOSED.';

const ticketPage = pageOf(ZTicketSummary, 'A page of tickets, most recently updated first');
const actionResponses = (what: string) => ({
  200: json(ZTicket, what),
  400: errorResponses[400],
  401: errorResponses[401],
  403: errorResponses[403],
  404: errorResponses[404],
  409: problem('The ticket is resolvido or cancelado', 'TICKET_CLOSED'),
});
const replyBody = { body: { required: true, content: { 'application/json': { schema: ZTicketReply } } } };

// Representative side ---------------------------------------------------------------------

const listRoute = createRoute({
  method: 'get',
  path: '/chamados',
  tags: ['tickets'],
  summary: "List the representative's own tickets",
  description: 'Representatives only. Paginated; filter by status.',
  security: bearer,
  request: { query: ZTicketListQuery },
  responses: {
    200: json(ticketPage, 'A page of tickets'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
  },
});

const getRoute = createRoute({
  method: 'get',
  path: '/chamados/{id}',
  tags: ['tickets'],
  summary: 'One of the representative’s tickets with its message thread',
  security: bearer,
  request: { params: ZIdParam },
  responses: {
    200: json(ZTicket, 'The ticket'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
    404: errorResponses[404],
  },
});

const createTicketRoute = createRoute({
  method: 'post',
  path: '/chamados',
  tags: ['tickets'],
  summary: 'Open a ticket about one of the representative’s orders',
  description: `Representatives only. About a Campo order of the caller (idPedido) or an ERP order of the caller found in vw_sitpedido (numPedErp); the client's name is copied from the order. Another representative's or a missing order answers 422 ORDER_NOT_FOUND. The tenant's managers get a push. ${STATES}`,
  security: bearer,
  request: { body: { required: true, content: { 'application/json': { schema: ZTicketCreate } } } },
  responses: {
    201: json(ZTicket, 'The new ticket, status aberto'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
    422: problem('The order is not one of the caller’s', 'ORDER_NOT_FOUND'),
  },
});

const replyRoute = createRoute({
  method: 'post',
  path: '/chamados/{id}/mensagens',
  tags: ['tickets'],
  summary: 'Reply in one of the representative’s tickets (status → aberto)',
  description: `The tenant's managers get a push. ${STATES}`,
  security: bearer,
  request: { params: ZIdParam, ...replyBody },
  responses: actionResponses('The ticket with the new message'),
});

const cancelRoute = createRoute({
  method: 'post',
  path: '/chamados/{id}/cancelar',
  tags: ['tickets'],
  summary: 'Cancel one of the representative’s tickets (aberto or respondido → cancelado)',
  description: STATES,
  security: bearer,
  request: { params: ZIdParam },
  responses: actionResponses('The cancelled ticket'),
});

// Company side -----------------------------------------------------------------------------

const companyListRoute = createRoute({
  method: 'get',
  path: '/ger/chamados',
  tags: ['tickets'],
  summary: "List the company's tickets (managers and admins)",
  description:
    'Every ticket of the tenant, most recently updated first; filters by status, representative, client (id or part of the name) and opening day (São Paulo).',
  security: bearer,
  request: { query: ZCompanyTicketListQuery },
  responses: {
    200: json(ticketPage, 'A page of tickets'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
  },
});

const companyGetRoute = createRoute({
  method: 'get',
  path: '/ger/chamados/{id}',
  tags: ['tickets'],
  summary: 'A ticket of the company with its message thread (managers and admins)',
  security: bearer,
  request: { params: ZIdParam },
  responses: {
    200: json(ZTicket, 'The ticket'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
    404: errorResponses[404],
  },
});

const companyReplyRoute = createRoute({
  method: 'post',
  path: '/ger/chamados/{id}/mensagens',
  tags: ['tickets'],
  summary: 'Reply to a ticket as the company (status → respondido)',
  description: `Managers and admins. The ticket's representative gets a push. ${STATES}`,
  security: bearer,
  request: { params: ZIdParam, ...replyBody },
  responses: actionResponses('The ticket with the new message'),
});

const resolveRoute = createRoute({
  method: 'post',
  path: '/ger/chamados/{id}/resolver',
  tags: ['tickets'],
  summary: 'Resolve a ticket (aberto or respondido → resolvido)',
  description: `Managers and admins. ${STATES}`,
  security: bearer,
  request: { params: ZIdParam },
  responses: actionResponses('The resolved ticket'),
});

export function ticketRoutes(deps: { db: Db }) {
  return router()
    .openapi(listRoute, async (c) =>
      c.json(await listTickets(deps.db, c.get('auth'), 'representative', c.req.valid('query')), 200),
    )
    .openapi(getRoute, async (c) =>
      c.json(await getTicket(deps.db, c.get('auth'), 'representative', c.req.valid('param').id), 200),
    )
    .openapi(createTicketRoute, async (c) => {
      const ticket = await createTicket(deps.db, c.get('auth'), c.req.valid('json'));
      c.header('Location', `/api/v1/chamados/${ticket.id}`);
      return c.json(ticket, 201);
    })
    .openapi(replyRoute, async (c) =>
      c.json(
        await replyTicket(deps.db, c.get('auth'), 'representative', c.req.valid('param').id, c.req.valid('json').texto),
        200,
      ),
    )
    .openapi(cancelRoute, async (c) =>
      c.json(await closeTicket(deps.db, c.get('auth'), 'representative', c.req.valid('param').id), 200),
    )
    .openapi(companyListRoute, async (c) =>
      c.json(await listTickets(deps.db, c.get('auth'), 'company', c.req.valid('query')), 200),
    )
    .openapi(companyGetRoute, async (c) =>
      c.json(await getTicket(deps.db, c.get('auth'), 'company', c.req.valid('param').id), 200),
    )
    .openapi(companyReplyRoute, async (c) =>
      c.json(
        await replyTicket(deps.db, c.get('auth'), 'company', c.req.valid('param').id, c.req.valid('json').texto),
        200,
      ),
    )
    .openapi(resolveRoute, async (c) =>
      c.json(await closeTicket(deps.db, c.get('auth'), 'company', c.req.valid('param').id), 200),
    );
}
