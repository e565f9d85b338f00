import {
  ZUserActiveUpdate,
  ZUserCreateRequest,
  ZUserIdParams,
  ZUserListQuery,
  ZUserPage,
  ZUserPasswordReset,
  ZUserView,
} from '@campo/shared';
import { createRoute } from '@hono/zod-openapi';
import { permit } from '../auth/authorize.ts';
import type { Db } from '../db/kysely.ts';
import { badRequest, bearer, errorResponses, json, problem, router } from '../http/openapi.ts';
import { createUser, getUser, listUsers, resetUserPassword, setActive } from './admin.ts';

const tags = ['usuarios'];
// Logins are the admin's business only: managers run the commercial side, not access.
const adminOnly = permit('users.manage');
const jsonBody = <T>(schema: T) => ({ required: true, content: { 'application/json': { schema } } });
const TENANT =
  'Admins only, within their own tenant: a login of another tenant answers 404, like one that does not exist.';

const listRoute = createRoute({
  method: 'get',
  path: '/usuarios',
  tags,
  summary: 'List the logins of the tenant (admin)',
  description: `${TENANT} By name then login; filters by part of the login or name, role and active.`,
  security: bearer,
  middleware: [adminOnly] as const,
  request: { query: ZUserListQuery },
  responses: {
    200: json(ZUserPage, 'A page of logins'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
  },
});

const createUserRoute = createRoute({
  method: 'post',
  path: '/usuarios',
  tags,
  summary: 'Create a login in the tenant (admin)',
  description: `${TENANT} The same rules as \`campo user add\`: a representative needs a codVendedor and a supervisor a codSupervisor of the tenant in the ERP (400 naming the field otherwise); a login already taken in this tenant is 409 LOGIN_UNAVAILABLE. Logins are unique per tenant, not across tenants: one held in another tenant does not count, so the answer depends on this tenant alone (docs/security.md).`,
  security: bearer,
  middleware: [adminOnly] as const,
  request: { body: jsonBody(ZUserCreateRequest) },
  responses: {
    201: json(ZUserView, 'The login created'),
    400: badRequest('ERP_RECORD_NOT_FOUND'),
    401: errorResponses[401],
    403: errorResponses[403],
    409: problem('The login is taken in this tenant', 'LOGIN_UNAVAILABLE'),
  },
});

const getUserRoute = createRoute({
  method: 'get',
  path: '/usuarios/{id}',
  tags,
  summary: 'One login of the tenant (admin)',
  description: TENANT,
  security: bearer,
  middleware: [adminOnly] as const,
  request: { params: ZUserIdParams },
  responses: {
    200: json(ZUserView, 'The login'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
    404: errorResponses[404],
  },
});

const activeRoute = createRoute({
  method: 'put',
  path: '/usuarios/{id}/ativo',
  tags,
  summary: 'Disable or enable a login (admin)',
  description: `${TENANT} Either way every token the login held stops working (a disabled device wipes its local data at its next contact). An admin cannot disable themself (422 CANNOT_DISABLE_SELF).`,
  security: bearer,
  middleware: [adminOnly] as const,
  request: { params: ZUserIdParams, body: jsonBody(ZUserActiveUpdate) },
  responses: {
    200: json(ZUserView, 'The login as it is now'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
    404: errorResponses[404],
    422: problem('An admin may not disable their own login', 'CANNOT_DISABLE_SELF'),
  },
});

const passwordRoute = createRoute({
  method: 'put',
  path: '/usuarios/{id}/senha',
  tags,
  summary: 'Reset the password of a login (admin)',
  description: `${TENANT} Every token issued before stops working; the person logs in again with the new password.`,
  security: bearer,
  middleware: [adminOnly] as const,
  request: { params: ZUserIdParams, body: jsonBody(ZUserPasswordReset) },
  responses: {
    204: { description: 'Password changed' },
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
    404: errorResponses[404],
  },
});

export function userRoutes(deps: { db: Db }) {
  const { db } = deps;
  return router()
    .openapi(listRoute, async (c) => {
      const auth = c.get('auth');
      const query = c.req.valid('query');
      return c.json(await listUsers(db, auth, query), 200);
    })
    .openapi(createUserRoute, async (c) => {
      const auth = c.get('auth');
      const body = c.req.valid('json');
      const created = await createUser(db, auth, body);
      c.header('Location', `/api/v1/usuarios/${created.id}`);
      return c.json(created, 201);
    })
    .openapi(getUserRoute, async (c) => {
      const auth = c.get('auth');
      const { id } = c.req.valid('param');
      return c.json(await getUser(db, auth, id), 200);
    })
    .openapi(activeRoute, async (c) => {
      const auth = c.get('auth');
      const { id } = c.req.valid('param');
      const { active } = c.req.valid('json');
      return c.json(await setActive(db, auth, id, active), 200);
    })
    .openapi(passwordRoute, async (c) => {
      const auth = c.get('auth');
      const { id } = c.req.valid('param');
      const { password } = c.req.valid('json');
      await resetUserPassword(db, auth, id, password);
      return c.body(null, 204);
    });
}
