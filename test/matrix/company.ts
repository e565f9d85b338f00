// Route-matrix cases of the company settings (see test/matrix/types.ts): only managers and
// admins change them, each for their own tenant (the other tenant's admin changes its own);
// the money rules everyone reads and only managers change (the other tenant's caller is an admin).

import { png } from '../fixtures/images.ts';
import { everyone, type MatrixCase } from './types.ts';

const managerOrAdmin = (status: number): MatrixCase['expect'] => ({
  anonymous: 401,
  representative: 403,
  supervisor: 403,
  manager: status,
  admin: status,
  otherTenant: status,
});

export const companyMatrixCases: MatrixCase[] = [
  {
    method: 'PUT',
    route: '/catalog/company/logo',
    request: () => ({ path: '/catalog/company/logo', rawBody: png(2, 2), headers: { 'content-type': 'image/png' } }),
    expect: managerOrAdmin(200),
  },
  {
    method: 'DELETE',
    route: '/catalog/company/logo',
    request: () => ({ path: '/catalog/company/logo' }),
    expect: managerOrAdmin(204),
  },
  {
    method: 'PUT',
    route: '/dashboard/manager/meta-positivacao-dia',
    request: () => ({ path: '/dashboard/manager/meta-positivacao-dia', body: { metaPositivacaoDia: 40 } }),
    expect: managerOrAdmin(200),
  },
  {
    method: 'GET',
    route: '/catalog/company/money-rules',
    request: () => ({ path: '/catalog/company/money-rules' }),
    expect: everyone(200),
  },
  {
    method: 'PUT',
    route: '/catalog/company/money-rules',
    // The defaults again: the orders the other cases create must not meet a stricter policy.
    request: () => ({
      path: '/catalog/company/money-rules',
      body: { creditPolicy: 'flag', flexCreditSharePercent: 0, flexMaxBeyondCeilingPoints: 0 },
    }),
    expect: { anonymous: 401, representative: 403, supervisor: 403, manager: 200, admin: 403, otherTenant: 403 },
  },
];
