import { randomUUID } from 'node:crypto';
import type { MatrixCase, MatrixContext } from './types.ts';
import { everyone } from './types.ts';

export const orderBody = (ctx: MatrixContext) => ({
  idCliente: ctx.idCliente,
  itens: [{ idProduto: ctx.idProdutoPedido, quantidade: 1, descontoPercent: 0 }],
});

/** Deciders: the rep's supervisor, managers and admins; another tenant cannot see the order. */
const decision = { anonymous: 401, representative: 403, supervisor: 200, manager: 200, admin: 200, otherTenant: 404 };

export const orderMatrixCases: MatrixCase[] = [
  {
    method: 'POST',
    route: '/orders',
    request: (ctx) => ({ path: '/orders', body: orderBody(ctx), headers: { 'idempotency-key': randomUUID() } }),
    expect: { anonymous: 401, representative: 201, supervisor: 403, manager: 403, admin: 403, otherTenant: 403 },
  },
  { method: 'GET', route: '/orders', request: () => ({ path: '/orders' }), expect: everyone(200) },
  {
    method: 'GET',
    route: '/orders/{id}',
    request: async (ctx, caller) => ({ path: `/orders/${caller === 'anonymous' ? 1 : await ctx.newPendingOrder()}` }),
    expect: { ...everyone(200), otherTenant: 404 },
  },
  {
    method: 'POST',
    route: '/orders/{id}/approve',
    request: async (ctx) => ({ path: `/orders/${await ctx.newPendingOrder()}/approve` }),
    expect: decision,
  },
  {
    method: 'POST',
    route: '/orders/{id}/reject',
    request: async (ctx) => ({
      path: `/orders/${await ctx.newPendingOrder()}/reject`,
      body: { motivo: 'teste da matriz' },
    }),
    expect: decision,
  },
];
