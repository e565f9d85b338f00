import { API_BASE } from '@campo/shared';
import { OpenAPIHono } from '@hono/zod-openapi';
import type pg from 'pg';
import { z } from 'zod';
import type { HashGateOptions } from './auth/hash-gate.ts';
import { requireAuth } from './auth/middleware.ts';
import { authRoutes, meRoute } from './auth/routes.ts';
import { createAuthenticator } from './auth/service.ts';
import { createTokenSigner } from './auth/tokens.ts';
import { createProductImages, type ProductImagesOptions } from './catalog/images.ts';
import { catalogRoutes } from './catalog/routes.ts';
import { clientErrorRoutes } from './client-errors/routes.ts';
import { clientRoutes } from './clients/routes.ts';
import { companyRoutes } from './company/routes.ts';
import { dashboardRoutes } from './dashboards/routes.ts';
import { availabilityOf } from './db/availability.ts';
import { createDb, type Db } from './db/kysely.ts';
import { directoryRoutes } from './directory/routes.ts';
import { flexRoutes } from './flex/routes.ts';
import { funnelRoutes } from './funnel/routes.ts';
import { healthRoutes } from './health/routes.ts';
import { docsRoutes } from './http/docs.ts';
import type { AppEnv } from './http/env.ts';
import {
  apiSecurityHeaders,
  closeAfterRefusedBody,
  errorHandler,
  limitBody,
  noStore,
  notFound,
  refuseNulInUrl,
  requestLog,
} from './http/middleware.ts';
import { router, withIntegerFormats, withProblems } from './http/openapi.ts';
import { DEFAULT_HSTS_MAX_AGE_SECONDS, strictTransportSecurity } from './http/proxy.ts';
import { instrumentPool } from './metrics.ts';
import { notificationRoutes } from './notifications/routes.ts';
import type { PushSettings } from './notifications/vapid.ts';
import { orderRoutes } from './orders/routes.ts';
import { policyRoutes } from './policies/routes.ts';
import { createSyncGate, type SyncGateOptions } from './sync/gate.ts';
import { createPageCache, type PageCacheOptions } from './sync/page-cache.ts';
import { syncRoutes } from './sync/routes.ts';
import { type PullReplica, refreshAll } from './sync/service.ts';
import type { ChangeHub } from './sync/stream.ts';
import { targetRoutes } from './targets/routes.ts';
import { ticketRoutes } from './tickets/routes.ts';
import { userRoutes } from './users/routes.ts';
import { SERVER_VERSION } from './version.ts';
import { visitRoutes } from './visits/routes.ts';
import { webRoutes } from './web/routes.ts';

z.config(z.locales.pt());

export interface AppConfig {
  jwtSecret: string;
  tokenTtlHours: number;
  devLogin: boolean;
  /** Web Push; absent or vapid null: push disabled (subscribing answers 503). */
  push?: PushSettings;
  /**
   * Proxies in front of the server that append to X-Forwarded-For (TRUST_PROXY): the login limits
   * take the client address from the entry the outermost of them added. 0 or absent: the socket's.
   */
  trustProxy?: number;
  /**
   * Strict-Transport-Security's max-age, sent when a trusted proxy says the request came over
   * HTTPS (HSTS_MAX_AGE_SECONDS; default a year); 0: never sent.
   */
  hstsMaxAgeSeconds?: number;
  /** Bound on concurrent password checks of this process (defaults in auth/hash-gate.ts). */
  loginHashGate?: HashGateOptions;
  /** Pause between heartbeat events of GET /sync/stream (default 25 s). */
  syncHeartbeatMs?: number;
  /** Admission of initial syncs (defaults in sync/gate.ts). */
  syncGate?: SyncGateOptions;
  /** Full pull pages kept in memory (defaults in sync/page-cache.ts); maxBytes 0: none. */
  syncPageCache?: PageCacheOptions;
  /** Where product photos come from and how many resized ones are kept (catalog/images.ts); absent: no folder, no URLs. */
  productImages?: ProductImagesOptions;
  /** The map tiles' URL template of the supervisor's visits screen (MAP_TILE_URL); absent: no map. */
  mapTileUrl?: string;
  /** The tile server's credit, plain text (MAP_TILE_ATTRIBUTION); absent: a generic one. */
  mapTileAttribution?: string;
}

export interface AppDeps {
  pool: pg.Pool;
  config: AppConfig;
  db?: Db;
  /** The process's LISTEN hub for GET /sync/stream; absent: the stream answers 503. */
  hub?: ChangeHub;
  /** A hot standby the pull reads from when it has replayed far enough (DATABASE_REPLICA_URL). */
  pullReplica?: PullReplica;
  /** The built PWA (client/dist) to serve at `/`; absent: the server answers the API only. */
  webRoot?: string;
  /** Oldest replication protocol served (default SYNC_PROTOCOL_MIN_VERSION); tests raise it. */
  syncMinVersion?: number;
}

