import { signal } from '@preact/signals';
import { Workbox } from 'workbox-window';

/** True when a new service worker is installed and waits for the person to accept it. */
export const updateReady = signal(false);

let wb: Workbox | null = null;

export function registerServiceWorker(): void {
  // The dev server serves no precache manifest; the worker exists only in builds.
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  wb = new Workbox('/sw.js', { scope: '/' });
  wb.addEventListener('waiting', () => {
    updateReady.value = true;
  });
  // The new worker took over after "Atualizar": reload so page and precache agree.
  wb.addEventListener('controlling', (e) => {
    if (e.isUpdate) window.location.reload();
  });
  void wb.register();
}

export function applyUpdate(): void {
  wb?.messageSkipWaiting();
}
