// Route-matrix cases of the admin's user management (see test/matrix/types.ts). Admin only: the
// other tenant's admin passes the role check and then finds no such login (404), or creates one
// in their own tenant (201).
import type { MatrixCaller, MatrixCase } from './types.ts';

const adminOnly = (admin: number, otherTenant = admin): MatrixCase['expect'] => ({
  anonymous: 401,
  representative: 403,
  supervisor: 403,
  manager: 403,
  admin,
  otherTenant,
});

const newLogin = (caller: MatrixCaller) => ({
  login: `novo.${caller.toLowerCase()}@matrix.test`,
  name: `Novo ${caller}`,
  role: 'manager',
  password: 'senha-da-matriz-1',
});

export const userMatrixCases: MatrixCase[] = [
  {
    method: 'GET',
    route: '/usuarios',
    request: () => ({ path: '/usuarios' }),
    expect: adminOnly(200),
  },
  {
    method: 'POST',
    route: '/usuarios',
    request: (_ctx, caller) => ({ path: '/usuarios', body: newLogin(caller) }),
    expect: adminOnly(201),
  },
  {
    method: 'GET',
    route: '/usuarios/{id}',
    request: async (ctx) => ({ path: `/usuarios/${await ctx.newUser()}` }),
    expect: adminOnly(200, 404),
  },
  {
    method: 'PUT',
    route: '/usuarios/{id}/ativo',
    request: async (ctx) => ({ path: `/usuarios/${await ctx.newUser()}/ativo`, body: { active: false } }),
    expect: adminOnly(200, 404),
  },
  {
    method: 'PUT',
    route: '/usuarios/{id}/senha',
    request: async (ctx) => ({
      path: `/usuarios/${await ctx.newUser()}/senha`,
      body: { password: 'outra-senha-da-matriz' },
    }),
    expect: adminOnly(204, 404),
  },
];
