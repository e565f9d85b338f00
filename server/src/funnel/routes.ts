import { ZFunnelListQuery, ZOpportunity, ZOpportunityCreate, ZOpportunityPatch } from '@campo/shared';
import { createRoute, z } from '@hono/zod-openapi';
import type { Db } from '../db/kysely.ts';
import { bearer, errorResponses, json, problem, router } from '../http/openapi.ts';
import { createOpportunity, deleteOpportunity, listOpportunities, updateOpportunity } from './service.ts';

const ZIdParam = z.object({
  id: z
    .uuid()
    .max(36)
    .describe('Opportunity id (UUID)')
    .openapi({ param: { name: 'id', in: 'path' } }),
});

const ADDRESSING =
  'One opportunity is addressed by its UUID in the path (/funil/{id}); the spec names PATCH /funil and DELETE /funil, and {id} is the opportunity under that collection.';

const listRoute = createRoute({
  method: 'get',
  path: '/funil',
  tags: ['funnel'],
  summary: "List the representative's opportunities",
  description: 'Representatives only; most recently changed first.',
  security: bearer,
  request: { query: ZFunnelListQuery },
  responses: {
    200: json(z.object({ items: z.array(ZOpportunity).describe('The opportunities') }), 'The funnel'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
  },
});

const createOpportunityRoute = createRoute({
  method: 'post',
  path: '/funil',
  tags: ['funnel'],
  summary: 'Create an opportunity (idempotent by its UUID)',
  description:
    'Representatives only. The id is a UUID made by the device: the same id with the same content answers 200 with the existing opportunity; with other content, 409 OPPORTUNITY_ID_TAKEN. idCliente must be in the caller’s portfolio (422 CLIENT_NOT_IN_PORTFOLIO), idPedido one of the caller’s orders (422 ORDER_NOT_FOUND); perdido needs motivoPerda.',
  security: bearer,
  request: { body: { required: true, content: { 'application/json': { schema: ZOpportunityCreate } } } },
  responses: {
    200: json(ZOpportunity, 'Already created with this id and content'),
    201: json(ZOpportunity, 'Created'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
    409: problem('The id exists with other content', 'OPPORTUNITY_ID_TAKEN'),
    422: problem('A linked client or order the caller does not have', 'CLIENT_NOT_IN_PORTFOLIO', 'ORDER_NOT_FOUND'),
  },
});

const patchRoute = createRoute({
  method: 'patch',
  path: '/funil/{id}',
  tags: ['funnel'],
  summary: 'Change an opportunity, e.g. its stage',
  description: `${ADDRESSING} Only the fields sent change (null clears). Conflict rule: with baseAtualizadoEm (the atualizadoEm the device last saw), a card changed since answers 409 OPPORTUNITY_CONFLICT with the current card in \`atual\`; without it, the last writer wins. Moving to perdido needs motivoPerda (422 LOSS_REASON_REQUIRED).`,
  security: bearer,
  request: {
    params: ZIdParam,
    body: { required: true, content: { 'application/json': { schema: ZOpportunityPatch } } },
  },
  responses: {
    200: json(ZOpportunity, 'The opportunity after the change'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
    404: errorResponses[404],
    409: problem('Changed since baseAtualizadoEm', 'OPPORTUNITY_CONFLICT'),
    422: problem(
      'A rule of the card, or a linked client or order the caller does not have',
      'LOSS_REASON_REQUIRED',
      'CLIENT_OR_PROSPECT_REQUIRED',
      'CLIENT_NOT_IN_PORTFOLIO',
      'ORDER_NOT_FOUND',
    ),
  },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/funil/{id}',
  tags: ['funnel'],
  summary: 'Delete an opportunity',
  description: ADDRESSING,
  security: bearer,
  request: { params: ZIdParam },
  responses: {
    204: { description: 'Deleted' },
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
    404: errorResponses[404],
  },
});

export function funnelRoutes(deps: { db: Db }) {
  return router()
    .openapi(listRoute, async (c) =>
      c.json(await listOpportunities(deps.db, c.get('auth'), c.req.valid('query').estagio), 200),
    )
    .openapi(createOpportunityRoute, async (c) => {
      const result = await createOpportunity(deps.db, c.get('auth'), c.req.valid('json'));
      c.header('Location', `/api/v1/funil/${result.body.id}`);
      return result.created ? c.json(result.body, 201) : c.json(result.body, 200);
    })
    .openapi(patchRoute, async (c) =>
      c.json(await updateOpportunity(deps.db, c.get('auth'), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(deleteRoute, async (c) => {
      await deleteOpportunity(deps.db, c.get('auth'), c.req.valid('param').id);
      return c.body(null, 204);
    });
}
