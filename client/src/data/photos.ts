// Product photos on the device (docs/pwa.md, "Product photos"). An <img src> cannot send the
// bearer token, so the page fetches each photo itself (GET /catalog/{id}/image with the token),
// keeps it in a Cache Storage cache of its own, "campo-fotos", and shows it through an object
// URL. The same cache answers offline, from the page, with no service worker involved: it works
// with the server stopped and with the browser offline alike. The cache holds nothing else, so
// evicting photos (least recently used first, within the byte budget of photo-budget.ts) never
// touches the outbox or the RxDB store, which live in IndexedDB.
import { signal } from '@preact/signals';
import { apiUrl, currentToken } from '../api.ts';
import { collectionOf } from '../db/database.ts';
import { onWipe } from '../session/session.ts';
import { readLocal, writeLocal } from './local-cache.ts';
import { type ConnectionKind, connectionKind, PhotoBudget } from './photo-budget.ts';
import type { Store } from './store.ts';

export type PhotoSize = 'thumb' | 'full';
/** What a photo needs of a product: its id and the ERP's image reference (null: no photo, never asked). */
export interface PhotoProduct {
  id: string;
  image: string | null;
}

const CACHE_NAME = 'campo-fotos';
const MB = 1024 * 1024;
/** The build's default budget (CAMPO_FOTOS_MB when building, else 150; client/vite.config.ts). */
export const DEFAULT_LIMIT_MB = __PHOTO_BUDGET_MB__;
export const LIMIT_CHOICES_MB = [...new Set([50, 150, 300, 500, DEFAULT_LIMIT_MB])].sort((a, b) => a - b);
/** Photos fetched at once, for the screen and for the download alike: a phone's link stays usable. */
const PARALLEL = 4;
/** The server's max-age: a photo older than this is asked again with its ETag when shown online. */
const FRESH_MS = 7 * 24 * 3600 * 1000;

// Headers of the responses the cache keeps, for the app only.
const REF = 'x-campo-ref';
const BYTES = 'x-campo-bytes';
const AT = 'x-campo-em';

const origin = () => globalThis.location?.origin ?? 'http://localhost';
const indexKey = () => `${origin()}/__campo-fotos/indice`;

/** The photo's URL, which is also its key in the cache. */
export function photoKey(id: string, size: PhotoSize): string {
  return `${origin()}${apiUrl(`/catalog/${encodeURIComponent(id)}/image`)}?size=${size}`;
}

// ---- settings -------------------------------------------------------------------------------

export interface PhotoSettings {
  /** The budget in MB. */
  limitMb: number;
  /** Download only where the browser says the connection is Wi-Fi. */
  wifiOnly: boolean;
  /** The download also takes the large photos of the product page. */
  full: boolean;
}

const SETTINGS_KEY = 'fotos-config';
const DEFAULTS: PhotoSettings = { limitMb: DEFAULT_LIMIT_MB, wifiOnly: false, full: false };
const isSettings = (v: unknown): v is Partial<PhotoSettings> => typeof v === 'object' && v !== null;

export const photoSettings = signal<PhotoSettings>(DEFAULTS);

/** Reads the signed-in user's choices (kept per user on the device, wiped with it). */
export function loadPhotoSettings(): PhotoSettings {
  const kept = readLocal(SETTINGS_KEY, isSettings) ?? {};
  const limitMb = Number(kept.limitMb);
  photoSettings.value = {
    limitMb: Number.isFinite(limitMb) && limitMb > 0 ? limitMb : DEFAULT_LIMIT_MB,
    wifiOnly: kept.wifiOnly === true,
    full: kept.full === true,
  };
  if (opening !== null) void opening.then((o) => o && applyLimit(o));
  return photoSettings.value;
}

export async function setPhotoSettings(patch: Partial<PhotoSettings>): Promise<void> {
  photoSettings.value = { ...photoSettings.value, ...patch };
  writeLocal(SETTINGS_KEY, photoSettings.value);
  const o = await open();
  if (o) await applyLimit(o);
}

/** A lowered limit evicts at once, least recently used first. */
async function applyLimit(o: Opened): Promise<void> {
  const limit = photoSettings.value.limitMb * MB;
  if (o.budget.limit === limit) return;
  o.budget.limit = limit;
  await evict(o, o.budget.overflow());
  changed(o);
}

// ---- the cache and its index ----------------------------------------------------------------

interface Opened {
  cache: Cache;
  budget: PhotoBudget;
}

/** What the photos take on the device, for the sync screen. */
export const photoStats = signal<{ count: number; bytes: number; limit: number } | null>(null);

