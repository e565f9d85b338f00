// Full pull pages kept in memory for a short while (docs/sync.md, "Morning burst"). When a
// hundred phones of a few representatives start their initial sync at 8:00, they ask for the
// same pages: each representative's catalog from the same checkpoints. Served from here, the
// database builds each page once instead of once per phone.
//
// Only a FULL page is kept (as many documents as the limit asked): it can be answered again,
// later, to anyone asking for the same window. Its rows all have a transaction id below the
// horizon of the pull that built it, so every change written after that pull takes a later
// position in the log than the page's end, and a device that goes on from the page's
// checkpoint gets it: the page may be older than a fresh one, never wrong. A short page means
// "up to date" and depends on when it was read: it is never kept, nor shared between requests.
// Pages with a deletion or a legacy row are built per request (service.ts) and never kept.

export interface PageCacheOptions {
  /** Bytes kept at most; the least recently used pages go first (default 64 MiB). */
  maxBytes?: number;
  /** How long a page is answered again (default 30 s): the later, the more of it is stale. */
  ttlMs?: number;
}

/** A pull's window: what decides its answer. */
export interface PageKey {
  idEmpresa: number;
  colecao: string;
  codVendedor: number | null;
  tenantWideOnly: boolean;
  after: { xid: number; revisao: number };
  limit: number;
}

export interface PageCache {
  /** The page kept for this window, if any. */
  get(key: PageKey): Buffer<ArrayBuffer> | undefined;
  /**
   * The page for this window: the one kept, or the one another request is building right now,
   * or `build`'s, which is kept when `full` says it may be. A request that finds another
   * building the same window waits for it, and builds its own if that one was short.
   */
  through(
    key: PageKey,
    build: () => Promise<{ body: Buffer<ArrayBuffer>; full: boolean }>,
  ): Promise<Buffer<ArrayBuffer>>;
  stats(): { pages: number; bytes: number; hits: number; misses: number };
}

const text = (k: PageKey) =>
  `${k.idEmpresa}|${k.colecao}|${k.codVendedor ?? '*'}|${k.tenantWideOnly ? 't' : ''}|${k.after.xid}|${k.after.revisao}|${k.limit}`;

export function createPageCache(options: PageCacheOptions = {}): PageCache {
  const maxBytes = options.maxBytes ?? 64 * 2 ** 20;
  const ttlMs = options.ttlMs ?? 30_000;
  // A Map iterates in insertion order: re-inserting on use makes its first key the least recent.
  const pages = new Map<string, { body: Buffer<ArrayBuffer>; at: number }>();
  const building = new Map<string, Promise<{ body: Buffer<ArrayBuffer>; full: boolean }>>();
  let bytes = 0;
  let hits = 0;
  let misses = 0;

  const drop = (k: string) => {
    const page = pages.get(k);
    if (!page) return;
    pages.delete(k);
    bytes -= page.body.length;
  };
  const lookup = (k: string) => {
    const page = pages.get(k);
    if (!page) return undefined;
    if (Date.now() - page.at > ttlMs) {
      drop(k);
      return undefined;
    }
    pages.delete(k);
    pages.set(k, page);
    return page.body;
  };
  const keep = (k: string, body: Buffer<ArrayBuffer>) => {
    if (body.length > maxBytes) return;
    drop(k);
    pages.set(k, { body, at: Date.now() });
    bytes += body.length;
    for (const oldest of pages.keys()) {
      if (bytes <= maxBytes) break;
      drop(oldest);
    }
  };

  return {
    get(key) {
      const body = lookup(text(key));
      if (body) hits++;
      return body;
    },
    async through(key, build) {
      const k = text(key);
      const kept = lookup(k);
      if (kept) {
        hits++;
        return kept;
      }
      const other = building.get(k);
      if (other !== undefined) {
        const shared = await other.catch(() => null);
        if (shared?.full) {
          hits++;
          return shared.body;
        }
      }
      misses++;
      const mine = build();
      building.set(k, mine);
      try {
        const page = await mine;
        if (page.full) keep(k, page.body);
        return page.body;
      } finally {
        if (building.get(k) === mine) building.delete(k);
      }
    },
    stats: () => ({ pages: pages.size, bytes, hits, misses }),
  };
}
