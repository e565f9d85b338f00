// ERP orders (telesales, counter) whose lines the device fetched (GET /clients/{id}/erp-orders/
// {erpId}). Their lines are not replicated: a representative's history spans years of ERP
// orders, and only the few opened are worth carrying. The last ones opened are kept per user,
// so an order seen once still opens, and can be repeated, without signal.
import type { ErpOrder } from '@campo/shared';
import { readLocal, writeLocal } from './local-cache.ts';

const KEY = 'pedidos-erp';
const KEEP = 30;

function isList(v: unknown): v is ErpOrder[] {
  return Array.isArray(v) && v.every((o) => o && typeof o === 'object' && Array.isArray((o as ErpOrder).lines));
}

export function cachedErpOrder(erpId: number): ErpOrder | null {
  return readLocal(KEY, isList)?.find((o) => o.erpId === erpId) ?? null;
}

export function rememberErpOrder(order: ErpOrder): void {
  const rest = (readLocal(KEY, isList) ?? []).filter((o) => o.erpId !== order.erpId);
  writeLocal(KEY, [order, ...rest].slice(0, KEEP));
}

/** The `repetir` value of a cart that repeats an ERP order (a Campo order's is its outbox id). */
export const erpRepeatId = (erpId: number) => `erp-${erpId}`;

export function erpIdOfRepeat(repeatId: string): number | null {
  const m = /^erp-(\d+)$/.exec(repeatId);
  return m ? Number(m[1]) : null;
}
