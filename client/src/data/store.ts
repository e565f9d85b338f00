// The device's data for the signed-in user: the RxDB store, its replication and the outbox,
// opened after login and wiped on logout or when the server ends the session. Loaded lazily
// (import()) so the login screen does not carry RxDB in the initial JavaScript.
import type { SessionUser } from '@campo/shared';
import { SYNC_WRITABLE } from '@campo/shared/sync-collections';
import { signal } from '@preact/signals';
import type { CampoDatabase, CampoReplication, Outbox, SyncState } from '../db/index.ts';
import type { Watchdog } from '../db/sync-watchdog.ts';
import { currentUser, onWipe, session } from '../session/session.ts';
import { loadStorageFull, refreshStorage, requestPersistence, setStorageFull, storageFull } from './device-storage.ts';
import { readLocal, writeLocal } from './local-cache.ts';

export interface Store {
  user: SessionUser;
  db: CampoDatabase;
  replication: CampoReplication;
  /** Representatives only: the other roles have no outbox. */
  outbox: Outbox | null;
  watchdog: Watchdog;
}

const HEALTH_KEY = 'saude-sincronizacao';

/**
 * A wait in ms set in localStorage (`campo.sync.watchdogMs`: the watchdog's, two minutes by
 * default; `campo.sync.retryMs`: RxDB's wait before trying a failed request again, 5 s by
 * default), or undefined for the default: the browser tests set them, and support can, on a
 * phone that stalls.
 */
function localMs(key: string): number | undefined {
  try {
    const ms = Number(localStorage.getItem(key));
    return Number.isFinite(ms) && ms > 0 ? ms : undefined;
  } catch {
    return undefined;
  }
}

/** The open store, or null while opening, logged out, or failing (see storeError). */
export const store = signal<Store | null>(null);
export const storeError = signal<string | null>(null);
export const syncState = signal<SyncState | null>(null);

let opening: Promise<Store | null> | null = null;
let openedFor: number | null = null;

async function open(user: SessionUser): Promise<Store | null> {
  const db = await import('../db/index.ts');
  const { createSyncHealth } = await import('../db/sync-health.ts');
  const { bulkDropper } = await import('../db/storage-pressure.ts');
  const { startWatchdog } = await import('../db/sync-watchdog.ts');
  loadStorageFull();
  // At login (the store opens right after it): ask the browser to keep this site's data.
  void requestPersistence();
  const database = await db.openCampoDb({ user: { id: user.id, idEmpresa: user.idEmpresa, role: user.role } });
  // Opened, so migrated: the empty databases of the store's earlier versions go (earlier-stores.ts).
  void import('../db/earlier-stores.ts')
    .then((m) => m.dropEarlierStores(database.name))
    .catch((err: unknown) => console.error('earlier stores', err));
  const health = createSyncHealth({
    persist: {
      load: () => readLocal(HEALTH_KEY, (v): v is unknown => v !== null),
      save: (v) => writeLocal(HEALTH_KEY, v),
    },
  });
  // Representatives only: the visits' photos wait here to be sent before their visits.
  const visitPhotos = user.role === 'representative' && db.canKeepVisitPhotos() ? db.cachedVisitPhotos() : undefined;
  let drop: () => Promise<number> = async () => 0;
  /** A full disk: the catalog gives way, and the representative is told (device-storage.ts). */
  const makeRoom = async () => {
    let dropped = 0;
    try {
      dropped = await drop();
    } catch (err) {
      // Told all the same: only the representative can free the rest of the disk.
      console.error(
        'storage full: the catalog could not be dropped',
        err instanceof Error ? `${err.name}: ${err.message}` : err,
      );
    }
    setStorageFull({ at: new Date().toISOString(), dropped: dropped + (storageFull.peek()?.dropped ?? 0) });
    void refreshStorage();
  };
  const replication = db.startReplication(database, {
    baseUrl: '',
    getToken: () => session.peek()?.token ?? null,
    // The session module hears the same 401 from its own requests; either way it wipes.
    onUnauthorized: () => undefined,
    retryTimeMs: localMs('campo.sync.retryMs'),
    health,
    ...(visitPhotos ? { visitPhotos } : {}),
    onQuotaExceeded: (collection, err) => {
      console.error('storage full', collection, err);
      void makeRoom();
    },
  });
  drop = bulkDropper(database, replication);
  replication.syncState.state$.subscribe((s) => {
    syncState.value = s;
  });
  const outbox =
    user.role === 'representative'
      ? db.createOutbox(database, {
          inFlight$: replication.inFlight$,
          makeRoom,
          ...(visitPhotos ? { visitPhotos } : {}),
        })
      : null;
  // After the first order of the session: ask again, since Chrome grants by engagement.
  let asked = false;
  outbox?.outbox$.subscribe((entries) => {
    if (asked || !entries.some((e) => e.state === 'queued' || e.state === 'sent')) return;
    asked = true;
    void requestPersistence();
  });
  const watchdog = startWatchdog(database, replication, { thresholdMs: localMs('campo.sync.watchdogMs') });
  return { user, db: database, replication, outbox, watchdog };
}

/**
 * "Sincronizar agora": every collection pulls, and each writable one is restarted so what waits
 * is pushed now rather than at RxDB's next retry (or never, if its push had stalled); after a
 * full disk, the app opens afresh instead.
 */
export async function syncEverythingNow(): Promise<void> {
  const s = store.peek();
  if (!s || s.replication.stopped) return;
  if (storageFull.peek()) {
    // The catalog's database was deleted under the open store (storage-pressure.ts): the app
    // opens afresh, pushes what waits and downloads the empty catalog as on a first visit.
    setStorageFull(null);
    globalThis.location?.reload();
    return;
  }
  // Restarting a collection with nothing to push costs one pull from its checkpoint.
  await Promise.all(SYNC_WRITABLE.map((c) => s.replication.restart(c)));
  void s.replication.syncNow().catch(() => undefined);
  void refreshStorage();
}

/** Opens the store of the signed-in user once; the screens call it and read `store`. */
export function ensureStore(): Promise<Store | null> {
  const user = currentUser.peek();
  if (!user) return Promise.resolve(null);
  if (opening && openedFor === user.id) return opening;
  openedFor = user.id;
  storeError.value = null;
  opening = open(user)
    .then((s) => {
      store.value = s;
      return s;
    })
    .catch((err: unknown) => {
      console.error('store', err);
      storeError.value = 'Não foi possível abrir os dados deste aparelho. Recarregue a página.';
      opening = null;
      return null;
    });
  return opening;
}

onWipe(async () => {
  const s = store.peek() ?? (opening ? await opening : null);
  store.value = null;
  syncState.value = null;
  opening = null;
  openedFor = null;
  if (!s) return;
  s.outbox?.close();
  s.watchdog.stop();
  await s.replication.stop();
  const db = await import('../db/index.ts');
  await db.wipe(s.db);
  await db.dropVisitPhotos();
});
