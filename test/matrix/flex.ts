import type { MatrixCase } from './types.ts';

// The sales side reads balances in its reach; admins manage users, not commercial money (403).
// Another tenant's caller is an admin, so 403 too: the tenant isolation of the balances is
// checked in server/src/flex/flex.pg.test.ts.
const readers = { anonymous: 401, representative: 200, supervisor: 200, manager: 200, admin: 403, otherTenant: 403 };

export const flexMatrixCases: MatrixCase[] = [
  { method: 'GET', route: '/flex/balances', request: () => ({ path: '/flex/balances' }), expect: readers },
  {
    method: 'GET',
    route: '/flex/balances/{codVendedor}/entries',
    request: (ctx) => ({ path: `/flex/balances/${ctx.codVendedor}/entries` }),
    expect: readers,
  },
  {
    method: 'POST',
    route: '/flex/balances/{codVendedor}/adjustments',
    request: (ctx) => ({
      path: `/flex/balances/${ctx.codVendedor}/adjustments`,
      body: { valor: 10, motivo: 'Ajuste da matriz' },
    }),
    expect: { anonymous: 401, representative: 403, supervisor: 403, manager: 201, admin: 403, otherTenant: 403 },
  },
];
