// The device's data for the signed-in user: the RxDB store, its replication and the outbox,
// opened after login and wiped on logout or when the server ends the session. Loaded lazily
// (import()) so the login screen does not carry RxDB in the initial JavaScript.
import type { SessionUser } from '@campo/shared';
import { signal } from '@preact/signals';
import type { CampoDatabase, CampoReplication, Outbox, SyncState } from '../db/index.ts';
import { currentUser, onWipe, session } from '../session/session.ts';

export interface Store {
  user: SessionUser;
  db: CampoDatabase;
  replication: CampoReplication;
  /** Representatives only: the other roles have no outbox. */
  outbox: Outbox | null;
}

/** The open store, or null while opening, logged out, or failing (see storeError). */
export const store = signal<Store | null>(null);
export const storeError = signal<string | null>(null);
export const syncState = signal<SyncState | null>(null);

let opening: Promise<Store | null> | null = null;
let openedFor: number | null = null;

async function open(user: SessionUser): Promise<Store | null> {
  const db = await import('../db/index.ts');
  const database = await db.openCampoDb({ user: { id: user.id, idEmpresa: user.idEmpresa, role: user.role } });
  const replication = db.startReplication(database, {
    baseUrl: '',
    getToken: () => session.peek()?.token ?? null,
    // The session module hears the same 401 from its own requests; either way it wipes.
    onUnauthorized: () => undefined,
  });
  replication.syncState.state$.subscribe((s) => {
    syncState.value = s;
  });
  const outbox =
    user.role === 'representative' ? db.createOutbox(database, { inFlight$: replication.inFlight$ }) : null;
  return { user, db: database, replication, outbox };
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
  await s.replication.stop();
  const db = await import('../db/index.ts');
  await db.wipe(s.db);
});
