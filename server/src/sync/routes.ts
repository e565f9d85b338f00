import {
  SYNC_LIMIT_MAX,
  SYNC_PROTOCOL_MIN_VERSION,
  SYNC_PROTOCOL_VERSION,
  SYNC_PUSH_MAX,
  SYNC_SERVED,
  SYNC_VERSION_HEADER,
  syncVersionOf,
  ZSyncPull,
  ZSyncPullParams,
  ZSyncPullQuery,
  ZSyncPushBody,
  ZSyncPushParams,
  ZSyncPushResult,
} from '@campo/shared';
import { createRoute, z } from '@hono/zod-openapi';
import type pg from 'pg';
import type { Db } from '../db/kysely.ts';
import { DomainError } from '../errors.ts';
import { compressed } from '../http/compression.ts';
import { badRequest, bearer, errorResponses, json, problem, router } from '../http/openapi.ts';
import { definitionOf } from './collections.ts';
import { createSyncGate, type SyncGate } from './gate.ts';
import type { PageCache } from './page-cache.ts';
import { keptPull, type PullReplica, pull, pullWindow, push } from './service.ts';
import { type ChangeHub, HEARTBEAT_MS, streamChanges } from './stream.ts';

const tags = ['sync'];

const ZVersionHeaders = z.object({
  [SYNC_VERSION_HEADER.toLowerCase()]: z
    .string()
    .max(8)
    .optional()
    .describe(
      `The replication protocol version the device speaks (this server: ${SYNC_PROTOCOL_MIN_VERSION} to ${SYNC_PROTOCOL_VERSION}); absent means 1. Below the minimum: 426 with minVersion, update the app`,
    ),
});

const versionProblems = {
  426: problem(
    'The device speaks a replication version this server no longer serves: update the app (minVersion in the body)',
    'SYNC_VERSION_UNSUPPORTED',
  ),
};

/**
 * 426 for a device older than the server serves (it must update the app and then resumes with
 * its outbox), 400 for a malformed version or one newer than this server (a rolling deploy
 * that has not reached this process yet: retry).
 */
export function assertSyncVersion(header: string | undefined, minVersion: number): void {
  const version = syncVersionOf(header);
  const extra = { minVersion, currentVersion: SYNC_PROTOCOL_VERSION };
  if (version !== null && version < minVersion) {
    throw new DomainError(
      'SYNC_VERSION_UNSUPPORTED',
      `Esta versão do app (sincronização v${version}) não é mais atendida pelo servidor; a mínima é v${minVersion}. Atualize o app para continuar sincronizando: nada do que está no aparelho se perde.`,
      extra,
    );
  }
  if (version === null || version > SYNC_PROTOCOL_VERSION) {
    throw new DomainError(
      'SYNC_VERSION_UNSUPPORTED',
      `O servidor atende as versões ${minVersion} a ${SYNC_PROTOCOL_VERSION} da sincronização; tente de novo em instantes.`,
      extra,
      400,
    );
  }
}

const pullRoute = createRoute({
  method: 'get',
  path: '/sync/{collection}/pull',
  tags,
  summary: 'Replication pull of a collection',
  description: `RxDB checkpoint iteration (docs/sync.md): the documents of the collection changed after the checkpoint, in commit order, at most limit (1 to ${SYNC_LIMIT_MAX}); a deletion is the collection's document with _deleted true, carrying its last known state. Send the answer's checkpoint on the next pull; fewer documents than limit means up to date. Collections: produtos (the tenant's catalog with prices on every pauta), clientes (a representative's portfolio; every client for supervisors, managers and admins), regras (rules in force today or later that reach the caller), ajustes (the company settings with the logo, and the representative's ceilings and flex balance), and, for representatives only (403 otherwise), pedidos (their orders: pending ones and those of the last 90 days), funil (their opportunities) and chamados (their tickets with threads). A malformed checkpoint, or one issued for another user scope or collection, is a 400: pull from the start. The first pull of a tenant with an empty change log refreshes it first. An answer of 1,400 bytes or more is compressed when Accept-Encoding offers it: Content-Encoding br, else gzip (Vary: Accept-Encoding).`,
  security: bearer,
  request: { params: ZSyncPullParams, query: ZSyncPullQuery, headers: ZVersionHeaders },
  responses: {
    200: json(ZSyncPull, 'A batch of changed documents and the next checkpoint'),
    400: badRequest('CHECKPOINT_INVALID', 'CHECKPOINT_SCOPE', 'SYNC_VERSION_UNSUPPORTED'),
    401: errorResponses[401],
    403: errorResponses[403],
    404: errorResponses[404],
    503: problem(
      'SYNC_BUSY: too many devices are downloading from the start right now; this one keeps its place in the line: pull again after Retry-After seconds',
      'SYNC_BUSY',
    ),
    ...versionProblems,
  },
});

