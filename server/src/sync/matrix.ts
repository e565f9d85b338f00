// Route-matrix cases of replication (see test/matrix/types.ts). Every signed-in role pulls its
// own tenant's collections; another tenant's user gets its own tenant's documents, never these.
import type { MatrixCase } from '../../../test/matrix/types.ts';
import { everyone } from '../../../test/matrix/types.ts';

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
    request: () => ({ path: '/sync/pedidos/pull' }),
    expect: everyone(404),
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
