// A visit's photo on the phone until the server holds it (docs/visits.md, "The visit's photo").
// It never travels inside the visit's JSON document: the bytes wait here, under the visit id,
// in a Cache Storage cache of their own ("campo-visitas-fotos"; IndexedDB holds the store), and
// the replication sends them with PUT /visits/{id}/photo BEFORE the visit's push
// (sync-handlers.ts), so the check-out that needs the photo finds it on the server. A photo
// whose upload fails stays here and keeps its visit's push waiting: never lost. Unlike the
// catalog's photos (data/photos.ts) nothing here is ever evicted for room.
export interface VisitPhotoStore {
  put(id: string, photo: Blob): Promise<void>;
  get(id: string): Promise<Blob | null>;
  delete(id: string): Promise<void>;
}

const CACHE_NAME = 'campo-visitas-fotos';

/** What this module uses of Cache Storage, typed here: tests type-check it without the DOM's types. */
interface PhotoCache {
  put(key: string, res: Response): Promise<void>;
  match(key: string): Promise<Response | undefined>;
  delete(key: string): Promise<boolean>;
}
interface Browser {
  caches?: { open(name: string): Promise<PhotoCache>; delete(name: string): Promise<boolean> };
  location?: { origin: string };
}
const browser = globalThis as unknown as Browser;

const keyOf = (id: string) =>
  `${browser.location?.origin ?? 'http://localhost'}/__campo-visitas-fotos/${encodeURIComponent(id)}`;

/** Whether this browser has Cache Storage (not in Node, nor on a page that is not secure). */
export const canKeepVisitPhotos = (): boolean => browser.caches !== undefined;

/** The browser's: Cache Storage, which works offline from the page with no service worker. */
export function cachedVisitPhotos(): VisitPhotoStore {
  const open = () => {
    if (!browser.caches) throw new Error('Cache Storage indisponível');
    return browser.caches.open(CACHE_NAME);
  };
  return {
    async put(id, photo) {
      await (await open()).put(keyOf(id), new Response(photo, { headers: { 'content-type': photo.type } }));
    },
    async get(id) {
      const res = await (await open()).match(keyOf(id));
      return res ? await res.blob() : null;
    },
    async delete(id) {
      await (await open()).delete(keyOf(id));
    },
  };
}

/** In memory, for Node tests (no Cache Storage there). */
export function memoryVisitPhotos(): VisitPhotoStore {
  const held = new Map<string, Blob>();
  return {
    put: async (id, photo) => void held.set(id, photo),
    get: async (id) => held.get(id) ?? null,
    delete: async (id) => void held.delete(id),
  };
}

/** Logout wipes the device (data/store.ts): the photos go with the store they belong to. */
export async function dropVisitPhotos(): Promise<void> {
  await browser.caches?.delete(CACHE_NAME);
}
