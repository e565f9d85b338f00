// Route-matrix cases of the client portfolio (see test/matrix/types.ts). A representative sees
// only their portfolio, so another representative's client answers them 404, as does any
// client of this tenant to the other tenant's admin; lists answer everyone 200 with their own
// scope (checked in clients.pg.test.ts).
import { randomUUID } from 'node:crypto';
import { cnpjCheckDigits } from '@campo/shared';
import type { MatrixCase } from './types.ts';
import { everyone } from './types.ts';

const scopedObject = (representative: number): MatrixCase['expect'] => ({
  ...everyone(200, 404),
  representative,
});

const managerOrAdmin = (status: number, otherTenant: number): MatrixCase['expect'] => ({
  anonymous: 401,
  representative: 403,
  supervisor: 403,
  manager: status,
  admin: status,
  otherTenant,
});

let registrations = 0;
/** A registration no fixture holds, new on every call (each caller's request is its own). */
function newClientBody(idPauta: number) {
  const base = `98${String(++registrations).padStart(10, '0')}`;
  return {
    id: randomUUID(),
    razaoSocial: 'Mercado Matriz',
    documento: `${base}${cnpjCheckDigits(base)}`,
    inscricaoEstadual: 'ISENTO',
    cep: '01001000',
    endereco: 'Praça da Sé',
    bairro: 'Sé',
    cidade: 'São Paulo',
    uf: 'SP',
    idPauta,
  };
}

export const clientMatrixCases: MatrixCase[] = [
  {
    method: 'POST',
    route: '/clients',
    // Only a representative registers clients, into their own tenant and portfolio.
    request: (ctx) => ({ path: '/clients', body: newClientBody(ctx.idPauta) }),
    expect: { ...everyone(403), representative: 201 },
  },
  {
    method: 'GET',
    route: '/clients',
    request: () => ({ path: '/clients?q=a&pageSize=5' }),
    expect: everyone(200),
  },
  {
    method: 'GET',
    route: '/clients/{id}',
    request: (ctx) => ({ path: `/clients/${ctx.idCliente}` }),
    expect: scopedObject(200),
  },
  {
    method: 'GET',
    route: '/clients/{id}',
    request: (ctx) => ({ path: `/clients/${ctx.idClienteOutroVendedor}` }),
    expect: scopedObject(404),
  },
  {
    method: 'GET',
    route: '/clients/{id}/orders',
    request: (ctx) => ({ path: `/clients/${ctx.idCliente}/orders` }),
    expect: scopedObject(200),
  },
  {
    method: 'GET',
    route: '/clients/{id}/orders',
    request: (ctx) => ({ path: `/clients/${ctx.idClienteOutroVendedor}/orders` }),
    expect: scopedObject(404),
  },
  {
    method: 'GET',
    route: '/clients/{id}/erp-orders/{erpId}',
    request: (ctx) => ({ path: `/clients/${ctx.erpOrder.idCliente}/erp-orders/${ctx.erpOrder.erpId}` }),
    expect: scopedObject(200),
  },
  {
    method: 'GET',
    route: '/clients/{id}/erp-orders/{erpId}',
    // The ERP order of another client, whoever asks: an order is read through its own client only.
    request: (ctx) => ({ path: `/clients/${ctx.idClienteOutroVendedor}/erp-orders/${ctx.erpOrder.erpId}` }),
    expect: everyone(404, 404),
  },
  {
    method: 'GET',
    route: '/clients/{id}/titles',
    request: (ctx) => ({ path: `/clients/${ctx.idCliente}/titles` }),
    expect: scopedObject(200),
  },
  {
    method: 'GET',
    route: '/clients/{id}/titles',
    request: (ctx) => ({ path: `/clients/${ctx.idClienteOutroVendedor}/titles` }),
    expect: scopedObject(404),
  },
  {
    method: 'GET',
    route: '/clients/{id}/mix',
    request: (ctx) => ({ path: `/clients/${ctx.idCliente}/mix` }),
    expect: scopedObject(200),
  },
  {
    method: 'GET',
    route: '/clients/{id}/mix',
    request: (ctx) => ({ path: `/clients/${ctx.idClienteOutroVendedor}/mix` }),
    expect: scopedObject(404),
  },
  {
    method: 'PUT',
    route: '/clients/{id}/credit-limit',
    request: (ctx) => ({ path: `/clients/${ctx.idCliente}/credit-limit`, body: { creditLimit: 5000 } }),
    expect: managerOrAdmin(200, 404),
  },
];
