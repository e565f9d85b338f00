// The representative's day in the field (docs/visits.md): the route of the day, check-in and
// check-out, the visit's photo, the reasons list, the clients' visit days and the supervisor's
// summary of a day.
import {
  VISIT_PHOTO_MAX_BYTES,
  VISIT_PHOTO_MAX_DIMENSION,
  VISIT_PHOTO_MIME_TYPES,
  VISIT_PHOTO_UPLOAD_CONTENT_TYPES,
  ZCheckIn,
  ZCheckOut,
  ZPositionProposalPage,
  ZPositionProposalQuery,
  ZRouteDay,
  ZRouteOrder,
  ZRouteQuery,
  ZVisit,
  ZVisitListQuery,
  ZVisitPage,
  ZVisitPlan,
  ZVisitPlanListQuery,
  ZVisitPlanPage,
  ZVisitPlanPut,
  ZVisitReason,
  ZVisitReasonCreate,
  ZVisitReasonList,
  ZVisitReasonPatch,
  ZVisitSummary,
  ZVisitSummaryQuery,
} from '@campo/shared';
import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { permit } from '../auth/authorize.ts';
import type { Db } from '../db/kysely.ts';
import { DomainError } from '../errors.ts';
import type { AppEnv } from '../http/env.ts';
import { limitBodyTo } from '../http/middleware.ts';
import { badRequest, bearer, errorResponses, idParam, json, problem, router } from '../http/openapi.ts';
import { photoProblems } from './photo.ts';
import {
  checkIn,
  checkOut,
  confirmPosition,
  createReason,
  daySummary,
  getPhoto,
  getPlan,
  getRoute,
  getVisit,
  listPlans,
  listProposals,
  listReasons,
  listVisits,
  type MapTiles,
  putPhoto,
  putPlan,
  reorderRoute,
  updateReason,
} from './service.ts';

const ZVisitId = z.object({
  id: z
    .uuid()
    .max(36)
    .describe('The visit id (the UUID the device made)')
    .openapi({ param: { name: 'id', in: 'path' } }),
});

const ZClientParam = z.object({
  idCliente: z.coerce
    .number()
    .int()
    .positive()
    .max(2_147_483_647)
    .describe('Client id')
    .openapi({ param: { name: 'idCliente', in: 'path' } }),
});

const jsonBody = <T>(schema: T) => ({ required: true, content: { 'application/json': { schema } } });

const routeRoute = createRoute({
  method: 'get',
  path: '/visits/route',
  tags: ['visits'],
  summary: "A representative's route of a day (every role, within reach)",
  description:
    "The clients of the portfolio due that day (their visit days: the ERP's, else Campo's plan), in the representative's order, each with its state, and the clients visited outside the route. A representative gets their own; supervisors and managers name codVendedor in their reach (400 COD_VENDEDOR_REQUIRED without it, 404 out of reach). resumo gives the Início's line: \"roteiro de hoje: 5 de 8 visitados, 3 com pedido\".",
  security: bearer,
  request: { query: ZRouteQuery },
  responses: {
    200: json(ZRouteDay, 'The route'),
    400: badRequest('COD_VENDEDOR_REQUIRED'),
    401: errorResponses[401],
    404: errorResponses[404],
  },
});

