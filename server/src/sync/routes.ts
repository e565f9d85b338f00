import { SYNC_LIMIT_MAX, ZSyncPull, ZSyncPullParams, ZSyncPullQuery } from '@campo/shared';
import { createRoute } from '@hono/zod-openapi';
import type { Db } from '../db/kysely.ts';
import { bearer, errorResponses, json, router } from '../http/openapi.ts';
import { pull } from './service.ts';

const tags = ['sync'];

const pullRoute = createRoute({
  method: 'get',
  path: '/sync/{collection}/pull',
  tags,
  summary: 'Replication pull of a collection',
  description: `RxDB checkpoint iteration (docs/sync.md): the documents of produtos or clientes changed after the checkpoint, in revision order, at most limit (1 to ${SYNC_LIMIT_MAX}); deletions come as { id, _deleted: true }. Send the answer's checkpoint on the next pull; fewer documents than limit means up to date. A representative gets the tenant's products and the clients of their portfolio; supervisors, managers and admins get every client of the tenant. A malformed checkpoint, or one issued for another user scope or collection, is a 400. The first pull of a tenant with an empty change log refreshes it first.`,
  security: bearer,
  request: { params: ZSyncPullParams, query: ZSyncPullQuery },
  responses: {
    200: json(ZSyncPull, 'A batch of changed documents and the next checkpoint'),
    400: errorResponses[400],
    401: errorResponses[401],
    404: errorResponses[404],
  },
});

export function syncRoutes(deps: { db: Db }) {
  return router().openapi(pullRoute, async (c) =>
    c.json(await pull(deps.db, c.get('auth'), c.req.valid('param').collection, c.req.valid('query')), 200),
  );
}