let opening: Promise<Opened | null> | null = null;
let saveTimer: ReturnType<typeof setTimeout> | null = null;

function open(): Promise<Opened | null> {
  opening ??= (async () => {
    if (typeof caches === 'undefined') return null;
    try {
      const cache = await caches.open(CACHE_NAME);
      const kept: unknown = await cache
        .match(indexKey())
        .then((r) => r?.json())
        .catch(() => null);
      const budget = PhotoBudget.fromIndex(loadPhotoSettings().limitMb * MB, kept);
      // The index is written a moment after the photos: a photo it missed is counted from its
      // header, one it names that is gone (cleared by the browser) is forgotten.
      const held = new Set((await cache.keys()).map((r) => r.url));
      held.delete(indexKey());
      for (const [key] of budget.toIndex()) if (!held.has(key)) budget.delete(key);
      for (const key of held) {
        if (budget.has(key)) continue;
        const bytes = Number((await cache.match(key))?.headers.get(BYTES));
        if (Number.isFinite(bytes) && bytes >= 0) budget.set(key, bytes);
        else await cache.delete(key);
      }
      const o = { cache, budget };
      await evict(o, budget.overflow());
      changed(o);
      return o;
    } catch {
      // No Cache Storage (an insecure origin, a private window that refuses it): placeholders.
      return null;
    }
  })();
  return opening;
}

function changed(o: Opened): void {
  photoStats.value = { count: o.budget.count, bytes: o.budget.bytes, limit: o.budget.limit };
  // The order of use is written at most once a second: every photo shown moves it.
  if (saveTimer) return;
  saveTimer = setTimeout(() => {
    saveTimer = null;
    void saveIndex(o);
  }, 1000);
}

async function saveIndex(o: Opened): Promise<void> {
  try {
    await o.cache.put(indexKey(), Response.json(o.budget.toIndex()));
  } catch {
    // A full disk: the index is rebuilt from the photos' headers on the next start.
  }
}

async function evict(o: Opened, keys: string[]): Promise<void> {
  for (const key of keys) {
    o.budget.delete(key);
    await o.cache.delete(key);
  }
  if (keys.length > 0) changed(o);
}

function isQuota(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'QuotaExceededError';
}

type Saved = 'saved' | 'full' | 'failed';

let saving: Promise<unknown> = Promise.resolve();

/**
 * Keeps a photo, evicting the least recently used ones it needs room from (never one `keep`
 * protects). One at a time: two photos measured against the same free room would pass the limit.
 */
function save(
  o: Opened,
  key: string,
  photo: Fetched & { kind: 'photo' },
  ref: string,
  keep?: (k: string) => boolean,
): Promise<Saved> {
  const run = saving.then(() => saveNow(o, key, photo, ref, keep));
  saving = run.catch(() => undefined);
  return run;
}

async function saveNow(
  o: Opened,
  key: string,
  photo: Fetched & { kind: 'photo' },
  ref: string,
  keep?: (k: string) => boolean,
): Promise<Saved> {
  const room = o.budget.roomFor(photo.blob.size, key, keep);
  if (!room) return 'full';
  await evict(o, room);
  const headers: Record<string, string> = {
    'content-type': photo.blob.type || 'image/webp',
    [REF]: encodeURIComponent(ref),
    [BYTES]: String(photo.blob.size),
    [AT]: String(Date.now()),
  };
  if (photo.etag) headers.etag = photo.etag;
  for (let attempt = 0; ; attempt++) {
    try {
      await o.cache.put(key, new Response(photo.blob, { headers }));
      break;
    } catch (err) {
      // The disk itself is full (other sites, the store): older photos give way once.
      if (!isQuota(err) || attempt > 0) return isQuota(err) ? 'full' : 'failed';
      await evict(
        o,
        o.budget.oldest(0.25).filter((k) => !keep?.(k)),
      );
    }
  }
  o.budget.set(key, photo.blob.size);
  changed(o);
  return 'saved';
}

// ---- fetching -------------------------------------------------------------------------------

type Fetched = { kind: 'photo'; blob: Blob; etag: string | null } | { kind: 'same' } | { kind: 'none'; status: number };

let active = 0;
const queue: (() => void)[] = [];

async function limited<T>(run: () => Promise<T>): Promise<T> {
  while (active >= PARALLEL) await new Promise<void>((resolve) => queue.push(resolve));
  active++;
  try {
    return await run();
  } finally {
    active--;
    queue.shift()?.();
  }
}

/**
 * One photo from the server. `no-store`: the browser's HTTP cache would keep a second copy of
 * every photo outside the budget. Throws when the request never reached the server.
 */
