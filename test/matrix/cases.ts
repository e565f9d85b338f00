import { catalogMatrixCases } from './catalog.ts';
import { clientMatrixCases } from './clients.ts';
import { companyMatrixCases } from './company.ts';
import { dashboardMatrixCases } from './dashboards.ts';
import { directoryMatrixCases } from './directory.ts';
import { flexMatrixCases } from './flex.ts';
import { funnelMatrixCases } from './funnel.ts';
import { notificationMatrixCases } from './notifications.ts';
import { orderMatrixCases } from './orders.ts';
import { policyMatrixCases } from './policies.ts';
import { syncMatrixCases } from './sync.ts';
import { targetMatrixCases } from './targets.ts';
import { ticketMatrixCases } from './tickets.ts';
import type { MatrixCase } from './types.ts';
import { everyone } from './types.ts';
import { userMatrixCases } from './users.ts';
import { visitMatrixCases } from './visits.ts';

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
  ...visitMatrixCases,
  ...directoryMatrixCases,
  ...flexMatrixCases,
];