export function createApp(deps: AppDeps) {
  instrumentPool(deps.pool);
  const db = deps.db ?? createDb(deps.pool);
  const signer = createTokenSigner(deps.config.jwtSecret, deps.config.tokenTtlHours);
  const authenticate = createAuthenticator(db, signer);

  const api = router();
  api.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'A JWT from POST /auth/login, following RFC8725 (JWT best current practices): HS256 only (the algorithm is pinned on verification, `none` refused), issuer and audience checked, expiry required, and the user row re-read on every request (docs/security.md).',
  });
  // Public routes first: they answer before the auth middleware below is reached.
  api.route('/', healthRoutes(deps.pool));
  api.route(
    '/',
    authRoutes({
      db,
      signer,
      devLoginEnabled: deps.config.devLogin,
      trustProxy: deps.config.trustProxy ?? 0,
      ...(deps.config.loginHashGate ? { hashGate: deps.config.loginHashGate } : {}),
    }),
  );
  api.route('/', clientErrorRoutes({ signer, trustProxy: deps.config.trustProxy ?? 0 }));
  const documentConfig = {
    openapi: '3.1.0',
    info: { title: 'Campo API', version: SERVER_VERSION, description: 'Field-sales ordering on top of the ERP.' },
    // Relative, so the reference at /api/docs sends its requests to this same server's API.
    servers: [
      { url: API_BASE, description: 'This server (production or local: the one answering)', 'x-internal': false },
    ],
  };
  let document: unknown;
  api.get('/openapi.json', (c) => {
    // Built once: every route is registered by the time the first reader asks.
    document ??= withIntegerFormats(withProblems(api.getOpenAPI31Document(documentConfig)));
    return c.json(document);
  });

  const secured = router();
  secured.use('*', requireAuth(authenticate));
  secured.openapi(meRoute, (c) => {
    const a = c.get('auth');
    return c.json(
      {
        id: a.userId,
        login: a.login,
        name: a.name,
        role: a.role,
        idEmpresa: a.idEmpresa,
        codVendedor: a.codVendedor,
        codSupervisor: a.codSupervisor,
      },
      200,
    );
  });
  secured.route('/', policyRoutes({ db }));
  secured.route('/', clientRoutes({ db }));
  secured.route(
    '/',
    catalogRoutes({ db, refreshChangeLog: refreshAll, images: createProductImages(deps.config.productImages) }),
  );
  secured.route('/', companyRoutes({ db }));
  secured.route('/', orderRoutes({ db }));
  secured.route('/', dashboardRoutes({ db }));
  secured.route('/', notificationRoutes({ db, push: deps.config.push }));
  secured.route('/', ticketRoutes({ db }));
  secured.route('/', funnelRoutes({ db }));
  secured.route('/', targetRoutes({ db }));
  secured.route('/', flexRoutes({ db }));
  secured.route('/', userRoutes({ db }));
  secured.route('/', directoryRoutes({ db }));
  secured.route(
    '/',
    visitRoutes({
      db,
      tiles: { url: deps.config.mapTileUrl ?? null, attribution: deps.config.mapTileAttribution ?? null },
    }),
  );
  secured.route(
    '/',
    syncRoutes({
      db,
      pool: deps.pool,
      replica: deps.pullReplica,
      hub: deps.hub,
      heartbeatMs: deps.config.syncHeartbeatMs,
      minVersion: deps.syncMinVersion,
      gate: createSyncGate(deps.config.syncGate),
      ...(deps.config.syncPageCache?.maxBytes === 0 ? {} : { pages: createPageCache(deps.config.syncPageCache) }),
    }),
  );
  api.route('/', secured);

  const app = new OpenAPIHono<AppEnv>();
  app.use('*', requestLog);
  app.use('*', closeAfterRefusedBody);
  app.use(
    '*',
    strictTransportSecurity({
      trustProxy: deps.config.trustProxy ?? 0,
      maxAgeSeconds: deps.config.hstsMaxAgeSeconds ?? DEFAULT_HSTS_MAX_AGE_SECONDS,
    }),
  );
  app.use('/api/*', apiSecurityHeaders);
  app.use(`${API_BASE}/*`, noStore);
  app.use(`${API_BASE}/*`, limitBody);
  app.use(`${API_BASE}/*`, refuseNulInUrl);
  app.route(API_BASE, api);
  // The interactive reference, served whole from this server (http/docs.ts).
  app.route('/api/docs', docsRoutes());
  if (deps.webRoot) app.route('/', webRoutes(deps.webRoot, { mapTileUrl: deps.config.mapTileUrl ?? null }));
  app.notFound(notFound);
  app.onError(errorHandler(availabilityOf(deps.pool)));
  return app;
}
