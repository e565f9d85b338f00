import type { MatrixCase } from './types.ts';

/** Managers and admins only; another tenant's admin sees their own tenant. */
const managers = { anonymous: 401, representative: 403, supervisor: 403, manager: 200, admin: 200, otherTenant: 200 };

export const dashboardMatrixCases: MatrixCase[] = [
  {
    method: 'GET',
    route: '/dashboard/rep',
    // The representative caller: themself, their supervisor's team, the tenant. Codes are per
    // tenant: another tenant's admin gets its own representative of that code, if any (the
    // tenant isolation of the figures is checked in dashboards.pg.test.ts).
    request: (ctx) => ({ path: `/dashboard/rep?codVendedor=${ctx.codVendedor}` }),
    expect: { anonymous: 401, representative: 200, supervisor: 200, manager: 200, admin: 200, otherTenant: 200 },
  },
  {
    method: 'GET',
    route: '/dashboard/supervisor',
    request: (ctx) => ({ path: `/dashboard/supervisor?codSupervisor=${ctx.codSupervisor}` }),
    expect: { anonymous: 401, representative: 403, supervisor: 200, manager: 200, admin: 200, otherTenant: 200 },
  },
  { method: 'GET', route: '/dashboard/manager', request: () => ({ path: '/dashboard/manager' }), expect: managers },
  { method: 'GET', route: '/equipe/supervisores', request: () => ({ path: '/equipe/supervisores' }), expect: managers },
];
