// Today's route (roteiro) computed on the phone (docs/visits.md, "What the app does"): the
// clients of the portfolio due today by their visit days (visitDue, the same rule as the
// server's GET /visits/route), in the representative's order, each with its state from the
// visits and the orders in the store, so the route moves as the representative works offline.

import type { OrderCreate, RouteState } from '@campo/shared';
import { businessDate } from '@campo/shared/dates';
import { clientDisplayName } from '@campo/shared/format';
import { ROUTE_MAX_CLIENTS, visitDue } from '@campo/shared/visits';
import { checkInRefused, visitIsOpen } from '../db/outbox.ts';
import type { ClientDoc, OrderDoc, VisitDoc } from '../db/schemas.ts';

export interface RouteEntry {
  idCliente: number;
  nome: string;
  cidade: string | null;
  estado: RouteState;
  /** The client's visits of the day, earliest first. */
  visitas: VisitDoc[];
}

export interface LocalRoute {
  data: string;
  clientes: RouteEntry[];
  extras: RouteEntry[];
  resumo: { planejados: number; visitados: number; comPedido: number; extras: number };
}

/**
 * Distinct clients with an order on `day` on this device (queued, sent or accepted; not
 * rejected by the supervisor, cancelled by the ERP nor refused by the server): positivation as the dashboards count
 * it, and what "visitado com pedido" means on the route.
 */
export function clientsWithOrderOn(orders: readonly OrderDoc[], day: string): Set<number> {
  const clients = new Set<number>();
  for (const o of orders) {
    if (o.status === 'rejected' || o.status === 'cancelled' || o.status === 'refused') continue;
    const at = o.order?.criadoEm ?? o.queuedAt;
    if (!at || businessDate(at) !== day) continue;
    const client = o.order?.idCliente ?? (o.draft as OrderCreate | null)?.idCliente;
    if (typeof client === 'number') clients.add(client);
  }
  return clients;
}

/** A visit that counts: not a check-in the server refused (it never opened there). */
const counts = (v: VisitDoc) => !checkInRefused(v);

const clientName = (c: Pick<ClientDoc, 'tradeName' | 'name' | 'id'>) => clientDisplayName(c) || `Cliente ${c.id}`;

function stateOf(visits: readonly VisitDoc[], ordered: boolean): RouteState {
  if (visits.some(visitIsOpen)) return 'em_visita';
  if (visits.length > 0) {
    return ordered || visits.some((v) => v.idPedido !== null || v.estado === 'com_pedido')
      ? 'visitado_com_pedido'
      : 'visitado_sem_pedido';
  }
  return 'a_visitar';
}

/**
 * The route of `day` (today): the active clients due that day, by name, then moved to the
 * representative's order (`order`, client ids; those not named follow), at most
 * ROUTE_MAX_CLIENTS, and the clients visited that day outside it.
 */
export function routeOfDay(input: {
  day: string;
  clients: readonly ClientDoc[];
  visits: readonly VisitDoc[];
  orders: readonly OrderDoc[];
  order: readonly number[];
}): LocalRoute {
  const { day } = input;
  const ordered = clientsWithOrderOn(input.orders, day);
  const visitsOf = new Map<number, VisitDoc[]>();
  for (const v of input.visits) {
    if (v.data !== day || !counts(v)) continue;
    visitsOf.set(v.idCliente, [...(visitsOf.get(v.idCliente) ?? []), v]);
  }
  for (const list of visitsOf.values()) list.sort((a, b) => (a.entradaEm < b.entradaEm ? -1 : 1));
  const byName = (a: ClientDoc, b: ClientDoc) =>
    clientName(a).localeCompare(clientName(b), 'pt-BR') || Number(a.id) - Number(b.id);
  const due = input.clients.filter((c) => c.active && visitDue(day, c.diasVisita ?? [])).sort(byName);
  const rank = new Map(input.order.map((id, i) => [id, i]));
  const route = due
    .map((c, i) => ({ c, key: rank.get(Number(c.id)) ?? input.order.length + i }))
    .sort((a, b) => a.key - b.key)
    .map((x) => x.c)
    .slice(0, ROUTE_MAX_CLIENTS);
  const entry = (id: number, c: ClientDoc | undefined): RouteEntry => {
    const visitas = visitsOf.get(id) ?? [];
    return {
      idCliente: id,
      nome: c ? clientName(c) : (visitas[0]?.nomeCliente ?? `Cliente ${id}`),
      cidade: c?.city ?? null,
      estado: stateOf(visitas, ordered.has(id)),
      visitas,
    };
  };
  const clientes = route.map((c) => entry(Number(c.id), c));
  const onRoute = new Set(clientes.map((c) => c.idCliente));
  const known = new Map(input.clients.map((c) => [Number(c.id), c]));
  const extras = [...visitsOf.keys()]
    .filter((id) => !onRoute.has(id))
    .map((id) => entry(id, known.get(id)))
    .sort((a, b) => ((a.visitas[0]?.entradaEm ?? '') < (b.visitas[0]?.entradaEm ?? '') ? -1 : 1))
    .slice(0, ROUTE_MAX_CLIENTS);
  const visited = (e: RouteEntry) => e.estado !== 'a_visitar' && e.estado !== 'nao_visitado';
  return {
    data: day,
    clientes,
    extras,
    resumo: {
      planejados: clientes.length,
      visitados: clientes.filter(visited).length,
      comPedido: clientes.filter((e) => e.estado === 'visitado_com_pedido').length,
      extras: extras.length,
    },
  };
}

/** The route's order with one client moved up (-1) or down (+1). */
export function moveInRoute(ids: readonly number[], idCliente: number, by: -1 | 1): number[] {
  const next = [...ids];
  const at = next.indexOf(idCliente);
  const to = at + by;
  if (at < 0 || to < 0 || to >= next.length) return next;
  [next[at], next[to]] = [next[to] as number, next[at] as number];
  return next;
}
