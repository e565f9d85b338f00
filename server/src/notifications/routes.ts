import {
  ZPendingCount,
  ZPushSubscriptionCreate,
  ZPushSubscriptionDelete,
  ZPushSubscriptionSaved,
  ZVapidPublicKey,
} from '@campo/shared';
import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { Db } from '../db/kysely.ts';
import { DomainError } from '../errors.ts';
import type { AppEnv } from '../http/env.ts';
import { bearer, errorResponses, json, problem, router } from '../http/openapi.ts';
import { pendingCount, subscribe, unsubscribe } from './service.ts';
import { DEFAULT_PUSH_ENDPOINT_HOSTS, type PushSettings } from './vapid.ts';

const tags = ['notifications'];
const jsonBody = <T>(schema: T) => ({ required: true, content: { 'application/json': { schema } } });
const unavailable = problem('Push is disabled on this server (no VAPID keys configured)', 'PUSH_DISABLED');

/** Answers 503 before the body is read when the server has no VAPID keys. */
function requirePush(settings: PushSettings): MiddlewareHandler<AppEnv> {
  return async (_c, next) => {
    if (!settings.vapid) {
      throw new DomainError(
        'PUSH_DISABLED',
        'As notificações push estão desativadas neste servidor (sem chaves VAPID configuradas).',
      );
    }
    await next();
  };
}

const publicKeyRoute = (settings: PushSettings) =>
  createRoute({
    method: 'get',
    path: '/notifications/vapid-public-key',
    tags,
    summary: "The server's VAPID public key, to subscribe a device",
    description:
      'Pass it as applicationServerKey to pushManager.subscribe(). 503 PUSH_DISABLED when the server runs without VAPID keys: the app then hides its notification switch.',
    security: bearer,
    middleware: [requirePush(settings)] as const,
    responses: {
      200: json(ZVapidPublicKey, 'The key'),
      401: errorResponses[401],
      503: unavailable,
    },
  });

const subscribeRoute = (settings: PushSettings) =>
  createRoute({
    method: 'post',
    path: '/notifications/subscriptions',
    tags,
    summary: 'Register this device for push notifications',
    description:
      "Body: PushSubscription.toJSON() as the browser gives it. One record per device (endpoint): a device registered before, by the caller or by another user, is moved to the caller with its new keys (201 when new, 200 when it was known). The endpoint must be an https URL of a browser vendor's push service. Each user keeps at most 10 devices; registering another drops the oldest.",
    security: bearer,
    middleware: [requirePush(settings)] as const,
    request: { body: jsonBody(ZPushSubscriptionCreate) },
    responses: {
      200: json(ZPushSubscriptionSaved, 'The device was already registered; it now belongs to the caller'),
      201: json(ZPushSubscriptionSaved, 'The device is registered'),
      400: errorResponses[400],
      401: errorResponses[401],
      503: unavailable,
    },
  });

const unsubscribeRoute = createRoute({
  method: 'delete',
  path: '/notifications/subscriptions',
  tags,
  summary: 'Stop push notifications on this device',
  description:
    "Removes the caller's own registration of the endpoint. Idempotent: an unknown endpoint, or one registered by someone else, also answers 204 and changes nothing. Works with push disabled too, so a device can always be forgotten. The app calls it on logout.",
  security: bearer,
  request: { body: jsonBody(ZPushSubscriptionDelete) },
  responses: {
    204: { description: 'The device is no longer registered for the caller' },
    400: errorResponses[400],
    401: errorResponses[401],
  },
});

const pendingCountRoute = createRoute({
  method: 'get',
  path: '/notifications/pending-count',
  tags,
  summary: 'Orders awaiting approval, for the badge',
  description:
    'Orders in pending_approval the caller may decide: a supervisor counts those of the representatives they supervise (app.vw_vendedores.cod_supervisor), a manager or admin those of the whole tenant, a representative always gets 0. The app polls it every 30 seconds.',
  security: bearer,
  responses: {
    200: json(ZPendingCount, 'The count'),
    401: errorResponses[401],
  },
});

export function notificationRoutes(deps: { db: Db; push?: PushSettings }) {
  const { db } = deps;
  const settings: PushSettings = deps.push ?? { vapid: null, endpointHosts: DEFAULT_PUSH_ENDPOINT_HOSTS };
  return router()
    .openapi(publicKeyRoute(settings), (c) => c.json({ publicKey: settings.vapid?.publicKey ?? '' }, 200))
    .openapi(subscribeRoute(settings), async (c) => {
      const auth = c.get('auth');
      const body = c.req.valid('json');
      const ctx = { userAgent: c.req.header('user-agent') ?? null, endpointHosts: settings.endpointHosts };
      const { saved, created } = await subscribe(db, auth, body, ctx);
      return created ? c.json(saved, 201) : c.json(saved, 200);
    })
    .openapi(unsubscribeRoute, async (c) => {
      const auth = c.get('auth');
      const { endpoint } = c.req.valid('json');
      await unsubscribe(db, auth, endpoint);
      return c.body(null, 204);
    })
    .openapi(pendingCountRoute, async (c) => {
      const auth = c.get('auth');
      const count = await pendingCount(db, auth);
      return c.json({ count }, 200);
    });
}
