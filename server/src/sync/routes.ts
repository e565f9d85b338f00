import { SYNC_LIMIT_MAX, ZSyncPull, ZSyncPullParams, ZSyncPullQuery } from '@campo/shared';
import { createRoute, z } from '@hono/zod-openapi';
import type { Db } from '../db/kysely.ts';
import { bearer, errorResponses, json, problem, router } from '../http/openapi.ts';
import { pull } from './service.ts';
import { type ChangeHub, HEARTBEAT_MS, streamChanges } from './stream.ts';

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

const streamRoute = createRoute({
  method: 'get',
  path: '/sync/stream',
  tags,
  summary: 'Server-sent events: which collections changed',
  description:
    'A text/event-stream that tells the device when to pull (docs/sync.md). First a `resync` event (pull every collection from its checkpoint: covers what changed while disconnected), then `change` events whose data is `{"colecao":"pedidos"|"produtos"|"clientes"}` as changes commit on any server process, and a `heartbeat` event every 25 s. A representative hears of their own orders and of tenant-wide changes only. The stream ends when the client disconnects; reconnect and expect `resync` again. 503 SYNC_STREAM_DISABLED when the server runs without the change hub: poll instead.',
  security: bearer,
  responses: {
    200: {
      description: 'An endless event stream: events `resync`, `change` (data `{ colecao }`) and `heartbeat`',
      content: { 'text/event-stream': { schema: z.string() } },
    },
    401: errorResponses[401],
    503: problem('The server sends no change announcements (no change hub)'),
  },
});

export function syncRoutes(deps: { db: Db; hub?: ChangeHub; heartbeatMs?: number }) {
  return router()
    .openapi(pullRoute, async (c) =>
      c.json(await pull(deps.db, c.get('auth'), c.req.valid('param').collection, c.req.valid('query')), 200),
    )
    .openapi(streamRoute, (c) => streamChanges(c, deps.hub, c.get('auth'), deps.heartbeatMs ?? HEARTBEAT_MS));
}
