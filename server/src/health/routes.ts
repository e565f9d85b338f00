import { type Health, ZHealth, ZLiveness } from '@campo/shared';
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type pg from 'pg';
import { availabilityOf } from '../db/availability.ts';
import { SERVER_VERSION } from '../version.ts';
import { appliedSchemaVersion, EXPECTED_SCHEMA_VERSION } from './service.ts';

const readiness = createRoute({
  method: 'get',
  path: '/health',
  tags: ['health'],
  summary: 'Readiness: whether this process can serve (database reachable, schema up to date)',
  description:
    'Needs no token, so load balancers and ops can probe it. 503 with a reason while the database does not answer or lacks the migrations this build needs; route traffic only to processes that answer 200.',
  responses: {
    200: { description: 'Ready to serve', content: { 'application/json': { schema: ZHealth } } },
    503: { description: 'Not ready; `reason` says why', content: { 'application/json': { schema: ZHealth } } },
  },
});

const liveness = createRoute({
  method: 'get',
  path: '/health/live',
  tags: ['health'],
  summary: 'Liveness: the process runs',
  description:
    'Always 200 while the process runs, whatever the database: a supervisor restarts the process only when this fails, never because the database is down.',
  responses: {
    200: { description: 'The process runs', content: { 'application/json': { schema: ZLiveness } } },
  },
});

export function healthRoutes(pool: pg.Pool) {
  return new OpenAPIHono()
    .openapi(liveness, (c) => c.json({ status: 'ok' as const, version: SERVER_VERSION }, 200))
    .openapi(readiness, async (c) => {
      const expectedSchemaVersion = EXPECTED_SCHEMA_VERSION;
      let schemaVersion: string | null;
      // The readiness probes of a load balancer are often the first to see the database go and
      // come back: they tell the pool's tracker, which logs the outage once (db/availability.ts).
      const database = availabilityOf(pool);
      try {
        schemaVersion = await appliedSchemaVersion(pool);
        database.succeeded();
      } catch (err) {
        database.failed(err);
        const body: Health = {
          status: 'unavailable',
          reason: 'DATABASE_UNREACHABLE',
          version: SERVER_VERSION,
          database: { reachable: false, schemaVersion: null, expectedSchemaVersion },
        };
        return c.json(body, 503);
      }
      // A later schema counts as ready: in a rolling upgrade `campo provision` of the new build
      // runs first, and the old processes must keep serving until they are replaced.
      const reason =
        schemaVersion === null ? 'SCHEMA_MISSING' : schemaVersion < expectedSchemaVersion ? 'SCHEMA_BEHIND' : null;
      const reached = { reachable: true, schemaVersion, expectedSchemaVersion };
      if (reason)
        return c.json({ status: 'unavailable', reason, version: SERVER_VERSION, database: reached } as Health, 503);
      return c.json({ status: 'ok', version: SERVER_VERSION, database: reached } as Health, 200);
    });
}