async function fetchPhoto(
  id: string,
  size: PhotoSize,
  signal: AbortSignal | undefined,
  etag?: string | null,
): Promise<Fetched> {
  const headers: Record<string, string> = {};
  const token = currentToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (etag) headers['if-none-match'] = etag;
  const res = await fetch(photoKey(id, size), { headers, cache: 'no-store', ...(signal ? { signal } : {}) });
  if (res.status === 304 && etag) return { kind: 'same' };
  // Anything but an image is no photo: the screen shows the placeholder, never a broken picture.
  if (res.status !== 200 || !(res.headers.get('content-type') ?? '').startsWith('image/')) {
    await res.body?.cancel();
    return { kind: 'none', status: res.status };
  }
  const blob = await res.blob();
  return blob.size > 0 ? { kind: 'photo', blob, etag: res.headers.get('etag') } : { kind: 'none', status: 200 };
}

/** Photos the server said it has not, this session (by key and reference): not asked again. */
const missing = new Set<string>();

const online = () => globalThis.navigator?.onLine !== false;

/**
 * A product's photo: the device's copy when it has one for the product's current image, else
 * the server's (kept for next time), else null (the placeholder). Offline, an older copy beats
 * none. A large photo that cannot be had falls back to the thumbnail the device keeps.
 */
export async function loadPhoto(product: PhotoProduct, size: PhotoSize, signal?: AbortSignal): Promise<Blob | null> {
  const ref = product.image;
  if (!ref) return null;
  const key = photoKey(product.id, size);
  const o = await open();
  const cached = o ? await o.cache.match(key) : undefined;
  const current = cached?.headers.get(REF) === encodeURIComponent(ref);
  if (o && cached && current) {
    o.budget.touch(key);
    changed(o);
    const at = Number(cached.headers.get(AT));
    if (online() && !(Date.now() - at < FRESH_MS)) void revalidate(o, product, size, cached.clone());
    return cached.blob();
  }
  // The server's word this session that it has no photo for this image: the placeholder, even
  // where an older copy is kept (the ERP dropped or replaced the image).
  if (missing.has(`${key} ${ref}`)) return null;
  if (online()) {
    try {
      const fetched = await limited(() => fetchPhoto(product.id, size, signal));
      if (fetched.kind !== 'photo') {
        missing.add(`${key} ${ref}`);
        return null;
      }
      if (o) await save(o, key, fetched, ref);
      return fetched.blob;
    } catch (err) {
      if (signal?.aborted) throw err;
      // No network: what the device has, below.
    }
  }
  let got = cached ? await cached.blob() : null;
  if (!got && size === 'full' && o) {
    const thumbKey = photoKey(product.id, 'thumb');
    const thumb = await o.cache.match(thumbKey);
    if (thumb) {
      o.budget.touch(thumbKey);
      changed(o);
      got = await thumb.blob();
    }
  }
  return got;
}

/** The server's max-age is over: asked again with the ETag, a 304 only renews the date. */
async function revalidate(o: Opened, product: PhotoProduct, size: PhotoSize, cached: Response): Promise<void> {
  const key = photoKey(product.id, size);
  try {
    const fetched = await limited(() => fetchPhoto(product.id, size, undefined, cached.headers.get('etag')));
    const photo: Fetched =
      fetched.kind === 'same'
        ? { kind: 'photo', blob: await cached.blob(), etag: cached.headers.get('etag') }
        : fetched;
    if (photo.kind === 'photo' && product.image) await save(o, key, photo, product.image);
  } catch {
    // Offline again: the kept photo stays.
  }
}

// ---- "Baixar fotos para usar offline" --------------------------------------------------------

export type DownloadPhase =
  | 'idle'
  | 'preparing'
  | 'running'
  | 'done'
  | 'cancelled'
  | 'full'
  | 'offline'
  | 'cellular'
  | 'failed';

export interface DownloadState {
  phase: DownloadPhase;
  /** Photos on the device for this download (already there or fetched now), or the server has none. */
  done: number;
  total: number;
  /** Products whose image the server could not give (counted in done: nothing more to fetch). */
  missing: number;
  /** Photos the server failed to give this time (a 5xx): a new run asks again. */
  failed: number;
}

const IDLE: DownloadState = { phase: 'idle', done: 0, total: 0, missing: 0, failed: 0 };
const LAST_RUN = 'fotos-download';
const isState = (v: unknown): v is DownloadState =>
  typeof v === 'object' && v !== null && typeof (v as DownloadState).phase === 'string';

export const photoDownload = signal<DownloadState>(IDLE);
let running: AbortController | null = null;

