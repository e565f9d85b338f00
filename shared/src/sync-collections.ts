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
] as const;
export type SyncCollection = (typeof SYNC_COLLECTIONS)[number];

/** Collections a device writes to (POST /sync/{collection}/push). */
export const SYNC_WRITABLE = ['pedidos', 'funil', 'chamados', 'cadastros'] as const satisfies readonly SyncCollection[];
export type SyncWritableCollection = (typeof SYNC_WRITABLE)[number];

/** A representative's own work: only representatives replicate these. */
export const SYNC_REPRESENTATIVE_ONLY = [
  'pedidos',
  'funil',
  'chamados',
  'cadastros',
] as const satisfies readonly SyncCollection[];
