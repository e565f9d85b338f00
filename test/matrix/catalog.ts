// Route-matrix cases of the catalog (see test/matrix/types.ts). Every signed-in role reads the
// catalog of its own tenant; the other tenant's admin gets 404 for this tenant's product, and
// its own catalog for the lists. A pauta id is only unique within a tenant, so the list with
// an explicit pauta answers the other tenant from its own list of the same id.
import type { MatrixCase } from './types.ts';
import { everyone } from './types.ts';

export const catalogMatrixCases: MatrixCase[] = [
  {
    method: 'GET',
    route: '/catalog',
    request: (ctx) => ({ path: `/catalog?idPauta=${ctx.idPauta}&pageSize=5` }),
    expect: everyone(200),
  },
  {
    method: 'GET',
    route: '/catalog',
    request: () => ({ path: '/catalog?idPauta=2000000000' }),
    expect: everyone(404),
  },
  {
    method: 'GET',
    route: '/catalog/{id}',
    request: (ctx) => ({ path: `/catalog/${ctx.idProduto}` }),
    expect: everyone(200, 404),
  },
  {
    // The matrix's product has a photo in the reference ERP (drawn by fixtureImages).
    method: 'GET',
    route: '/catalog/{id}/image',
    request: (ctx) => ({ path: `/catalog/${ctx.idProduto}/image?size=thumb` }),
    expect: everyone(200, 404),
    cacheOnSuccess: 'private, max-age=604800',
  },
  {
    method: 'POST',
    route: '/catalog/sync',
    request: () => ({ path: '/catalog/sync' }),
    expect: everyone(200),
  },
  {
    method: 'GET',
    route: '/catalog/company',
    request: () => ({ path: '/catalog/company' }),
    expect: everyone(200),
  },
];
