import { API_BASE } from '@campo/shared';
import { OpenAPIHono } from '@hono/zod-openapi';
import type pg from 'pg';
import { healthRoutes } from './health/routes.ts';
import { SERVER_VERSION } from './version.ts';

export interface AppDeps {
  pool: pg.Pool;
}

export function createApp(deps: AppDeps) {
  const api = new OpenAPIHono();
  api.route('/', healthRoutes(deps.pool));
  api.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: { title: 'Campo API', version: SERVER_VERSION, description: 'Field-sales ordering on top of the ERP.' },
  });

  const app = new OpenAPIHono();
  app.route(API_BASE, api);
  return app;
}
