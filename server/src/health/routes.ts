import { type Health, ZHealth } from '@campo/shared';
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type pg from 'pg';
import { SERVER_VERSION } from '../version.ts';
import { selectSchemaVersion } from './queries.ts';

const route = createRoute({
  method: 'get',
  path: '/health',
  tags: ['health'],
  summary: 'Whether the server and its database are up',
  description: 'Needs no token, so load balancers and ops can probe it.',
  responses: {
    200: { description: 'The database answers', content: { 'application/json': { schema: ZHealth } } },
    503: { description: 'The database does not answer', content: { 'application/json': { schema: ZHealth } } },
  },
});

export function healthRoutes(pool: pg.Pool) {
  return new OpenAPIHono().openapi(route, async (c) => {
    let body: Health;
    try {
      const schemaVersion = await selectSchemaVersion(pool);
      body = { status: 'ok', version: SERVER_VERSION, database: { reachable: true, schemaVersion } };
    } catch {
      body = { status: 'unavailable', version: SERVER_VERSION, database: { reachable: false, schemaVersion: null } };
    }
    return body.status === 'ok' ? c.json(body, 200) : c.json(body, 503);
  });
}
