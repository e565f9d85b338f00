import { randomUUID } from 'node:crypto';
import type { MatrixCase } from './types.ts';

/** The funnel is the representative's own: every other role is refused before any read. */
const repOnly = (ok: number) => ({
  anonymous: 401,
  representative: ok,
  supervisor: 403,
  manager: 403,
  admin: 403,
  otherTenant: 403,
});

export const funnelMatrixCases: MatrixCase[] = [
  { method: 'GET', route: '/funil', request: () => ({ path: '/funil' }), expect: repOnly(200) },
  {
    method: 'POST',
    route: '/funil',
    request: () => ({ path: '/funil', body: { id: randomUUID(), nomeProspect: 'Mercado Novo' } }),
    expect: repOnly(201),
  },
  {
    method: 'PATCH',
    route: '/funil/{id}',
    request: async (ctx) => ({ path: `/funil/${await ctx.newOpportunity()}`, body: { estagio: 'proposta' } }),
    expect: repOnly(200),
  },
  {
    method: 'DELETE',
    route: '/funil/{id}',
    request: async (ctx) => ({ path: `/funil/${await ctx.newOpportunity()}` }),
    expect: repOnly(204),
  },
];
