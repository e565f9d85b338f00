import type { MatrixCase } from './types.ts';

/** Representative routes: the representative only; everyone else is refused before any read. */
const repOnly = (ok: number) => ({
  anonymous: 401,
  representative: ok,
  supervisor: 403,
  manager: 403,
  admin: 403,
  otherTenant: 403,
});
/** Company routes: managers and admins of the tenant; another tenant's admin does not see the ticket. */
const company = (ok: number, otherTenant = 404) => ({
  anonymous: 401,
  representative: 403,
  supervisor: 403,
  manager: ok,
  admin: ok,
  otherTenant,
});

export const ticketMatrixCases: MatrixCase[] = [
  { method: 'GET', route: '/chamados', request: () => ({ path: '/chamados' }), expect: repOnly(200) },
  {
    method: 'POST',
    route: '/chamados',
    request: async (ctx, caller) => ({
      path: '/chamados',
      body: {
        idPedido: caller === 'representative' ? await ctx.newPendingOrder() : 1,
        assunto: 'Entrega atrasada',
        mensagem: 'O pedido não chegou.',
      },
    }),
    expect: repOnly(201),
  },
  {
    method: 'GET',
    route: '/chamados/{id}',
    request: async (ctx) => ({ path: `/chamados/${await ctx.newTicket()}` }),
    expect: repOnly(200),
  },
  {
    method: 'POST',
    route: '/chamados/{id}/mensagens',
    request: async (ctx) => ({
      path: `/chamados/${await ctx.newTicket()}/mensagens`,
      body: { texto: 'Alguma novidade?' },
    }),
    expect: repOnly(200),
  },
  {
    method: 'POST',
    route: '/chamados/{id}/cancelar',
    request: async (ctx) => ({ path: `/chamados/${await ctx.newTicket()}/cancelar` }),
    expect: repOnly(200),
  },
  { method: 'GET', route: '/ger/chamados', request: () => ({ path: '/ger/chamados' }), expect: company(200, 200) },
  {
    method: 'GET',
    route: '/ger/chamados/{id}',
    request: async (ctx) => ({ path: `/ger/chamados/${await ctx.newTicket()}` }),
    expect: company(200),
  },
  {
    method: 'POST',
    route: '/ger/chamados/{id}/mensagens',
    request: async (ctx) => ({
      path: `/ger/chamados/${await ctx.newTicket()}/mensagens`,
      body: { texto: 'Estamos verificando.' },
    }),
    expect: company(200),
  },
  {
    method: 'POST',
    route: '/ger/chamados/{id}/resolver',
    request: async (ctx) => ({ path: `/ger/chamados/${await ctx.newTicket()}/resolver` }),
    expect: company(200),
  },
];
