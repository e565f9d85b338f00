// Route-matrix cases of the visits (docs/visits.md; see test/matrix/types.ts): a representative
// checks in and out of their own visits; supervisors (their team), managers and admins read;
// supervisors and managers plan the route; managers keep the reasons. The other tenant's caller
// is an admin, who finds none of this tenant's visits, clients or representatives.
import { randomUUID } from 'node:crypto';
import { png } from '../fixtures/images.ts';
import { everyone, type MatrixCase } from './types.ts';

const only = (
  allowed: readonly ('representative' | 'supervisor' | 'manager' | 'admin' | 'otherTenant')[],
  ok: number,
): MatrixCase['expect'] => ({
  anonymous: 401,
  representative: allowed.includes('representative') ? ok : 403,
  supervisor: allowed.includes('supervisor') ? ok : 403,
  manager: allowed.includes('manager') ? ok : 403,
  admin: allowed.includes('admin') ? ok : 403,
  otherTenant: allowed.includes('otherTenant') ? ok : 403,
});

/** Read within reach: the tenant's callers see it, the other tenant's admin does not find it. */
const inReach = (ok: number): MatrixCase['expect'] => ({ ...everyone(ok), otherTenant: 404 });

export const visitMatrixCases: MatrixCase[] = [
  {
    method: 'GET',
    route: '/visits/route',
    request: (ctx) => ({ path: `/visits/route?codVendedor=${ctx.codVendedor}` }),
    // Codes are per tenant: the other tenant's admin gets the route of its own representative
    // with that code.
    expect: everyone(200),
  },
  {
    method: 'PUT',
    route: '/visits/route/order',
    request: (ctx) => ({ path: '/visits/route/order', body: { clientes: [ctx.idCliente] } }),
    expect: only(['representative'], 200),
  },
  {
    method: 'POST',
    route: '/visits',
    request: async (ctx, caller) => {
      if (caller === 'representative') await ctx.visits.none();
      return {
        path: '/visits',
        body: { id: randomUUID(), idCliente: ctx.idCliente, em: new Date().toISOString(), posicao: null },
      };
    },
    expect: only(['representative'], 201),
  },
  {
    method: 'GET',
    route: '/visits',
    request: () => ({ path: '/visits' }),
    expect: everyone(200),
  },
  {
    method: 'GET',
    route: '/visits/summary',
    request: () => ({ path: '/visits/summary' }),
    expect: only(['supervisor', 'manager', 'admin', 'otherTenant'], 200),
  },
  {
    method: 'GET',
    route: '/visits/{id}',
    request: async (ctx) => ({ path: `/visits/${await ctx.visits.closed()}` }),
    expect: inReach(200),
  },
  {
    method: 'POST',
    route: '/visits/{id}/checkout',
    request: async (ctx) => ({
      path: `/visits/${await ctx.visits.open()}/checkout`,
      body: { em: new Date(Date.now() + 60_000).toISOString(), idMotivo: await ctx.visits.reason() },
    }),
    expect: only(['representative'], 200),
  },
  {
    method: 'PUT',
    route: '/visits/{id}/photo',
    request: async (ctx) => ({
      path: `/visits/${await ctx.visits.open()}/photo`,
      rawBody: png(2, 2),
      headers: { 'content-type': 'image/png' },
    }),
    expect: only(['representative'], 204),
  },
  {
    method: 'GET',
    route: '/visits/{id}/photo',
    request: async (ctx) => ({ path: `/visits/${await ctx.visits.closed()}/photo` }),
    expect: inReach(200),
  },
  {
    method: 'POST',
    route: '/visits/{id}/confirm-position',
    request: async (ctx) => ({ path: `/visits/${await ctx.visits.closed()}/confirm-position` }),
    expect: only(['supervisor', 'manager'], 200),
  },
  {
    method: 'GET',
    route: '/visit-positions',
    request: () => ({ path: '/visit-positions' }),
    expect: only(['supervisor', 'manager'], 200),
  },
  {
    method: 'GET',
    route: '/visit-reasons',
    request: () => ({ path: '/visit-reasons' }),
    expect: everyone(200),
  },
  {
    method: 'POST',
    route: '/visit-reasons',
    request: () => ({ path: '/visit-reasons', body: { descricao: 'Motivo da matriz' } }),
    expect: only(['manager'], 201),
  },
  {
    method: 'PATCH',
    route: '/visit-reasons/{id}',
    request: async (ctx) => ({ path: `/visit-reasons/${await ctx.visits.reason()}`, body: { ordem: 0 } }),
    expect: only(['manager'], 200),
  },
  {
    method: 'GET',
    route: '/visit-plans',
    request: (ctx) => ({ path: `/visit-plans?codVendedor=${ctx.codVendedor}` }),
    // Codes are per tenant, as for the route.
    expect: everyone(200),
  },
  {
    method: 'GET',
    route: '/visit-plans/{idCliente}',
    request: (ctx) => ({ path: `/visit-plans/${ctx.idCliente}` }),
    expect: inReach(200),
  },
  {
    method: 'PUT',
    route: '/visit-plans/{idCliente}',
    request: async (ctx) => ({
      path: `/visit-plans/${await ctx.visits.planClient()}`,
      body: { dias: [{ diaSemana: 2 }] },
    }),
    expect: only(['supervisor', 'manager'], 200),
  },
];
