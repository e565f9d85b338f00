import { signal } from '@preact/signals';
import { Workbox } from 'workbox-window';

/** True when a new service worker is installed and waits for the person to accept it. */
export const updateReady = signal(false);

let wb: Workbox | null = null;
let reloading = false;

/** Once: the two ways of hearing the new worker took over must not reload twice. */
function reload(): void {
  if (reloading) return;
  reloading = true;
  window.location.reload();
}

export function registerServiceWorker(): void {
  // The dev server serves no precache manifest; the worker exists only in builds.
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  wb = new Workbox('/sw.js', { scope: '/' });
  wb.addEventListener('waiting', () => {
    updateReady.value = true;
  });
  // The new worker took over after "Atualizar": reload so page and precache agree.
  wb.addEventListener('controlling', (e) => {
    if (e.isUpdate) reload();
  });
  void wb.register();
}

export function applyUpdate(): void {
  wb?.messageSkipWaiting();
}

/** How long "Atualize o app" waits for a new worker to download before reloading anyway. */
const INSTALL_WAIT_MS = 30_000;

/** Resolves once the registration's new worker has installed (or failed), or after a while. */
function installed(registration: ServiceWorkerRegistration): Promise<void> {
  const worker = registration.installing;
  if (!worker) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, INSTALL_WAIT_MS);
    function done() {
      clearTimeout(timer);
      worker?.removeEventListener('statechange', changed);
      resolve();
    }
    function changed() {
      if (worker?.state !== 'installing') done();
    }
    worker.addEventListener('statechange', changed);
  });
}

/**
 * "Atualize o app": the server no longer serves this app's sync protocol, so the person asked
 * for the new version now rather than at the next visit. Takes a worker already waiting, or
 * asks the server for one (registration.update()) and waits for it to install; then skips
 * waiting, and the "controlling" listener above reloads. With no new worker to take (the
 * page loaded the newest build already, or no service worker at all) it reloads, which loads
 * whatever the server serves now. The local store is kept either way: after the reload the
 * replication starts again from its checkpoints and pushes the outbox.
 */
export async function updateNow(): Promise<void> {
  const registration = 'serviceWorker' in navigator ? await navigator.serviceWorker.getRegistration() : undefined;
  if (wb && registration) {
    if (!registration.waiting) {
      await registration.update().catch(() => undefined);
      await installed(registration);
    }
    if (registration.waiting) {
      // A page that had no controller when it loaded gets no "controlling" update event.
      navigator.serviceWorker.addEventListener('controllerchange', reload, { once: true });
      wb.messageSkipWaiting();
      return;
    }
  }
  reload();
}
