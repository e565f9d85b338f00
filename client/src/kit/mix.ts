// The client's mix on the phone (issue #41): the products a client bought in the last months,
// from its replicated document (collection clientes, field mix), read offline. The cart's
// "Sugestão" and the client's page draw it; both count days against this device's São Paulo
// date, so the figures stay right offline and the document does not change every day.
import { CLIENT_MIX_MONTHS, type SyncMixEntry } from '@campo/shared/mix';

/**
 * Below this many days since its last purchase a product never stands out: the same 30 days
 * after which a client counts as inactive (docs/glossary.md).
 */
export const MIX_STALE_MIN_DAYS = 30;

export interface MixItem {
  idProduto: number;
  /** How many orders in the window had the product. */
  pedidos: number;
  /** The usual quantity: the median over those orders' lines. */
  quantidadeUsual: number;
  ultimoPreco: number;
  /** YYYY-MM-DD. */
  ultimaCompra: string;
  /** Days from the last purchase to today. */
  dias: number;
  /**
   * The client used to buy it and has not for a while: bought more than once, and the days since
   * the last purchase are at least MIX_STALE_MIN_DAYS and past its usual interval (the window's
   * days over its orders), so a product bought every two months is not flagged after 35 days.
   */
  parado: boolean;
}

/** Whole days from `from` to `to`, both YYYY-MM-DD (never negative: a date ahead is today). */
export function daysBetween(from: string, to: string): number {
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from.slice(0, 10)}T00:00:00Z`)) / 86_400_000;
  return Number.isFinite(days) ? Math.max(Math.round(days), 0) : 0;
}

/** The window of the mix in days, as the usual interval counts it. */
const WINDOW_DAYS = CLIENT_MIX_MONTHS * 30;

function isEntry(e: unknown): e is SyncMixEntry {
  return (
    Array.isArray(e) &&
    e.length === 5 &&
    typeof e[0] === 'number' &&
    typeof e[1] === 'number' &&
    typeof e[2] === 'number' &&
    typeof e[3] === 'number' &&
    typeof e[4] === 'string'
  );
}

/**
 * The client's mix in the document's order (the most bought first), with the days since each
 * last purchase; empty when the document has none (not bought in the window, or pulled before
 * store version 6's refetch). An entry of another shape (a newer server) is skipped.
 */
export function mixItems(client: { mix?: readonly unknown[] | null | undefined }, today: string): MixItem[] {
  return (client.mix ?? []).filter(isEntry).map(([idProduto, pedidos, quantidadeUsual, ultimoPreco, ultimaCompra]) => {
    const dias = daysBetween(ultimaCompra, today);
    const interval = WINDOW_DAYS / Math.max(pedidos, 1);
    return {
      idProduto,
      pedidos,
      quantidadeUsual,
      ultimoPreco,
      ultimaCompra,
      dias,
      parado: pedidos > 1 && dias >= MIX_STALE_MIN_DAYS && dias >= interval,
    };
  });
}

/**
 * Positivação de produto: the products of the mix the client has not bought yet this month
 * (São Paulo's), the rep's help for the day: what to offer so every usual item is sold again.
 */
export function notBoughtThisMonth(items: readonly MixItem[], today: string): MixItem[] {
  const month = today.slice(0, 7);
  return items.filter((i) => i.ultimaCompra.slice(0, 7) < month);
}

/** How long since the last purchase, as a badge says it. */
export function sinceText(dias: number): string {
  if (dias === 0) return 'comprou hoje';
  return dias === 1 ? 'há 1 dia sem comprar' : `há ${dias} dias sem comprar`;
}

/** How often, as the list says it. */
export function ordersText(pedidos: number): string {
  return pedidos === 1 ? 'em 1 pedido' : `em ${pedidos} pedidos`;
}
