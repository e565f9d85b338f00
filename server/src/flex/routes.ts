import {
  ZFlexAdjustment,
  ZFlexAdjustmentResult,
  ZFlexBalancePage,
  ZFlexBalanceQuery,
  ZFlexEntryPage,
  ZPageQuery,
} from '@campo/shared';
import { createRoute, z } from '@hono/zod-openapi';
import { permit } from '../auth/authorize.ts';
import type { Db } from '../db/kysely.ts';
import { bearer, errorResponses, json, problem, router } from '../http/openapi.ts';
import { adjustFlex, listBalances, listEntries } from './service.ts';

const ZRepParam = z.object({
  codVendedor: z.coerce
    .number()
    .int()
    .positive()
    .max(2_147_483_647)
    .describe('The representative (cod_vendedor)')
    .openapi({ param: { name: 'codVendedor', in: 'path' } }),
});

const WHO =
  'A representative sees their own, a supervisor their team (the representatives whose ERP supervisor they are), a manager every representative of the tenant; admins get 403.';

const balancesRoute = createRoute({
  method: 'get',
  path: '/flex/balances',
  tags: ['flex'],
  summary: 'The flex balances the caller may see',
  description: `Paginated, by name then code; a representative without moves shows 0. ${WHO}`,
  security: bearer,
  middleware: [permit('flex.read')] as const,
  request: { query: ZFlexBalanceQuery },
  responses: {
    200: json(ZFlexBalancePage, 'A page of balances'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
  },
});

const entriesRoute = createRoute({
  method: 'get',
  path: '/flex/balances/{codVendedor}/entries',
  tags: ['flex'],
  summary: "A representative's flex ledger, newest first",
  description: `Paginated; each move with its order's number and who made it, and the balance now. ${WHO} A representative out of reach or of another tenant answers 404.`,
  security: bearer,
  middleware: [permit('flex.read')] as const,
  request: { params: ZRepParam, query: ZPageQuery },
  responses: {
    200: json(ZFlexEntryPage, 'A page of the ledger'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
    404: errorResponses[404],
  },
});

const adjustRoute = createRoute({
  method: 'post',
  path: '/flex/balances/{codVendedor}/adjustments',
  tags: ['flex'],
  summary: "Adjust a representative's flex balance (managers)",
  description:
    'A credit (valor > 0) or a debit (valor < 0) with its reason, kept in the ledger with who and when. A debit beyond the balance answers 409 FLEX_BALANCE_INSUFFICIENT with the balance now (`saldo`) and changes nothing. A representative of another tenant, or unknown, answers 404.',
  security: bearer,
  middleware: [permit('flex.adjust')] as const,
  request: {
    params: ZRepParam,
    body: { required: true, content: { 'application/json': { schema: ZFlexAdjustment } } },
  },
  responses: {
    201: json(ZFlexAdjustmentResult, 'The new balance and the entry'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
    404: errorResponses[404],
    409: problem('The debit is beyond the balance; `saldo` is the balance now', 'FLEX_BALANCE_INSUFFICIENT'),
  },
});

export function flexRoutes(deps: { db: Db }) {
  return router()
    .openapi(balancesRoute, async (c) => c.json(await listBalances(deps.db, c.get('auth'), c.req.valid('query')), 200))
    .openapi(entriesRoute, async (c) =>
      c.json(await listEntries(deps.db, c.get('auth'), c.req.valid('param').codVendedor, c.req.valid('query')), 200),
    )
    .openapi(adjustRoute, async (c) =>
      c.json(await adjustFlex(deps.db, c.get('auth'), c.req.valid('param').codVendedor, c.req.valid('json')), 201),
    );
}
