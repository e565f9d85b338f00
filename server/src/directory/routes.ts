import { ZDirectoryPautas, ZDirectoryReps, ZDirectorySupervisors } from '@campo/shared';
import { createRoute } from '@hono/zod-openapi';
import { permit } from '../auth/authorize.ts';
import type { Db } from '../db/kysely.ts';
import { bearer, errorResponses, json, router } from '../http/openapi.ts';
import { listPautas, listReps, listSupervisors } from './service.ts';

const tags = ['diretorio'];
// Representatives have their own code and their clients' pautas on the device; the lists are
// for those who choose among people (rules, targets, users).
const choosers = permit('directory.team');

const repsRoute = createRoute({
  method: 'get',
  path: '/vendedores',
  tags,
  summary: 'Representatives of the tenant, for selectors',
  description:
    'Supervisors get their own team (the ERP supervisor today); managers and admins every representative of the tenant, active or not.',
  security: bearer,
  middleware: [choosers] as const,
  responses: {
    200: json(ZDirectoryReps, 'The representatives'),
    401: errorResponses[401],
    403: errorResponses[403],
  },
});

const supervisorsRoute = createRoute({
  method: 'get',
  path: '/supervisores',
  tags,
  summary: 'Supervisors of the tenant, for selectors',
  description: 'Managers and admins.',
  security: bearer,
  middleware: [permit('directory.supervisors')] as const,
  responses: {
    200: json(ZDirectorySupervisors, 'The supervisors'),
    401: errorResponses[401],
    403: errorResponses[403],
  },
});

const pautasRoute = createRoute({
  method: 'get',
  path: '/pautas',
  tags,
  summary: 'Price lists (pautas) of the tenant, for selectors',
  description: 'Supervisors, managers and admins; each pauta once, active ones first.',
  security: bearer,
  middleware: [choosers] as const,
  responses: {
    200: json(ZDirectoryPautas, 'The price lists'),
    401: errorResponses[401],
    403: errorResponses[403],
  },
});

export function directoryRoutes(deps: { db: Db }) {
  const { db } = deps;
  return router()
    .openapi(repsRoute, async (c) => {
      const auth = c.get('auth');
      return c.json(await listReps(db, auth), 200);
    })
    .openapi(supervisorsRoute, async (c) => {
      const auth = c.get('auth');
      return c.json(await listSupervisors(db, auth), 200);
    })
    .openapi(pautasRoute, async (c) => {
      const auth = c.get('auth');
      return c.json(await listPautas(db, auth), 200);
    });
}
