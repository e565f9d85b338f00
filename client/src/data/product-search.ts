// Product search by words, in memory (docs/pwa.md, "Catálogo"), for the catalog (its list with
// or without words, and its groups) and the cart's product picker. A word is a substring of
// the folded `busca` key, which no IndexedDB index answers: as an RxDB query on Dexie it walks
// every product with a cursor, one callback each (0.5 s and more at 20,000 products on a
// phone), and a live query does it again on every write, so during the first download the
// search re-ran on each page written and took most of the main thread (docs/benchmarks.md,
// browser-sync). Here each product is one small entry kept current from the collection's change
// events; a search filters 20,000 strings in a few milliseconds and reads only the page it shows.
// The products have no IndexedDB index on `busca` any more (store version 3, schemas.ts): each
// index entry cost the first download's writes time, and nothing queries them.
import { searchTerms } from '@campo/shared/search';
import type { RxCollection, RxStorageChangeEvent } from 'rxdb';
import { normalizeMangoQuery, prepareQuery } from 'rxdb';
import { asyncScheduler, BehaviorSubject, from, Observable, type Subscription, switchMap, throttleTime } from 'rxjs';
import { type CampoDatabase, collectionOf } from '../db/database.ts';
import type { ProductDoc } from '../db/schemas.ts';

interface Entry {
  id: string;
  busca: string;
  grupoCodigo: number;
  active: boolean;
}

/** Products read per query while the index loads what the store already holds. */
const LOAD_CHUNK = 1000;

/** A search re-runs at most this often while products are being written. */
const SEARCH_EVERY_MS = 200;

export interface SearchOptions {
  /** Only this group (`grupoCodigo`); all by default. */
  grupo?: number | null;
  limit: number;
  /** The cart lists inactive products too, to say why they cannot be added. */
  includeInactive?: boolean;
}

export interface ProductSearchIndex {
  /** Bumped whenever an entry changes; a search re-runs on it. */
  readonly version$: Observable<number>;
  /** Resolves once the products already in the store are indexed. */
  readonly ready: Promise<void>;
  /**
   * Ids of the products (active ones unless `includeInactive`) whose key holds every word of
   * `q`, in the order of the `busca` index (the key, then the id), optionally of one group; at
   * most `limit`.
   */
  search(q: string, options: SearchOptions): string[];
  /** Per group code (`grupoCodigo`, none for -1), the first of its products in the search order. */
  groups(): Map<number, string>;
  close(): void;
}

type Products = RxCollection<ProductDoc>;

function entryOf(doc: { id: string; busca: string; grupoCodigo: number; active?: boolean | null }): Entry {
  return { id: doc.id, busca: doc.busca, grupoCodigo: doc.grupoCodigo, active: doc.active === true };
}