/** How the last download ended, kept so a reopened app offers to continue it. */
export function loadLastDownload(): void {
  if (running) return;
  const last = readLocal(LAST_RUN, isState);
  photoDownload.value = last
    ? { ...last, phase: last.phase === 'running' || last.phase === 'preparing' ? 'cancelled' : last.phase }
    : IDLE;
  void open();
}

export function connectionNow(): ConnectionKind {
  return connectionKind((globalThis.navigator as { connection?: { type?: unknown } } | undefined)?.connection);
}

interface Job {
  id: string;
  image: string;
  size: PhotoSize;
  key: string;
}

/** Every active product with an image, thumbnails first (all the lists need), then the large ones. */
async function jobsOf(s: Store, full: boolean): Promise<Job[]> {
  const products = collectionOf(s.db, 'produtos');
  const found: PhotoProduct[] = [];
  // By pages of the primary key: tens of thousands of products never sit in memory as documents at once.
  for (let after = ''; ; ) {
    const docs = await products.find({ selector: { id: { $gt: after } }, sort: [{ id: 'asc' }], limit: 1000 }).exec();
    for (const d of docs) if (d.active && d.image) found.push({ id: d.id, image: d.image });
    const last = docs.at(-1);
    if (!last || docs.length < 1000) break;
    after = last.id;
  }
  const sizes: PhotoSize[] = full ? ['thumb', 'full'] : ['thumb'];
  return sizes.flatMap((size) =>
    found.map((p) => ({ id: p.id, image: p.image as string, size, key: photoKey(p.id, size) })),
  );
}

/**
 * Fetches the photos of every active product, a few at a time. What the device already has is
 * counted and skipped, so a new run resumes where the last stopped. Stops when the budget is
 * full of this download's photos (it never evicts its own), when the network goes, when the
 * connection turns to mobile data under "Só no Wi-Fi", or on cancelPhotoDownload().
 */
export async function downloadPhotos(s: Store): Promise<void> {
  if (running) return;
  const ctl = new AbortController();
  running = ctl;
  let state: DownloadState = { ...IDLE, phase: 'preparing' };
  let stop: DownloadPhase | null = null;
  const publish = (next: Partial<DownloadState>) => {
    state = { ...state, ...next };
    photoDownload.value = state;
  };
  const halt = (phase: DownloadPhase) => {
    stop ??= phase;
    ctl.abort();
  };
  publish({});
  try {
    const settings = loadPhotoSettings();
    const o = await open();
    if (!o) return halt('failed');
    const jobs = await jobsOf(s, settings.full);
    const wanted = new Set(jobs.map((j) => j.key));
    const keep = (k: string) => wanted.has(k);
    publish({ phase: 'running', total: jobs.length });
    let next = 0;
    const worker = async () => {
      for (let job = jobs[next++]; job && !ctl.signal.aborted; job = jobs[next++]) {
        if (settings.wifiOnly && connectionNow() === 'cellular') return halt('cellular');
        const cached = await o.cache.match(job.key);
        if (cached?.headers.get(REF) === encodeURIComponent(job.image)) {
          publish({ done: state.done + 1 });
          continue;
        }
        let fetched: Fetched;
        try {
          fetched = await limited(() => fetchPhoto(job.id, job.size, ctl.signal));
        } catch {
          return halt(ctl.signal.aborted ? 'cancelled' : 'offline');
        }
        if (fetched.kind === 'photo') {
          const saved = await save(o, job.key, fetched, job.image, keep);
          if (saved === 'full') return halt('full');
          if (saved === 'failed') publish({ failed: state.failed + 1 });
          else publish({ done: state.done + 1 });
        } else if (
          fetched.kind === 'none' &&
          (fetched.status >= 500 || fetched.status === 429 || fetched.status === 401)
        ) {
          publish({ failed: state.failed + 1 });
        } else {
          missing.add(`${job.key} ${job.image}`);
          publish({ done: state.done + 1, missing: state.missing + 1 });
        }
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
  } catch {
    halt('failed');
  } finally {
    publish({ phase: stop ?? (ctl.signal.aborted ? 'cancelled' : 'done') });
    writeLocal(LAST_RUN, state);
    if (running === ctl) running = null;
  }
}

export function cancelPhotoDownload(): void {
  running?.abort();
}

onWipe(async () => {
  running?.abort();
  running = null;
  if (saveTimer) clearTimeout(saveTimer);
  saveTimer = null;
  opening = null;
  missing.clear();
  photoStats.value = null;
  photoDownload.value = IDLE;
  if (typeof caches !== 'undefined') await caches.delete(CACHE_NAME);
});