const pushRoute = createRoute({
  method: 'post',
  path: '/sync/{collection}/push',
  tags,
  summary: 'Replication push of a writable collection',
  description: `RxDB push (docs/sync.md), representatives only: pedidos, funil or chamados, at most ${SYNC_PUSH_MAX} documents as { assumedMasterState, newDocumentState }. pedidos: a document with status queued and a draft (the body of POST /orders) creates the order through the same service as POST /orders, its id being the Idempotency-Key, so a retried or duplicated push creates one order; the answer holds its master state (pending_approval with the order) or, when refused, status refused with a typed reason per line (the device fixes the draft and queues it again under the same id, or deletes it). funil: the fields the device changed are applied over the server's version (per field, in arrival order; a deletion wins). chamados: a new id opens the ticket; replies the server lacks are appended once; status cancelado cancels. The answer lists the master state of every document the server holds differently from newDocumentState (the device adopts it). A push sent twice at once, or racing a REST change, answers 200 with per-document outcomes, every row applied once (an order another request is creating is waited for and answered). A document of another representative is a 403; 409 IDEMPOTENCY_KEY_IN_FLIGHT only when another request has held an order of the push for more than 10 seconds: retry the push.`,
  security: bearer,
  request: {
    params: ZSyncPushParams,
    headers: ZVersionHeaders,
    body: { content: { 'application/json': { schema: ZSyncPushBody } }, required: true },
  },
  responses: {
    200: json(ZSyncPushResult, 'The master states the device must adopt (RxDB conflicts)'),
    400: badRequest('SYNC_VERSION_UNSUPPORTED'),
    401: errorResponses[401],
    403: errorResponses[403],
    404: errorResponses[404],
    409: problem(
      'An order of this push has been in creation by another request for more than 10 s: retry',
      'IDEMPOTENCY_KEY_IN_FLIGHT',
    ),
    ...versionProblems,
  },
});

const streamRoute = createRoute({
  method: 'get',
  path: '/sync/stream',
  tags,
  summary: 'Server-sent events: which collections changed',
  description:
    'A text/event-stream that tells the device when to pull (docs/sync.md). First a `resync` event (pull every collection from its checkpoint: covers what changed while disconnected), then `change` events whose data is `{"colecao":"<collection>"}` as changes commit on any server process, and a `heartbeat` event every 25 s. A representative hears of their own orders and of tenant-wide changes only. The stream ends when the client disconnects; reconnect and expect `resync` again. 503 SYNC_STREAM_DISABLED when the server runs without the change hub: poll instead.',
  security: bearer,
  request: { headers: ZVersionHeaders },
  responses: {
    200: {
      description: 'An endless event stream: events `resync`, `change` (data `{ colecao }`) and `heartbeat`',
      content: { 'text/event-stream': { schema: z.string() } },
    },
    400: badRequest('SYNC_VERSION_UNSUPPORTED'),
    401: errorResponses[401],
    503: problem('The server sends no change announcements (no change hub)', 'SYNC_STREAM_DISABLED'),
    ...versionProblems,
  },
});

/**
 * Each collection's document is a named schema of the OpenAPI document (components/schemas,
 * named in docs/sync.md), so a device generated from it knows the shape of every collection,
 * deletions included.
 */
const DOCUMENT_SCHEMAS = SYNC_SERVED.map((c) => definitionOf(c).document);

export function syncRoutes(deps: {
  db: Db;
  pool: pg.Pool;
  /** A hot standby for the pull (DATABASE_REPLICA_URL); absent: every pull reads the primary. */
  replica?: PullReplica | undefined;
  hub?: ChangeHub;
  heartbeatMs?: number;
  minVersion?: number;
  gate?: SyncGate;
  pages?: PageCache;
}) {
  const minVersion = deps.minVersion ?? SYNC_PROTOCOL_MIN_VERSION;
  const gate = deps.gate ?? createSyncGate();
  const app = router();
  for (const { name, schema } of DOCUMENT_SCHEMAS) {
    const { $schema: _, ...json } = z.toJSONSchema(schema, { io: 'output' });
    app.openAPIRegistry.registerComponent('schemas', name, json as Record<string, unknown>);
  }
  return app
    .openapi(pullRoute, async (c) => {
      assertSyncVersion(c.req.header(SYNC_VERSION_HEADER), minVersion);
      const auth = c.get('auth');
      const query = c.req.valid('query');
      const w = pullWindow(auth, c.req.valid('param').collection, query);
      // The answer is already JSON (the stored documents as PostgreSQL sent them). A page
      // the process keeps costs the database nothing: it needs no place in the download line.
      const body =
        keptPull(deps, w) ?? (await gate.run(auth.userId, query.checkpoint === undefined, () => pull(deps, w)));
      const wire = await compressed(c, body);
      return c.body(wire.body, 200, { 'content-type': 'application/json', ...wire.headers }) as never;
    })
    .openapi(pushRoute, async (c) => {
      assertSyncVersion(c.req.header(SYNC_VERSION_HEADER), minVersion);
      return c.json(await push(deps.db, c.get('auth'), c.req.valid('param').collection, c.req.valid('json')), 200);
    })
    .openapi(streamRoute, (c) => {
      assertSyncVersion(c.req.header(SYNC_VERSION_HEADER), minVersion);
      return streamChanges(c, deps.hub, c.get('auth'), deps.heartbeatMs ?? HEARTBEAT_MS);
    });
}
