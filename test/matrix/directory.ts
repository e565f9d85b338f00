// Route-matrix cases of the directory reads (see test/matrix/types.ts). The other tenant's admin
// reads its own tenant's lists (200); that they hold none of ours is checked in
// server/src/users/users.pg.test.ts.
import type { MatrixCase } from './types.ts';
import { everyone } from './types.ts';

export const directoryMatrixCases: MatrixCase[] = [
  {
    method: 'GET',
    route: '/vendedores',
    request: () => ({ path: '/vendedores' }),
    expect: { ...everyone(200), representative: 403 },
  },
  {
    method: 'GET',
    route: '/supervisores',
    request: () => ({ path: '/supervisores' }),
    expect: { ...everyone(200), representative: 403, supervisor: 403 },
  },
  {
    method: 'GET',
    route: '/pautas',
    request: () => ({ path: '/pautas' }),
    expect: { ...everyone(200), representative: 403 },
  },
];
