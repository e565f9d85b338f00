import { MONTH_PATTERN, ZTargetsCopyResult, ZTargetsPage, ZTargetsUpdate } from '@campo/shared';
import { createRoute, z } from '@hono/zod-openapi';
import { permit } from '../auth/authorize.ts';
import type { Db } from '../db/kysely.ts';
import { bearer, errorResponses, json, router } from '../http/openapi.ts';
import { copyTargets, listTargets, setTargets } from './service.ts';

const ZMonthParam = z.object({
  mes: z
    .string()
    .max(7)
    .regex(MONTH_PATTERN, 'use o formato AAAA-MM')
    .describe('The month, YYYY-MM')
    .openapi({ param: { name: 'mes', in: 'path' } }),
});

const listRoute = createRoute({
  method: 'get',
  path: '/metas/{mes}',
  tags: ['targets'],
  summary: 'Monthly targets of the representatives',
  description:
    'Managers and admins: every active representative of the tenant, or one team with codSupervisor; a supervisor gets their own team. Unset targets are null.',
  security: bearer,
  middleware: [permit('targets.read')] as const,
  request: {
    params: ZMonthParam,
    query: z.object({
      codSupervisor: z.coerce
        .number()
        .int()
        .positive()
        .max(2_147_483_647)
        .optional()
        .describe('Only this supervisor’s team'),
    }),
  },
  responses: {
    200: json(ZTargetsPage, 'The targets'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
  },
});

const putRoute = createRoute({
  method: 'put',
  path: '/metas/{mes}',
  tags: ['targets'],
  summary: 'Set monthly targets (managers and admins)',
  description:
    'Sets or, with valorMeta null, removes the targets of the given representatives for the month, in one transaction.',
  security: bearer,
  middleware: [permit('targets.write')] as const,
  request: {
    params: ZMonthParam,
    body: { required: true, content: { 'application/json': { schema: ZTargetsUpdate } } },
  },
  responses: {
    200: json(ZTargetsPage, 'The month after the change'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
  },
});

const copyRoute = createRoute({
  method: 'post',
  path: '/metas/{mes}/copiar-anterior',
  tags: ['targets'],
  summary: 'Copy the previous month’s targets (managers and admins)',
  description: 'Representatives that already have a target in the month keep it.',
  security: bearer,
  middleware: [permit('targets.write')] as const,
  request: { params: ZMonthParam },
  responses: {
    200: json(ZTargetsCopyResult, 'What was copied'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
  },
});

export function targetRoutes(deps: { db: Db }) {
  return router()
    .openapi(listRoute, async (c) =>
      c.json(
        await listTargets(deps.db, c.get('auth'), c.req.valid('param').mes, c.req.valid('query').codSupervisor),
        200,
      ),
    )
    .openapi(putRoute, async (c) =>
      c.json(await setTargets(deps.db, c.get('auth'), c.req.valid('param').mes, c.req.valid('json')), 200),
    )
    .openapi(copyRoute, async (c) => c.json(await copyTargets(deps.db, c.get('auth'), c.req.valid('param').mes), 200));
}
