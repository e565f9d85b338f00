import {
  ZCeilingPreview,
  ZCeilingQuery,
  ZPolicyRule,
  ZPolicyRuleCreate,
  ZPolicyRuleCreated,
  ZPolicyRuleListQuery,
  ZPolicyRulePage,
  ZPolicyRuleUpdate,
  ZPolicyRuleUpdated,
  ZProductGroups,
  ZRuleIdParams,
  ZRulesInForce,
} from '@campo/shared';
import { createRoute } from '@hono/zod-openapi';
import { permit } from '../auth/authorize.ts';
import type { Db } from '../db/kysely.ts';
import { bearer, errorResponses, json, router } from '../http/openapi.ts';
import {
  ceilingPreview,
  createRules,
  deleteRule,
  getRule,
  listRules,
  productGroups,
  rulesInForce,
  updateRule,
} from './service.ts';

const tags = ['politicas'];
// Manager only, checked before the body is read or anything is queried (auth/authorize.ts).
const managerOnly = permit('policies.manage');
const jsonBody = <T>(schema: T) => ({ required: true, content: { 'application/json': { schema } } });

const listRoute = createRoute({
  method: 'get',
  path: '/politicas/regras',
  tags,
  summary: 'List discount rules (manager)',
  description:
    "Filters by situation on the server's business date (America/Sao_Paulo), price list, group and representative (exact matches), newest start first. A page past the last answers an empty list.",
  security: bearer,
  middleware: [managerOnly] as const,
  request: { query: ZPolicyRuleListQuery },
  responses: {
    200: json(ZPolicyRulePage, 'A page of rules'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
  },
});

const createRuleRoute = createRoute({
  method: 'post',
  path: '/politicas/regras',
  tags,
  summary: 'Create discount rules (manager)',
  description:
    'One rule per price list of idPautas, in one transaction: all are created or none. Group, subgroup, representative and every pauta must exist in the tenant (400 naming the field). The answer lists the existing rules each new one overlaps.',
  security: bearer,
  middleware: [managerOnly] as const,
  request: { body: jsonBody(ZPolicyRuleCreate) },
  responses: {
    201: json(ZPolicyRuleCreated, 'The rules created and their overlaps'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
  },
});

const inForceRoute = createRoute({
  method: 'get',
  path: '/politicas/regras/vigentes',
  tags,
  summary: 'Discount rules in force today',
  description:
    "In force on the server's business date (America/Sao_Paulo). A representative gets only the rules for every representative or for them; supervisors, managers and admins get every rule of the tenant.",
  security: bearer,
  responses: { 200: json(ZRulesInForce, 'Rules in force'), 401: errorResponses[401] },
});

const promotionsRoute = createRoute({
  method: 'get',
  path: '/politicas/promocoes/vigentes',
  tags,
  summary: 'Promotions in force today, for the catalog badges',
  description: 'The rules in force with promocao = true, with the same visibility as /politicas/regras/vigentes.',
  security: bearer,
  responses: { 200: json(ZRulesInForce, 'Promotions in force'), 401: errorResponses[401] },
});

const getRuleRoute = createRoute({
  method: 'get',
  path: '/politicas/regras/{id}',
  tags,
  summary: 'One discount rule (manager)',
  security: bearer,
  middleware: [managerOnly] as const,
  request: { params: ZRuleIdParams },
  responses: {
    200: json(ZPolicyRule, 'The rule'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
    404: errorResponses[404],
  },
});

const updateRuleRoute = createRoute({
  method: 'put',
  path: '/politicas/regras/{id}',
  tags,
  summary: 'Replace a discount rule (manager)',
  description:
    'The whole rule, with a single idPauta (or null). Orders already placed keep the rule as it was when they were placed. The answer lists the other rules it overlaps.',
  security: bearer,
  middleware: [managerOnly] as const,
  request: { params: ZRuleIdParams, body: jsonBody(ZPolicyRuleUpdate) },
  responses: {
    200: json(ZPolicyRuleUpdated, 'The rule as saved and its overlaps'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
    404: errorResponses[404],
  },
});

const deleteRuleRoute = createRoute({
  method: 'delete',
  path: '/politicas/regras/{id}',
  tags,
  summary: 'Delete a discount rule (manager)',
  description: 'Orders already placed keep the snapshot of the rule they were placed under.',
  security: bearer,
  middleware: [managerOnly] as const,
  request: { params: ZRuleIdParams },
  responses: {
    204: { description: 'Deleted' },
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
    404: errorResponses[404],
  },
});

const groupsRoute = createRoute({
  method: 'get',
  path: '/politicas/grupos-produto',
  tags,
  summary: 'Product groups and their subgroups',
  description: 'For the scope selectors of the rule editor and the catalog filters; every role of the tenant.',
  security: bearer,
  responses: { 200: json(ZProductGroups, 'Groups with subgroups'), 401: errorResponses[401] },
});

const ceilingRoute = createRoute({
  method: 'get',
  path: '/politicas/alcada',
  tags,
  summary: 'Discount ceiling (alçada) of cart lines',
  description:
    "Computed by the shared discount engine: the representative's ceiling for the product's category, else their default, else 5%, raised by the best rule in force. A representative gets their own on the server's business date (naming another codVendedor or a data is 403). Supervisors (own team only, else 404), managers and admins must name codVendedor and may pick a preview date. An unknown pauta or product, or one of another tenant, is 404.",
  security: bearer,
  request: { query: ZCeilingQuery },
  responses: {
    200: json(ZCeilingPreview, 'Ceiling per product'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
    404: errorResponses[404],
  },
});

export function policyRoutes(deps: { db: Db }) {
  const { db } = deps;
  // vigentes is registered before {id}: both match /politicas/regras/vigentes, and the first wins.
  return router()
    .openapi(inForceRoute, async (c) => {
      const auth = c.get('auth');
      return c.json(await rulesInForce(db, auth, { promocaoOnly: false }), 200);
    })
    .openapi(promotionsRoute, async (c) => {
      const auth = c.get('auth');
      return c.json(await rulesInForce(db, auth, { promocaoOnly: true }), 200);
    })
    .openapi(listRoute, async (c) => {
      const auth = c.get('auth');
      const query = c.req.valid('query');
      return c.json(await listRules(db, auth, query), 200);
    })
    .openapi(createRuleRoute, async (c) => {
      const auth = c.get('auth');
      const body = c.req.valid('json');
      return c.json(await createRules(db, auth, body), 201);
    })
    .openapi(getRuleRoute, async (c) => {
      const auth = c.get('auth');
      const { id } = c.req.valid('param');
      return c.json(await getRule(db, auth, id), 200);
    })
    .openapi(updateRuleRoute, async (c) => {
      const auth = c.get('auth');
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      return c.json(await updateRule(db, auth, id, body), 200);
    })
    .openapi(deleteRuleRoute, async (c) => {
      const auth = c.get('auth');
      const { id } = c.req.valid('param');
      await deleteRule(db, auth, id);
      return c.body(null, 204);
    })
    .openapi(groupsRoute, async (c) => {
      const auth = c.get('auth');
      return c.json(await productGroups(db, auth), 200);
    })
    .openapi(ceilingRoute, async (c) => {
      const auth = c.get('auth');
      const query = c.req.valid('query');
      return c.json(await ceilingPreview(db, auth, query), 200);
    });
}
