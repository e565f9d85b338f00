// The representative's dashboard as the server last answered it (GET /dashboard/rep), kept on
// the device so the last figures show offline with their date.
import type { RepDashboard } from '@campo/shared';
import { api } from '../api.ts';
import { readLocal, writeLocal } from './local-cache.ts';

export interface CachedDashboard {
  /** When the server answered (device clock, ISO 8601). */
  at: string;
  data: RepDashboard;
}

const KEY = 'painel-representante';

function isCached(v: unknown): v is CachedDashboard {
  if (!v || typeof v !== 'object') return false;
  const c = v as Partial<CachedDashboard>;
  return typeof c.at === 'string' && !!c.data && typeof c.data === 'object' && typeof c.data.meta === 'object';
}

export function readCachedDashboard(): CachedDashboard | null {
  return readLocal(KEY, isCached);
}

export function writeCachedDashboard(c: CachedDashboard): void {
  writeLocal(KEY, c);
}

/** Asks the server for the dashboard and keeps the answer on the device; rejects offline or refused. */
export async function refreshDashboard(signal: AbortSignal): Promise<CachedDashboard> {
  const data = await api.GET('/dashboard/rep', { signal });
  const c = { at: new Date().toISOString(), data };
  writeCachedDashboard(c);
  return c;
}
