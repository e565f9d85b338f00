// The browser's storage as the sync screen reports it: whether the browser promised to keep the
// site's data (navigator.storage.persist(): without it a browser short of space, or Safari
// after days unopened, may delete the IndexedDB that holds the only copy of queued orders), how
// much of the quota is used, and whether a full disk made the catalog give way.
import { signal } from '@preact/signals';
import { readLocal, writeLocal } from './local-cache.ts';

export interface StorageInfo {
  /** The browser has the StorageManager API at all. */
  supported: boolean;
  /** navigator.storage.persisted(); null when unknown. */
  persisted: boolean | null;
  /** Bytes, from navigator.storage.estimate(); null when unknown. */
  usage: number | null;
  quota: number | null;
}

export const storageInfo = signal<StorageInfo | null>(null);

/** A full disk made the catalog give way (storage-pressure.ts); kept until it is downloaded again. */
export interface StorageFull {
  at: string;
  /** Products removed from the device to make room. */
  dropped: number;
}

const FULL_KEY = 'armazenamento-cheio';
const isFull = (v: unknown): v is StorageFull =>
  typeof v === 'object' && v !== null && typeof (v as StorageFull).at === 'string';

export const storageFull = signal<StorageFull | null>(null);

/** Read again for the signed-in user (the store opens after login). */
export function loadStorageFull(): void {
  storageFull.value = readLocal(FULL_KEY, isFull);
}

export function setStorageFull(value: StorageFull | null): void {
  storageFull.value = value;
  writeLocal(FULL_KEY, value);
}

interface StorageManagerLike {
  persist?: () => Promise<boolean>;
  persisted?: () => Promise<boolean>;
  estimate?: () => Promise<{ usage?: number; quota?: number }>;
}

function manager(): StorageManagerLike | undefined {
  return (globalThis as { navigator?: { storage?: StorageManagerLike } }).navigator?.storage;
}

export async function refreshStorage(): Promise<StorageInfo> {
  const m = manager();
  const info: StorageInfo = { supported: !!m?.estimate, persisted: null, usage: null, quota: null };
  try {
    if (m?.persisted) info.persisted = await m.persisted();
    if (m?.estimate) {
      const e = await m.estimate();
      info.usage = e.usage ?? null;
      info.quota = e.quota ?? null;
    }
  } catch {
    // A browser that refuses to say (a private window) is reported as unknown.
  }
  storageInfo.value = info;
  return info;
}

/**
 * Asks the browser to keep the site's data (at login, and again after the first order: Chrome
 * grants by engagement, so a later ask may succeed where the first did not). Asking when it is
 * already granted does nothing.
 */
export async function requestPersistence(): Promise<boolean | null> {
  const m = manager();
  let granted: boolean | null = null;
  try {
    if (m?.persisted && (await m.persisted())) granted = true;
    else if (m?.persist) granted = await m.persist();
  } catch {
    granted = null;
  }
  await refreshStorage();
  return granted;
}
