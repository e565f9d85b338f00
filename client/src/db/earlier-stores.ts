// The databases a store of an earlier version leaves behind (docs/sync.md, "Versions"). RxDB's
// Dexie storage keeps each collection in an IndexedDB database of its own, named
// `rxdb-dexie-<store>--<version>--<collection>` (the replication's meta data likewise, under
// its meta collection's name), and its migration moves the documents to the new version's
// database and empties the old one, but never deletes it: after an update a phone kept one
// empty database per collection and per meta collection of every version it went through.
// Once the store opened (so every migration is done), those of earlier versions are deleted;
// one still holding anything (an outbox a migration has not carried over, a collection this
// role does not open) is left alone.
import { STORE_VERSION } from './schemas.ts';

/** Where RxDB's Dexie storage names its databases, and RxDB's own store (version 0, always current). */
const INTERNAL = '_rxdb_internal';

/** How long a deletion another tab keeps "blocked" is waited for; the next start tries again. */
const DELETE_WAIT_MS = 5000;

interface Factory {
  databases?: () => Promise<{ name?: string }[]>;
  open(name: string): IDBOpenDBRequest;
  deleteDatabase(name: string): IDBOpenDBRequest;
}

/** The databases of the store `dbName` (campoDbName) older than `version`, by name. */
export function earlierStoreNames(names: readonly string[], dbName: string, version = STORE_VERSION): string[] {
  const prefix = `rxdb-dexie-${dbName}--`;
  return names.filter((name) => {
    if (!name.startsWith(prefix)) return false;
    const m = /^(\d+)--(.+)$/.exec(name.slice(prefix.length));
    return !!m && Number(m[1]) < version && m[2] !== INTERNAL;
  });
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** Whether every object store of the database is empty; false when it cannot tell. */
async function isEmpty(factory: Factory, name: string): Promise<boolean> {
  const opening = factory.open(name);
  // No such database any more (another tab deleted it): opening would make one; it is refused.
  opening.onupgradeneeded = () => opening.transaction?.abort();
  let db: IDBDatabase;
  try {
    db = await request(opening);
  } catch {
    return false;
  }
  try {
    // RxDB's documents are in `docs` (its Dexie tables `changes` and `attachments` hold none of
    // the app's data); a database of another shape counts whole.
    const all = [...db.objectStoreNames];
    const stores = all.includes('docs') ? ['docs'] : all;
    if (stores.length === 0) return true;
    const tx = db.transaction(stores, 'readonly');
    const counts = await Promise.all(stores.map((s) => request(tx.objectStore(s).count())));
    return counts.every((n) => n === 0);
  } finally {
    db.close();
  }
}

function deleteDatabase(factory: Factory, name: string): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), DELETE_WAIT_MS);
    const req = factory.deleteDatabase(name);
    req.onsuccess = () => {
      clearTimeout(timer);
      resolve(true);
    };
    req.onerror = () => {
      clearTimeout(timer);
      resolve(false);
    };
  });
}

/**
 * Deletes the empty databases of earlier versions of the store `dbName`; call it once the store
 * opened (its migrations done). Resolves with the names deleted; nothing where the browser
 * cannot list its databases (`indexedDB.databases()`, missing in Firefox before 126).
 */
export async function dropEarlierStores(dbName: string, indexedDb?: unknown): Promise<string[]> {
  const factory = (indexedDb ?? (globalThis as { indexedDB?: unknown }).indexedDB) as Factory | undefined;
  if (!factory?.databases) return [];
  const names = (await factory.databases()).map((d) => d.name ?? '');
  const deleted: string[] = [];
  for (const name of earlierStoreNames(names, dbName)) {
    if (!(await isEmpty(factory, name))) continue;
    if (await deleteDatabase(factory, name)) deleted.push(name);
  }
  return deleted;
}
