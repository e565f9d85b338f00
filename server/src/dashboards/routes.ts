import {
  ACTIVE_REP_DEFINITION,
  BILLING_DEFINITION,
  COMMISSION_DEFINITION,
  INACTIVE_DEFINITION,
  POSITIVATION_DEFINITION,
  ZManagerDashboard,
  ZMes,
  ZRepDashboard,
  ZSupervisorCards,
  ZSupervisorDashboard,
} from '@campo/shared';
import { createRoute, z } from '@hono/zod-openapi';
import { permit } from '../auth/authorize.ts';
import type { Db } from '../db/kysely.ts';
import { badRequest, bearer, errorResponses, json, router } from '../http/openapi.ts';
import { getManagerDashboard, getRepDashboard, getSupervisorCards, getSupervisorDashboard } from './service.ts';

const CALENDAR = 'Months and days are São Paulo calendar ones.';
const mesParam = ZMes.optional().describe(
  'The month of the monthly figures (YYYY-MM, São Paulo); default: the current one',
);

const repRoute = createRoute({
  method: 'get',
  path: '/dashboard/rep',
  tags: ['dashboard'],
  summary: 'Representative dashboard: monthly target, commission, inactive clients, recent orders, positivation',
  description: [
    'A representative gets their own (another codVendedor answers 404); a supervisor must name a representative of their team (another answers 404); managers and admins any representative of the tenant. codVendedor is required for everyone but a representative (400).',
    BILLING_DEFINITION,
    COMMISSION_DEFINITION,
    INACTIVE_DEFINITION,
    POSITIVATION_DEFINITION,
    CALENDAR,
  ].join(' '),
  security: bearer,
  request: {
    query: z.object({
      codVendedor: z.coerce
        .number()
        .int()
        .positive()
        .max(2_147_483_647)
        .optional()
        .describe('The representative (not for representatives)'),
      mes: mesParam,
    }),
  },
  responses: {
    200: json(ZRepDashboard, 'The dashboard'),
    400: badRequest('COD_VENDEDOR_REQUIRED'),
    401: errorResponses[401],
    404: errorResponses[404],
  },
});

const supervisorRoute = createRoute({
  method: 'get',
  path: '/dashboard/supervisor',
  tags: ['dashboard'],
  summary: "Supervisor dashboard: the team's ranking by billing and by positivation, and today's positivation",
  description: [
    "A supervisor gets their own team (another codSupervisor answers 404); managers and admins the whole tenant, or one supervisor's team with codSupervisor; representatives 403.",
    'The team is the representatives whose ERP supervisor is this one today.',
    BILLING_DEFINITION,
    POSITIVATION_DEFINITION,
    CALENDAR,
  ].join(' '),
  security: bearer,
  middleware: [permit('dashboards.team')] as const,
  request: {
    query: z.object({
      codSupervisor: z.coerce
        .number()
        .int()
        .positive()
        .max(2_147_483_647)
        .optional()
        .describe('One supervisor; default: the caller’s team, or the whole tenant'),
      mes: mesParam,
    }),
  },
  responses: {
    200: json(ZSupervisorDashboard, 'The dashboard'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
    404: errorResponses[404],
  },
});

const managerRoute = createRoute({
  method: 'get',
  path: '/dashboard/manager',
  tags: ['dashboard'],
  summary: 'Manager dashboard: tenant totals of the month, daily positivation target, per-supervisor summaries',
  description: [
    'Managers and admins. Pending orders are the Campo orders awaiting approval now, whatever their month.',
    BILLING_DEFINITION,
    POSITIVATION_DEFINITION,
    ACTIVE_REP_DEFINITION,
    CALENDAR,
  ].join(' '),
  security: bearer,
  middleware: [permit('dashboards.company')] as const,
  request: { query: z.object({ mes: mesParam }) },
  responses: {
    200: json(ZManagerDashboard, 'The dashboard'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
  },
});

const cardsRoute = createRoute({
  method: 'get',
  path: '/equipe/supervisores',
  tags: ['dashboard'],
  summary: 'Team cards: one per supervisor with billing, target, positivation, variation and active reps',
  description: [
    'Managers and admins. Variation: billing of the month against the previous month, in percent; null when the previous month is 0.',
    BILLING_DEFINITION,
    POSITIVATION_DEFINITION,
    ACTIVE_REP_DEFINITION,
    CALENDAR,
  ].join(' '),
  security: bearer,
  middleware: [permit('dashboards.company')] as const,
  request: { query: z.object({ mes: mesParam }) },
  responses: {
    200: json(ZSupervisorCards, 'The cards'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
  },
});

export function dashboardRoutes(deps: { db: Db }) {
  return router()
    .openapi(repRoute, async (c) => c.json(await getRepDashboard(deps.db, c.get('auth'), c.req.valid('query')), 200))
    .openapi(supervisorRoute, async (c) =>
      c.json(await getSupervisorDashboard(deps.db, c.get('auth'), c.req.valid('query')), 200),
    )
    .openapi(managerRoute, async (c) =>
      c.json(await getManagerDashboard(deps.db, c.get('auth'), c.req.valid('query')), 200),
    )
    .openapi(cardsRoute, async (c) =>
      c.json(await getSupervisorCards(deps.db, c.get('auth'), c.req.valid('query')), 200),
    );
}
