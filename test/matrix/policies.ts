// Route-matrix cases of the commercial policies (see test/matrix/types.ts). Rule management is
// manager only, so the other tenant's caller (an admin) is refused by role before any lookup;
// another tenant's manager getting 404 is covered in policies.pg.test.ts.
import type { MatrixCaller, MatrixCase, MatrixContext } from './types.ts';
import { everyone } from './types.ts';

const managerOnly = (managerStatus: number): MatrixCase['expect'] => ({
  anonymous: 401,
  representative: 403,
  supervisor: 403,
  manager: managerStatus,
  admin: 403,
  otherTenant: 403,
});

const rule = (ctx: MatrixContext, caller: MatrixCaller) => ({
  descricao: `Matriz ${caller}`,
  percent: 3,
  vigenciaInicio: '2020-01-01',
  vigenciaFim: '2020-01-31',
  idPautas: [ctx.idPauta],
});

const alcada = (ctx: MatrixContext, caller: MatrixCaller) => {
  const q = new URLSearchParams({ idPauta: String(ctx.idPauta), idProduto: String(ctx.idProduto) });
  // Everyone but a representative must say whose ceiling; the supervisor caller supervises this one.
  if (caller !== 'representative') q.set('codVendedor', String(ctx.codVendedor));
  return { path: `/politicas/alcada?${q}` };
};

export const policyMatrixCases: MatrixCase[] = [
  {
    method: 'GET',
    route: '/politicas/regras',
    request: () => ({ path: '/politicas/regras' }),
    expect: managerOnly(200),
  },
  {
    method: 'POST',
    route: '/politicas/regras',
    request: (ctx, caller) => ({ path: '/politicas/regras', body: rule(ctx, caller) }),
    expect: managerOnly(201),
  },
  {
    method: 'GET',
    route: '/politicas/regras/{id}',
    request: async (ctx) => ({ path: `/politicas/regras/${await ctx.newRule()}` }),
    expect: managerOnly(200),
  },
  {
    method: 'PUT',
    route: '/politicas/regras/{id}',
    request: async (ctx, caller) => {
      const { idPautas: _, ...body } = rule(ctx, caller);
      return { path: `/politicas/regras/${await ctx.newRule()}`, body: { ...body, idPauta: ctx.idPauta } };
    },
    expect: managerOnly(200),
  },
  {
    method: 'DELETE',
    route: '/politicas/regras/{id}',
    request: async (ctx) => ({ path: `/politicas/regras/${await ctx.newRule()}` }),
    expect: managerOnly(204),
  },
  {
    method: 'GET',
    route: '/politicas/regras/vigentes',
    request: () => ({ path: '/politicas/regras/vigentes' }),
    expect: everyone(200),
  },
  {
    method: 'GET',
    route: '/politicas/promocoes/vigentes',
    request: () => ({ path: '/politicas/promocoes/vigentes' }),
    expect: everyone(200),
  },
  {
    method: 'GET',
    route: '/politicas/grupos-produto',
    request: () => ({ path: '/politicas/grupos-produto' }),
    expect: everyone(200),
  },
  {
    method: 'GET',
    route: '/politicas/alcada',
    request: alcada,
    // The other tenant's admin asks for this tenant's product: 404.
    expect: everyone(200, 404),
  },
];
