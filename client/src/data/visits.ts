// What the representative's visit screens read beyond the store (docs/visits.md, "What the app
// does"): the manager's reasons for no sale and the representative's own order of today's route,
// both kept in localStorage so they work offline.
//
// The reasons are cached from GET /visit-reasons (refreshed whenever a screen that uses them
// opens with signal) rather than carried on an ajustes document: ajustes is the company
// domain's collection, which the visits domain already depends on (the photo checks), so the
// server could not build a visits document there without a circle; and the list is short and
// changes a few times a year. A phone that never read it online has none: the reason sheet then
// says so and the visit stays open until there is signal.
import { businessDate } from '@campo/shared/dates';
import type { VisitReason } from '@campo/shared/visits';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { readLocal, writeLocal } from './local-cache.ts';

const REASONS_KEY = 'motivos-visita';
const ORDER_KEY = 'roteiro-ordem';

const isReasons = (v: unknown): v is VisitReason[] =>
  Array.isArray(v) && v.every((r) => !!r && typeof r === 'object' && typeof (r as VisitReason).id === 'number');

/**
 * Asks the server for the list and keeps it on the phone; null offline, when the copy on the
 * device stands. Início and the client's page call it, so the list is there before the first
 * visit without signal.
 */
export async function refreshVisitReasons(signal?: AbortSignal): Promise<VisitReason[] | null> {
  try {
    const list = await api.GET('/visit-reasons', signal ? { signal } : {});
    writeLocal(REASONS_KEY, list.items);
    return list.items;
  } catch {
    return null;
  }
}

/** The tenant's active reasons, the device's copy first, then the server's when it answers. */
export function useVisitReasons(): VisitReason[] | null {
  const [reasons, setReasons] = useState<VisitReason[] | null>(() => readLocal(REASONS_KEY, isReasons));
  useEffect(() => {
    const abort = new AbortController();
    void refreshVisitReasons(abort.signal).then((items) => {
      if (items && !abort.signal.aborted) setReasons(items);
    });
    return () => abort.abort();
  }, []);
  return reasons === null ? null : reasons.filter((r) => r.ativo);
}

interface StoredOrder {
  data: string;
  clientes: number[];
  /** The server has it (PUT /visits/route/order answered). */
  enviado: boolean;
}

const isOrder = (v: unknown): v is StoredOrder =>
  !!v &&
  typeof v === 'object' &&
  typeof (v as StoredOrder).data === 'string' &&
  Array.isArray((v as StoredOrder).clientes);

/** The representative's order of today's route, as set on this phone (empty: by name). */
export function readRouteOrder(day = businessDate()): number[] {
  const stored = readLocal(ORDER_KEY, isOrder);
  return stored?.data === day ? stored.clientes : [];
}

/**
 * Sends today's order when the server does not have it yet: the supervisor sees the route in
 * the representative's order. Offline it stays marked unsent and goes with the next call.
 */
export async function sendRouteOrder(): Promise<void> {
  const stored = readLocal(ORDER_KEY, isOrder);
  if (!stored || stored.enviado || stored.data !== businessDate()) return;
  try {
    await api.PUT('/visits/route/order', { body: { data: stored.data, clientes: stored.clientes } });
    const now = readLocal(ORDER_KEY, isOrder);
    // Changed again meanwhile: that newer order goes with the next call.
    if (now && now.data === stored.data && now.clientes.join() === stored.clientes.join()) {
      writeLocal(ORDER_KEY, { ...stored, enviado: true });
    }
  } catch {
    // Offline or refused: kept, sent with the next change or the next visit to Início.
  }
}

/** Keeps the new order on the phone at once and sends it when it can. */
export function saveRouteOrder(clientes: number[], day = businessDate()): Promise<void> {
  writeLocal(ORDER_KEY, { data: day, clientes, enviado: false } satisfies StoredOrder);
  return sendRouteOrder();
}
