// The replicated collections' names, apart from their contracts: the app's start reads them
// (which collections a device writes) without evaluating zod and every document schema.
/**
 * The replicated collections. Few on purpose: RxDB's open-source core opens at most 13
 * collections per JavaScript realm, so small reference data (company settings and the
 * representative's ceilings) shares one collection, `ajustes`.
 */
export const SYNC_COLLECTIONS = [
  'produtos',
  'clientes',
  'regras',
  'ajustes',
  'pedidos',
  'funil',
  'chamados',
  'cadastros',
  'visitas',
] as const;
export type SyncCollection = (typeof SYNC_COLLECTIONS)[number];

/** Collections a device writes to (POST /sync/{collection}/push). */
export const SYNC_WRITABLE = [
  'pedidos',
  'funil',
  'chamados',
  'cadastros',
  'visitas',
] as const satisfies readonly SyncCollection[];
export type SyncWritableCollection = (typeof SYNC_WRITABLE)[number];

/** A representative's own work: only representatives replicate these. */
export const SYNC_REPRESENTATIVE_ONLY = [
  'pedidos',
  'funil',
  'chamados',
  'cadastros',
  'visitas',
] as const satisfies readonly SyncCollection[];

/**
 * Collections the server serves ahead of the app (docs/sync.md, "Collections served ahead"): their
 * pull and push work and are tested with a stock RxDB client, but the app's store does not open
 * them yet, so they stay out of SYNC_COLLECTIONS (what the app opens, declares a schema for and
 * counts against RxDB's 13 collections). When the app opens one, it moves into SYNC_COLLECTIONS
 * (and SYNC_WRITABLE, SYNC_REPRESENTATIVE_ONLY as it is) and leaves this list.
 */
export const SYNC_SERVED_AHEAD = [] as const satisfies readonly string[];

/** Every collection the server serves: what the app opens and what it serves ahead. */
export const SYNC_SERVED = [...SYNC_COLLECTIONS, ...SYNC_SERVED_AHEAD] as const;
export type SyncServedCollection = (typeof SYNC_SERVED)[number];

/** The served collections a device writes to. */
export const SYNC_SERVED_WRITABLE = [...SYNC_WRITABLE] as const satisfies readonly SyncServedCollection[];

/** The served collections only representatives replicate. */
export const SYNC_SERVED_REPRESENTATIVE_ONLY = [
  ...SYNC_REPRESENTATIVE_ONLY,
] as const satisfies readonly SyncServedCollection[];
