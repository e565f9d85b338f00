import { describe, expect, it } from 'vitest';
import type { ClientDoc, OrderDoc, VisitDoc } from '../db/schemas.ts';
import { moveInRoute, routeOfDay } from './route.ts';

// A Tuesday (ISO weekday 2).
const DAY = '2026-11-24';

function client(id: number, name: string, dias: ClientDoc['diasVisita'], active = true): ClientDoc {
  return {
    id: String(id),
    codVendedor: 3,
    name,
    tradeName: null,
    document: null,
    documentType: 'CNPJ',
    street: null,
    number: null,
    complement: null,
    district: null,
    zip: null,
    deliveryAddress: null,
    city: 'Campinas',
    uf: 'SP',
    phone: null,
    email: null,
    idPauta: null,
    financialStatus: 'ok',
    creditLimit: null,
    lastOrderAt: null,
    active,
    diasVisita: dias,
    busca: name.toLowerCase(),
  };
}

const tuesday = [{ diaSemana: 2, intervaloSemanas: 1, dataBase: null }];

function visit(idCliente: number, over: Partial<VisitDoc> = {}): VisitDoc {
  return {
    id: `v-${idCliente}-${over.entradaEm ?? ''}`,
    codVendedor: 3,
    idCliente,
    nomeCliente: null,
    data: DAY,
    estado: 'aberta',
    entradaEm: '2026-11-24T13:00:00.000Z',
    entradaRecebidaEm: null,
    saidaEm: null,
    saidaRecebidaEm: null,
    posicao: null,
    saidaPosicao: null,
    distanciaMetros: null,
    minutos: null,
    noRoteiro: false,
    idPedido: null,
    numPedSar: null,
    idMotivo: null,
    motivo: null,
    observacao: null,
    foto: false,
    recusa: null,
    ...over,
  };
}

const closed = (idCliente: number, over: Partial<VisitDoc> = {}) =>
  visit(idCliente, { saidaEm: '2026-11-24T13:20:00.000Z', estado: 'sem_pedido', idMotivo: 1, ...over });

function queuedOrder(idCliente: number, queuedAt: string): OrderDoc {
  return {
    id: `q-${idCliente}`,
    status: 'queued',
    draft: { idCliente, itens: [] },
    order: null,
    reasons: [],
    queuedAt,
    updatedAt: queuedAt,
  };
}

describe("today's route on the phone", () => {
  const clients = [
    client(1, 'Mercado Zeta', tuesday),
    client(2, 'Açougue Alfa', tuesday),
    client(3, 'Padaria Beta', [{ diaSemana: 3, intervaloSemanas: 1, dataBase: null }]),
    // Every other week from 2026-11-10 (a Tuesday two weeks before): due.
    client(4, 'Bar Gama', [{ diaSemana: 2, intervaloSemanas: 2, dataBase: '2026-11-10' }]),
    // Every other week from 2026-11-17: not this week.
    client(5, 'Loja Delta', [{ diaSemana: 2, intervaloSemanas: 2, dataBase: '2026-11-17' }]),
    client(6, 'Inativo Épsilon', tuesday, false),
    client(7, 'Sem Plano', undefined),
  ];

  it('holds the active clients due today, by name, each to visit', () => {
    const route = routeOfDay({ day: DAY, clients, visits: [], orders: [], order: [] });
    expect(route.clientes.map((c) => [c.nome, c.estado])).toEqual([
      ['Açougue Alfa', 'a_visitar'],
      ['Bar Gama', 'a_visitar'],
      ['Mercado Zeta', 'a_visitar'],
    ]);
    expect(route.resumo).toEqual({ planejados: 3, visitados: 0, comPedido: 0, extras: 0 });
  });

  it("moves as visits and orders are written on the phone, in the representative's order", () => {
    const route = routeOfDay({
      day: DAY,
      clients,
      visits: [
        visit(1),
        closed(2),
        closed(4, { idMotivo: null, estado: 'com_pedido' }),
        // Outside the route: an extra, with an order queued here.
        closed(3, { idMotivo: null }),
        // Yesterday's visit does not count today.
        closed(5, { data: '2026-11-23' }),
      ],
      orders: [queuedOrder(3, '2026-11-24T13:10:00.000Z')],
      order: [1, 4],
    });
    expect(route.clientes.map((c) => [c.idCliente, c.estado])).toEqual([
      [1, 'em_visita'],
      [4, 'visitado_com_pedido'],
      [2, 'visitado_sem_pedido'],
    ]);
    expect(route.extras.map((c) => [c.nome, c.estado])).toEqual([['Padaria Beta', 'visitado_com_pedido']]);
    expect(route.resumo).toEqual({ planejados: 3, visitados: 3, comPedido: 1, extras: 1 });
  });

  it('counts an order of the day as the visit with an order, and leaves out a check-in the server refused', () => {
    const refused = visit(1, { recusa: { code: 'VISIT_ALREADY_OPEN', message: 'Há uma visita aberta.' } });
    const route = routeOfDay({
      day: DAY,
      clients,
      visits: [refused, closed(2)],
      orders: [queuedOrder(2, '2026-11-24T12:00:00.000Z')],
      order: [],
    });
    const state = (id: number) => route.clientes.find((c) => c.idCliente === id)?.estado;
    expect(state(1)).toBe('a_visitar');
    expect(state(2)).toBe('visitado_com_pedido');
  });

  it('moves a client up and down, never past either end', () => {
    expect(moveInRoute([1, 2, 3], 3, -1)).toEqual([1, 3, 2]);
    expect(moveInRoute([1, 2, 3], 1, 1)).toEqual([2, 1, 3]);
    expect(moveInRoute([1, 2, 3], 1, -1)).toEqual([1, 2, 3]);
    expect(moveInRoute([1, 2, 3], 3, 1)).toEqual([1, 2, 3]);
  });
});