/** The order of RxDB's query on the `busca` index: the key, then the primary key. */
function byBusca(a: Entry, b: Entry): number {
  if (a.busca !== b.busca) return a.busca < b.busca ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** How RxDB's Dexie storage writes `false` in an indexed boolean field (`_deleted`). */
const DEXIE_FALSE = '0';

interface DexieRange {
  limit(n: number): { toArray(): Promise<ProductDoc[]> };
}
interface DexieTable {
  where(index: string): {
    between(lower: unknown[], upper: unknown[], lowerOpen: boolean, upperOpen: boolean): DexieRange;
  };
}

interface Dexie {
  table: DexieTable;
  db: { transaction<T>(mode: 'r', table: DexieTable, scope: () => Promise<T>): Promise<T> };
}

/**
 * The Dexie table under the collection and its database (RxDB's Dexie storage keeps them in
 * `internals`), or null under another storage, which then gets the RxDB query.
 */
async function dexieOf(collection: Products): Promise<Dexie | null> {
  const wrapped = collection.storageInstance as unknown as {
    originalStorageInstance?: { internals?: Promise<{ dexieTable?: DexieTable; dexieDb?: Dexie['db'] }> };
  };
  const internals = await wrapped.originalStorageInstance?.internals;
  return internals?.dexieTable && internals.dexieDb ? { table: internals.dexieTable, db: internals.dexieDb } : null;
}

/**
 * The chunk of stored products after `last`, by id. The index is named: left to itself, RxDB's
 * planner picked (_deleted, grupoCodigo, busca, id) while the store had it (up to version 2),
 * which does not give the id order, so every
 * chunk read all the products after `last` and sorted them (28 s for 20,000 on a reload).
 */
export function loadQuery(collection: Products, last: string, chunk: number) {
  const schema = collection.schema.jsonSchema;
  const query = normalizeMangoQuery<ProductDoc>(schema, {
    selector: { _deleted: { $eq: false }, id: { $gt: last } } as never,
    sort: [{ id: 'asc' }],
    index: ['_deleted', 'id'],
    limit: chunk,
  });
  return prepareQuery(schema, query);
}

/**
 * Indexes a products collection: subscribes to its changes first, then reads what it already
 * holds in chunks (an entry a change event set meanwhile is newer and is kept).
 */
export function createProductSearchIndex(collection: Products, chunk = LOAD_CHUNK): ProductSearchIndex {
  const entries = new Map<string, Entry>();
  const touched = new Set<string>();
  let loading = true;
  let sorted: Entry[] | null = null;
  let version = 0;
  const version$ = new BehaviorSubject(0);
  const bump = () => {
    sorted = null;
    version$.next(++version);
  };

  const apply = (events: readonly RxStorageChangeEvent<ProductDoc>[]) => {
    for (const e of events) {
      const doc = e.documentData;
      if (loading) touched.add(e.documentId);
      if (e.operation === 'DELETE' || doc._deleted) entries.delete(e.documentId);
      else entries.set(e.documentId, entryOf(doc));
    }
    bump();
  };
  const sub: Subscription = collection.eventBulks$.subscribe((bulk) => {
    if (!bulk.isLocal) apply(bulk.events as RxStorageChangeEvent<ProductDoc>[]);
  });

  const load = async () => {
    const dexie = await dexieOf(collection);
    const readAll = async () => {
      let last = '';
      for (;;) {
        // Straight from the storage: raw documents, without the RxDocuments a find would build.
        // Dexie's table, when there, reads a chunk in one getAll; RxDB's query walks a cursor,
        // one round trip to IndexedDB per product (2.7-5.2 s to the first search after a reload
        // against 1 s).
        const documents = dexie
          ? await dexie.table
              .where('[_deleted+id]')
              .between([DEXIE_FALSE, last], [DEXIE_FALSE, '\uffff'], false, true)
              .limit(chunk)
              .toArray()
          : (await collection.storageInstance.query(loadQuery(collection, last, chunk))).documents;
        for (const doc of documents) if (!touched.has(doc.id)) entries.set(doc.id, entryOf(doc));
        if (documents.length < chunk) break;
        last = (documents[documents.length - 1] as ProductDoc).id;
      }
    };
    // One read transaction: what the store held when it began, while the writes after it wait
    // and arrive as change events. A transaction per chunk queued behind a write of the first
    // download each, and read the products written meanwhile too, chasing the download (the
    // catalog listed its first products after 5.9 s in one run, against 2.0 s).
    if (dexie) await dexie.db.transaction('r', dexie.table, readAll);
    else await readAll();
    loading = false;
    touched.clear();
    bump();
  };
  const ready = load();

  return {
    version$: version$.asObservable(),
    ready,
    search(q, { grupo = null, limit, includeInactive = false }) {
      if (!sorted) sorted = [...entries.values()].sort(byBusca);
      // The words as the server and the other searches read them (shared/src/search.ts): each must
      // be in the key, a word with digits also without its mask.
      const words = searchTerms(q).map((t) => [t.text, ...(t.compact ? [t.compact.toLowerCase()] : [])]);
      const ids: string[] = [];
      for (const e of sorted) {
        if ((!e.active && !includeInactive) || (grupo !== null && e.grupoCodigo !== grupo)) continue;
        if (!words.every((alternatives) => alternatives.some((w) => e.busca.includes(w)))) continue;
        ids.push(e.id);
        if (ids.length >= limit) break;
      }
      return ids;
    },
    groups() {
      if (!sorted) sorted = [...entries.values()].sort(byBusca);
      const first = new Map<number, string>();
      for (const e of sorted) if (e.grupoCodigo >= 0 && !first.has(e.grupoCodigo)) first.set(e.grupoCodigo, e.id);
      return first;
    },
    close() {
      sub.unsubscribe();
      version$.complete();
    },
  };
}

// Per store (productIndexOf).
const indexes = new WeakMap<CampoDatabase, ProductSearchIndex>();

/** The store's product index, built at its first use and kept current by the collection's changes. */
export function productIndexOf(db: CampoDatabase): ProductSearchIndex {
  let index = indexes.get(db);
  if (!index) {
    index = createProductSearchIndex(collectionOf(db, 'produtos'));
    indexes.set(db, index);
  }
  return index;
}

/**
 * The products whose key holds the words (all of them for none, in the key's order), from the
 * store's in-memory index: re-run as the index
 * changes, at most every SEARCH_EVERY_MS while the first download writes page after page, and
 * only the page shown is read from the store. A run is never cut short by the next change (its
 * read waits behind the download's writes, which would starve the list): changes that come
 * meanwhile make one more run after it.
 */
export function searchProducts(db: CampoDatabase, q: string, options: SearchOptions): Observable<ProductDoc[]> {
  const produtos = collectionOf(db, 'produtos');
  const idx = productIndexOf(db);
  return new Observable<ProductDoc[]>((subscriber) => {
    let running = false;
    let again = false;
    const run = async () => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        do {
          again = false;
          const ids = idx.search(q, options);
          // From the storage, not an RxDB query: RxDB runs a query again whenever a write
          // commits while it reads, which during the first download (a write every 100 ms,
          // each read waiting behind one) kept the list empty until the download was over.
          const docs = new Map((await produtos.storageInstance.findDocumentsById(ids, false)).map((d) => [d.id, d]));
          if (subscriber.closed) return;
          subscriber.next(
            ids.flatMap((id) => {
              const d = docs.get(id);
              if (!d) return [];
              const { _meta, _rev, _attachments, _deleted, ...doc } = d;
              return [doc as ProductDoc];
            }),
          );
        } while (again);
      } catch (err) {
        subscriber.error(err);
      } finally {
        running = false;
      }
    };
    const sub = from(idx.ready)
      .pipe(
        switchMap(() => idx.version$),
        throttleTime(SEARCH_EVERY_MS, asyncScheduler, { leading: true, trailing: true }),
      )
      .subscribe({ next: () => void run(), error: (err) => subscriber.error(err) });
    return () => sub.unsubscribe();
  });
}
