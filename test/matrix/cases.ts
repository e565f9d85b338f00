import { catalogMatrixCases } from '../../server/src/catalog/matrix.ts';
import { clientMatrixCases } from '../../server/src/clients/matrix.ts';
import { companyMatrixCases } from '../../server/src/company/matrix.ts';
import { dashboardMatrixCases } from '../../server/src/dashboards/matrix.ts';
import { directoryMatrixCases } from '../../server/src/directory/matrix.ts';
import { funnelMatrixCases } from '../../server/src/funnel/matrix.ts';
import { notificationMatrixCases } from '../../server/src/notifications/matrix.ts';
import { orderMatrixCases } from '../../server/src/orders/matrix.ts';
import { policyMatrixCases } from '../../server/src/policies/matrix.ts';
import { syncMatrixCases } from '../../server/src/sync/matrix.ts';
import { targetMatrixCases } from '../../server/src/targets/matrix.ts';
import { ticketMatrixCases } from '../../server/src/tickets/matrix.ts';
import { userMatrixCases } from '../../server/src/users/matrix.ts';
import type { MatrixCase } from './types.ts';
import { everyone } from './types.ts';

/** Routes that belong to no domain folder. */
const core: MatrixCase[] = [
  {
    method: 'GET',
    route: '/health',
    request: () => ({ path: '/health' }),
    expect: { ...everyone(200), anonymous: 200 },
  },
  {
    method: 'GET',
    route: '/health/live',
    request: () => ({ path: '/health/live' }),
    expect: { ...everyone(200), anonymous: 200 },
  },
  {
    method: 'POST',
    route: '/client-errors',
    request: () => ({
      path: '/client-errors',
      body: { kind: 'error', message: 'matriz', appVersion: '0.1.0', page: '/' },
    }),
    expect: { ...everyone(204), anonymous: 204 },
  },
  {
    method: 'POST',
    route: '/auth/login',
    request: () => ({ path: '/auth/login', body: { login: 'nobody@x.test', password: 'wrong-password' } }),
    expect: { ...everyone(401), anonymous: 401 },
  },
  {
    method: 'POST',
    route: '/auth/dev-login',
    request: () => ({ path: '/auth/dev-login', body: { login: 'nobody@x.test' } }),
    // Disabled in the matrix's server: it answers 404 to everyone.
    expect: { ...everyone(404), anonymous: 404 },
  },
  { method: 'GET', route: '/auth/me', request: () => ({ path: '/auth/me' }), expect: everyone(200) },
];

export const MATRIX_CASES: MatrixCase[] = [
  ...core,
  ...policyMatrixCases,
  ...orderMatrixCases,
  ...clientMatrixCases,
  ...catalogMatrixCases,
  ...companyMatrixCases,
  ...notificationMatrixCases,
  ...ticketMatrixCases,
  ...funnelMatrixCases,
  ...dashboardMatrixCases,
  ...syncMatrixCases,
  ...targetMatrixCases,
  ...userMatrixCases,
  ...directoryMatrixCases,
];
