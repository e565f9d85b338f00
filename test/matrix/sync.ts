// Route-matrix cases of replication (see test/matrix/types.ts). Every signed-in role pulls its
// own tenant's collections; another tenant's user gets its own tenant's documents, never these.
import type { MatrixCase } from './types.ts';
import { everyone } from './types.ts';

export const syncMatrixCases: MatrixCase[] = [
  {
    method: 'GET',
    route: '/sync/{collection}/pull',
    request: () => ({ path: '/sync/produtos/pull?limit=5' }),
    expect: everyone(200),
  },
  {
    method: 'GET',
    route: '/sync/{collection}/pull',
    request: () => ({ path: '/sync/clientes/pull?limit=5' }),
    expect: everyone(200),
  },
  {
    method: 'GET',
    route: '/sync/{collection}/pull',
    request: () => ({ path: '/sync/vendas/pull' }),
    expect: everyone(404),
  },
  {
    method: 'GET',
    route: '/sync/{collection}/pull',
    request: () => ({ path: '/sync/regras/pull' }),
    expect: everyone(200),
  },
  {
    method: 'GET',
    route: '/sync/{collection}/pull',
    request: () => ({ path: '/sync/ajustes/pull' }),
    expect: everyone(200),
  },
  // A representative's own work: only representatives replicate it (another tenant's
  // representative caller would get their own; the matrix's other-tenant user is an admin).
  ...(['pedidos', 'funil', 'chamados', 'cadastros'] as const).map(
    (collection): MatrixCase => ({
      method: 'GET',
      route: '/sync/{collection}/pull',
      request: () => ({ path: `/sync/${collection}/pull` }),
      expect: { ...everyone(403), representative: 200 },
    }),
  ),
  {
    method: 'POST',
    route: '/sync/{collection}/push',
    request: () => ({ path: '/sync/pedidos/push', body: [] }),
    expect: { ...everyone(403), representative: 200 },
  },
  {
    method: 'POST',
    route: '/sync/{collection}/push',
    // The representative caller's own card, merged; every other role is refused.
    request: async (ctx) => ({
      path: '/sync/funil/push',
      body: [
        {
          assumedMasterState: null,
          newDocumentState: { id: await ctx.newOpportunity(), estagio: 'lead', nomeProspect: 'x', _deleted: false },
        },
      ],
    }),
    expect: { ...everyone(403), representative: 200 },
  },
  {
    method: 'POST',
    route: '/sync/{collection}/push',
    request: () => ({ path: '/sync/produtos/push', body: [] }),
    expect: everyone(404),
  },
  {
    method: 'POST',
    route: '/sync/{collection}/push',
    request: () => ({ path: '/sync/pedidos/push', body: [{ newDocumentState: {} }] }),
    expect: everyone(400),
  },
  {
    method: 'GET',
    route: '/sync/{collection}/pull',
    request: () => ({ path: '/sync/produtos/pull?checkpoint=not-a-checkpoint' }),
    expect: everyone(400),
  },
  {
    method: 'GET',
    route: '/sync/stream',
    // The matrix's server has no change hub: every signed-in caller gets 503 (the role is never
    // the reason); the stream itself is tested in stream.pg.test.ts.
    request: () => ({ path: '/sync/stream' }),
    expect: everyone(503),
  },
];