const reorderRouteRoute = createRoute({
  method: 'put',
  path: '/visits/route/order',
  tags: ['visits'],
  summary: "Reorder the day's route (representative)",
  description:
    'The clients in the order the representative means to visit them; the route’s clients not named follow in the default order (by name), and ids not on the route are ignored.',
  security: bearer,
  request: { body: jsonBody(ZRouteOrder) },
  responses: {
    200: json(ZRouteDay, 'The route in its new order'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
  },
});

const checkInRoute = createRoute({
  method: 'post',
  path: '/visits',
  tags: ['visits'],
  summary: 'Cheguei: check in at a client (representative; idempotent by the visit id)',
  description:
    "The device's time and position (null when the representative refused location: the visit counts, marked without position) are kept with the server's receipt time. The distance to the client's known position (the ERP's, or a check-in a supervisor confirmed) is stored; a client without one takes this check-in's position as a proposal. The same id again answers 200 with the visit, also while the first is still in flight (it waits for it). Refused: a client outside the portfolio (422 CLIENT_NOT_IN_PORTFOLIO), another visit still open (409 VISIT_ALREADY_OPEN with visitaAberta), the id used for another client or held by someone else, in any tenant (409 VISIT_ID_TAKEN: visit ids are unique everywhere).",
  security: bearer,
  request: { body: jsonBody(ZCheckIn) },
  responses: {
    200: json(ZVisit, 'Already checked in with this id'),
    201: json(ZVisit, 'Checked in'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
    409: problem('Another visit is open, or the id is taken', 'VISIT_ALREADY_OPEN', 'VISIT_ID_TAKEN'),
    422: problem('The client is not in the portfolio', 'CLIENT_NOT_IN_PORTFOLIO'),
  },
});

const listRoute = createRoute({
  method: 'get',
  path: '/visits',
  tags: ['visits'],
  summary: 'The visits of a day (within reach)',
  description:
    'By check-in time. A representative sees their own; a supervisor their team; managers and admins the tenant; codVendedor narrows to one representative in reach (404 otherwise).',
  security: bearer,
  request: { query: ZVisitListQuery },
  responses: {
    200: json(ZVisitPage, 'A page of visits'),
    400: errorResponses[400],
    401: errorResponses[401],
    404: errorResponses[404],
  },
});

const summaryRoute = createRoute({
  method: 'get',
  path: '/visits/summary',
  tags: ['visits'],
  summary: "The representatives' day in the field (supervisor, manager, admin)",
  description:
    'Per representative, by name: route coverage (visited / planned), visits, positivation against visits (visited clients with an order / clients visited), visits without an order by reason, minutes in visits, visits without position and visits farther than longeMetros from their client. A supervisor gets their team; managers and admins the tenant or one team (codSupervisor).',
  security: bearer,
  middleware: [permit('visits.team')] as const,
  request: { query: ZVisitSummaryQuery },
  responses: {
    200: json(ZVisitSummary, "A page of the representatives' day"),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
    404: errorResponses[404],
  },
});

const getRoute_ = createRoute({
  method: 'get',
  path: '/visits/{id}',
  tags: ['visits'],
  summary: 'One visit (within reach)',
  security: bearer,
  request: { params: ZVisitId },
  responses: {
    200: json(ZVisit, 'The visit'),
    400: errorResponses[400],
    401: errorResponses[401],
    404: errorResponses[404],
  },
});

const checkOutRoute = createRoute({
  method: 'post',
  path: '/visits/{id}/checkout',
  tags: ['visits'],
  summary: 'Saí: check out of a visit (representative)',
  description:
    "Links the representative's order for the client received that day (not rejected, not linked to another visit); without one, idMotivo is required (422 VISIT_REASON_REQUIRED) and must be an active reason of the tenant's list (422 VISIT_REASON_NOT_FOUND); a reason may ask for a note (422 VISIT_NOTE_REQUIRED) or a photo sent before (PUT /visits/{id}/photo; 422 VISIT_PHOTO_REQUIRED). A visit the server holds no check-in for answers 404 VISIT_NOT_CHECKED_IN (an id another representative owns, 403); the same check-out again answers the visit; another one, 409 VISIT_ALREADY_CLOSED.",
  security: bearer,
  request: { params: ZVisitId, body: jsonBody(ZCheckOut) },
  responses: {
    200: json(ZVisit, 'The visit, closed'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
    404: problem(
      'The server holds no check-in for this visit (or it is another tenant’s)',
      'VISIT_NOT_CHECKED_IN',
      'NOT_FOUND',
    ),
    409: problem('Already closed otherwise', 'VISIT_ALREADY_CLOSED'),
    422: problem(
      'A visit without an order needs a reason of the list, with what it asks for',
      'VISIT_REASON_REQUIRED',
      'VISIT_REASON_NOT_FOUND',
      'VISIT_NOTE_REQUIRED',
      'VISIT_PHOTO_REQUIRED',
    ),
  },
});

const photoBytes = {
  type: 'string',
  format: 'binary',
  // For a binary body the length is in bytes; refused with 413 past it (visits/photo.ts).
  maxLength: VISIT_PHOTO_MAX_BYTES,
  description: `The image file itself, at most ${VISIT_PHOTO_MAX_BYTES} bytes (768 KiB)`,
} as const;

function acceptedContentType(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const declared = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (!(VISIT_PHOTO_UPLOAD_CONTENT_TYPES as readonly string[]).includes(declared)) {
      throw photoProblems.unsupportedType(declared || null);
    }
    await next();
  };
}

const putPhotoRoute = createRoute({
  method: 'put',
  path: '/visits/{id}/photo',
  tags: ['visits'],
  summary: "Send a visit's photo (representative)",
  description: [
    'The body is the raw image file (Content-Type image/png, image/jpeg, image/webp or application/octet-stream), kept out of the JSON documents.',
    'It may be sent before the visit reaches the server (offline, the phone sends photos first): it is kept under the visit id. Sending it again replaces it.',
    'The type is recognised from the bytes, never from the Content-Type: anything but PNG, JPEG or WebP answers 415.',
    `At most ${VISIT_PHOTO_MAX_BYTES} bytes (768 KiB), refused while the body is read (413); unreadable, truncated images, data after the image or sides over ${VISIT_PHOTO_MAX_DIMENSION} pixels answer 422.`,
  ].join(' '),
  security: bearer,
  // The size first, as every other route's body limit runs before its role check.
  middleware: [
    limitBodyTo(VISIT_PHOTO_MAX_BYTES, photoProblems.tooLarge),
    permit('visits.representative'),
    acceptedContentType(),
  ] as const,
  request: {
    params: ZVisitId,
    body: {
      required: true,
      description: 'The image file',
      content: Object.fromEntries(VISIT_PHOTO_UPLOAD_CONTENT_TYPES.map((type) => [type, { schema: photoBytes }])),
    },
  },
  responses: {
    204: { description: 'Kept' },
    400: badRequest('VISIT_PHOTO_EMPTY'),
    401: errorResponses[401],
    403: problem('Not a representative, or the visit id is another representative’s', 'FORBIDDEN'),
    404: errorResponses[404],
    413: problem('Larger than 768 KiB', 'VISIT_PHOTO_TOO_LARGE'),
    415: problem('Not a PNG, JPEG or WebP image, whatever the Content-Type said', 'VISIT_PHOTO_TYPE_NOT_SUPPORTED'),
    422: problem('Unreadable, truncated or too large an image', 'VISIT_PHOTO_INVALID'),
  },
});

const getPhotoRoute = createRoute({
  method: 'get',
  path: '/visits/{id}/photo',
  tags: ['visits'],
  summary: "A visit's photo (within reach)",
  description:
    'The image as sent, with its sniffed type; served with nosniff and a sandboxing Content-Security-Policy so that it is only ever shown as an image.',
  security: bearer,
  request: { params: ZVisitId },
  responses: {
    200: {
      description: 'The image',
      content: Object.fromEntries(
        VISIT_PHOTO_MIME_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
      ),
    },
    400: errorResponses[400],
    401: errorResponses[401],
    404: errorResponses[404],
  },
});

const confirmPositionRoute = createRoute({
  method: 'post',
  path: '/visits/{id}/confirm-position',
  tags: ['visits'],
  summary: "Take a visit's check-in position as its client's (supervisor, manager)",
  description:
    "For a client whose ERP keeps no coordinates (409 VISIT_PLAN_FROM_ERP otherwise): the position counts for distances from now on, and the client's visits that had no distance are measured.",
  security: bearer,
  middleware: [permit('visits.plan')] as const,
  request: { params: ZVisitId },
  responses: {
    200: json(ZVisit, 'The visit, measured against its position'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
    404: errorResponses[404],
    409: problem("The ERP keeps the client's position", 'VISIT_PLAN_FROM_ERP'),
  },
});

const proposalsRoute = createRoute({
  method: 'get',
  path: '/visit-positions',
  tags: ['visits'],
  summary: 'Clients’ positions proposed by a first check-in, to confirm (supervisor, manager)',
  description:
    'For clients whose ERP keeps no coordinates: the first check-in with a position proposed one; POST /visits/{visita}/confirm-position takes it. A supervisor sees their team’s clients; codVendedor narrows to one representative in reach.',
  security: bearer,
  middleware: [permit('visits.plan')] as const,
  request: { query: ZPositionProposalQuery },
  responses: {
    200: json(ZPositionProposalPage, 'A page of proposals'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
    404: errorResponses[404],
  },
});

const reasonsRoute = createRoute({
  method: 'get',
  path: '/visit-reasons',
  tags: ['visits'],
  summary: 'The reasons for a visit without an order (every role)',
  description:
    'The tenant starts with fechado, sem necessidade, estoque alto, preço, concorrente, comprador ausente and outro (which asks for a note); managers edit them. Active first, by position.',
  security: bearer,
  responses: {
    200: json(ZVisitReasonList, 'The reasons'),
    401: errorResponses[401],
  },
});

const createReasonRoute = createRoute({
  method: 'post',
  path: '/visit-reasons',
  tags: ['visits'],
  summary: 'Add a reason (manager)',
  description: 'At most 100 reasons per tenant (409 VISIT_REASONS_FULL).',
  security: bearer,
  middleware: [permit('visits.reasons')] as const,
  request: { body: jsonBody(ZVisitReasonCreate) },
  responses: {
    201: json(ZVisitReason, 'Added'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
    409: problem('The list is full', 'VISIT_REASONS_FULL'),
  },
});

const patchReasonRoute = createRoute({
  method: 'patch',
  path: '/visit-reasons/{id}',
  tags: ['visits'],
  summary: 'Change or deactivate a reason (manager)',
  description:
    'Only the fields sent change. A reason is never deleted (visits name it): ativo false takes it off the representatives’ list.',
  security: bearer,
  middleware: [permit('visits.reasons')] as const,
  request: { params: idParam('Reason id'), body: jsonBody(ZVisitReasonPatch) },
  responses: {
    200: json(ZVisitReason, 'The reason'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
    404: errorResponses[404],
  },
});

const listPlansRoute = createRoute({
  method: 'get',
  path: '/visit-plans',
  tags: ['visits'],
  summary: "A representative's clients with their visit days (every role, within reach)",
  description:
    'The active clients of the portfolio, by name, each with its visit days and where they come from (erp, campo, nenhum): what a supervisor plans the route from. A representative gets their own; supervisors and managers name codVendedor in their reach (400 COD_VENDEDOR_REQUIRED without it, 404 out of reach).',
  security: bearer,
  request: { query: ZVisitPlanListQuery },
  responses: {
    200: json(ZVisitPlanPage, 'A page of clients'),
    400: badRequest('COD_VENDEDOR_REQUIRED'),
    401: errorResponses[401],
    404: errorResponses[404],
  },
});

const getPlanRoute = createRoute({
  method: 'get',
  path: '/visit-plans/{idCliente}',
  tags: ['visits'],
  summary: "A client's visit days (within reach)",
  description: "origem erp: the ERP keeps them (read-only in Campo); campo: a supervisor's; nenhum: none.",
  security: bearer,
  request: { params: ZClientParam },
  responses: {
    200: json(ZVisitPlan, 'The visit days'),
    400: errorResponses[400],
    401: errorResponses[401],
    404: errorResponses[404],
  },
});

const putPlanRoute = createRoute({
  method: 'put',
  path: '/visit-plans/{idCliente}',
  tags: ['visits'],
  summary: "Set a client's visit days (supervisor, manager)",
  description:
    'Replaces Campo’s visit days of a client whose ERP keeps none (409 VISIT_PLAN_FROM_ERP otherwise); one entry per weekday; every N weeks needs dataBase. An empty list clears them.',
  security: bearer,
  middleware: [permit('visits.plan')] as const,
  request: { params: ZClientParam, body: jsonBody(ZVisitPlanPut) },
  responses: {
    200: json(ZVisitPlan, 'The visit days'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
    404: errorResponses[404],
    409: problem('The ERP keeps the visit days', 'VISIT_PLAN_FROM_ERP'),
  },
});

export function visitRoutes(deps: { db: Db; tiles: MapTiles }) {
  return router()
    .openapi(routeRoute, async (c) => c.json(await getRoute(deps.db, c.get('auth'), c.req.valid('query')), 200))
    .openapi(reorderRouteRoute, async (c) =>
      c.json(await reorderRoute(deps.db, c.get('auth'), c.req.valid('json')), 200),
    )
    .openapi(summaryRoute, async (c) =>
      c.json(await daySummary(deps.db, c.get('auth'), c.req.valid('query'), deps.tiles), 200),
    )
    .openapi(checkInRoute, async (c) => {
      const result = await checkIn(deps.db, c.get('auth'), c.req.valid('json'));
      c.header('Location', `/api/v1/visits/${result.body.id}`);
      return result.created ? c.json(result.body, 201) : c.json(result.body, 200);
    })
    .openapi(listRoute, async (c) => c.json(await listVisits(deps.db, c.get('auth'), c.req.valid('query')), 200))
    .openapi(getRoute_, async (c) => c.json(await getVisit(deps.db, c.get('auth'), c.req.valid('param').id), 200))
    .openapi(checkOutRoute, async (c) =>
      c.json(await checkOut(deps.db, c.get('auth'), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(putPhotoRoute, async (c) => {
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      if (bytes.length === 0) {
        throw new DomainError('VISIT_PHOTO_EMPTY', 'Envie o arquivo da foto no corpo da requisição.');
      }
      await putPhoto(deps.db, c.get('auth'), c.req.valid('param').id, bytes);
      return c.body(null, 204);
    })
    .openapi(getPhotoRoute, async (c) => {
      const photo = await getPhoto(deps.db, c.get('auth'), c.req.valid('param').id);
      // Only ever an image: never sniffed into something else, never a document with script.
      c.header('Content-Type', photo.mime);
      c.header('X-Content-Type-Options', 'nosniff');
      c.header('Content-Security-Policy', "default-src 'none'; sandbox");
      return c.body(new Uint8Array(photo.bytes), 200);
    })
    .openapi(confirmPositionRoute, async (c) =>
      c.json(await confirmPosition(deps.db, c.get('auth'), c.req.valid('param').id), 200),
    )
    .openapi(proposalsRoute, async (c) =>
      c.json(await listProposals(deps.db, c.get('auth'), c.req.valid('query')), 200),
    )
    .openapi(reasonsRoute, async (c) => c.json(await listReasons(deps.db, c.get('auth')), 200))
    .openapi(createReasonRoute, async (c) =>
      c.json(await createReason(deps.db, c.get('auth'), c.req.valid('json')), 201),
    )
    .openapi(patchReasonRoute, async (c) =>
      c.json(await updateReason(deps.db, c.get('auth'), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(listPlansRoute, async (c) => c.json(await listPlans(deps.db, c.get('auth'), c.req.valid('query')), 200))
    .openapi(getPlanRoute, async (c) =>
      c.json(await getPlan(deps.db, c.get('auth'), c.req.valid('param').idCliente), 200),
    )
    .openapi(putPlanRoute, async (c) =>
      c.json(await putPlan(deps.db, c.get('auth'), c.req.valid('param').idCliente, c.req.valid('json').dias), 200),
    );
}
