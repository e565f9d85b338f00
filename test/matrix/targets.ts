import type { MatrixCase } from './types.ts';

const MONTH = '2026-01';
const managers = (status: number): MatrixCase['expect'] => ({
  anonymous: 401,
  representative: 403,
  supervisor: 403,
  manager: status,
  admin: status,
  otherTenant: status,
});

export const targetMatrixCases: MatrixCase[] = [
  {
    method: 'GET',
    route: '/metas/{mes}',
    request: () => ({ path: `/metas/${MONTH}` }),
    expect: { ...managers(200), supervisor: 200 },
  },
  {
    method: 'PUT',
    route: '/metas/{mes}',
    // Representative codes repeat across tenants in the fixture: the other tenant's admin sets
    // the target of their own representative with that code, never ours.
    request: (ctx) => ({
      path: `/metas/${MONTH}`,
      body: { metas: [{ codVendedor: ctx.codVendedor, valorMeta: 1000 }] },
    }),
    expect: managers(200),
  },
  {
    method: 'POST',
    route: '/metas/{mes}/copiar-anterior',
    request: () => ({ path: `/metas/${MONTH}/copiar-anterior` }),
    expect: managers(200),
  },
];
