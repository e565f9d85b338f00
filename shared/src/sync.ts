// Replication contracts (RxDB checkpoint iteration; docs/sync.md). A device pulls each
// collection from its last checkpoint; the server answers the documents changed after it, in
// revision order, and the checkpoint to send next time. Deletions arrive as tombstones.
import { z } from 'zod';
import { ZCatalogSync } from './catalog.ts';

export const SYNC_COLLECTIONS = ['produtos', 'clientes'] as const;
export const ZSyncCollection = z.enum(SYNC_COLLECTIONS).describe('Replicated collection');
export type SyncCollection = z.infer<typeof ZSyncCollection>;

export const SYNC_LIMIT_DEFAULT = 200;
export const SYNC_LIMIT_MAX = 1000;

/**
 * What a checkpoint holds: the last revision the device has, and the scope it was issued for
 * (tenant, collection, representative or `*`), so that a checkpoint of another user or
 * collection is refused rather than silently skipping documents.
 */
export interface SyncCheckpointData {
  revisao: number;
  scope: string;
}

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(value: string): string | null {
  if (!/^[A-Za-z0-9_-]+$/.test(value)) return null;
  try {
    const binary = atob(value.replace(/-/g, '+').replace(/_/g, '/'));
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}

/** The opaque checkpoint: base64url of the JSON `{"revisao":N,"scope":"..."}`. */
export function encodeCheckpoint(data: SyncCheckpointData): string {
  return toBase64Url(JSON.stringify({ revisao: data.revisao, scope: data.scope }));
}

/** The checkpoint's content, or null when it is not one this server issued (malformed). */
export function decodeCheckpoint(value: string): SyncCheckpointData | null {
  const text = fromBase64Url(value);
  if (text === null) return null;
  try {
    const data: unknown = JSON.parse(text);
    const parsed = z
      .object({ revisao: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), scope: z.string().max(100) })
      .strict()
      .safeParse(data);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const ZSyncPullParams = z.object({
  collection: z.string().max(40).describe('Collection to pull: produtos or clientes (another name answers 404)'),
});

export const ZSyncPullQuery = z.object({
  checkpoint: z
    .string()
    .max(500)
    .optional()
    .describe('The checkpoint of the previous answer, as it came; absent on the first pull (from the start)'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(SYNC_LIMIT_MAX)
    .default(SYNC_LIMIT_DEFAULT)
    .describe(`Most documents to answer, 1 to ${SYNC_LIMIT_MAX} (default ${SYNC_LIMIT_DEFAULT}); outside is a 400`),
});
export type SyncPullQuery = z.infer<typeof ZSyncPullQuery>;

export const ZSyncPrice = z
  .object({
    idPauta: z.number().int().describe('Price list (pauta) id'),
    price: z.number().describe('List price on that pauta'),
  })
  .describe('A price of the product');

export const ZSyncProduct = z
  .object({
    id: z.number().int().describe('Product id (ERP id_produto)'),
    code: z.string().nullable().describe('Product code'),
    description: z.string().nullable().describe('Description'),
    unit: z.string().nullable().describe('Sales unit'),
    category: z.string().nullable().describe('Product category (selects the representative’s discount ceiling)'),
    grupo: z.number().int().nullable().describe('Product group code'),
    grupoName: z.string().nullable().describe('Product group name'),
    subgrupo: z.number().int().nullable().describe('Product subgroup code'),
    subgrupoName: z.string().nullable().describe('Product subgroup name'),
    image: z.string().nullable().describe('Image reference from the ERP'),
    active: z.boolean().describe('Active in the ERP; inactive products stay so open orders can show them'),
    prices: z.array(ZSyncPrice).describe('Price on each pauta of the tenant, by pauta id'),
    _deleted: z.literal(false).describe('Always false for a live document'),
  })
  .describe('A product document (collection produtos)');
export type SyncProduct = z.infer<typeof ZSyncProduct>;

export const ZSyncClient = z
  .object({
    id: z.number().int().describe('Client id (ERP corrent.id_corrent)'),
    codVendedor: z.number().int().nullable().describe('Representative whose portfolio holds the client'),
    name: z.string().nullable().describe('Legal name (razão social)'),
    tradeName: z.string().nullable().describe('Trade name (nome fantasia)'),
    document: z.string().nullable().describe('CPF or CNPJ, without mask'),
    documentType: z.enum(['CPF', 'CNPJ']).describe('Which document it is'),
    street: z.string().nullable().describe('Street'),
    number: z.string().nullable().describe('Street number'),
    complement: z.string().nullable().describe('Address complement'),
    district: z.string().nullable().describe('District (bairro)'),
    zip: z.string().nullable().describe('Postal code (CEP)'),
    deliveryAddress: z.string().nullable().describe('The address as one line, the default of a new order'),
    city: z.string().nullable().describe('City'),
    uf: z.string().nullable().describe('State, two letters'),
    phone: z.string().nullable().describe('Phone'),
    email: z.string().nullable().describe('E-mail'),
    idPauta: z.number().int().nullable().describe('The client’s price list (pauta)'),
    financialStatus: z.enum(['ok', 'overdue', 'blocked']).describe('Financial status when the log was refreshed'),
    creditLimit: z.number().nullable().describe('Credit limit kept by Campo; null when none was set'),
    lastOrderAt: z.string().nullable().describe('Latest order (ISO 8601, UTC); activity is derived from it'),
    active: z.boolean().describe('The ERP registration flag'),
    _deleted: z.literal(false).describe('Always false for a live document'),
  })
  .describe('A client document (collection clientes)');
export type SyncClient = z.infer<typeof ZSyncClient>;

export const ZSyncTombstone = z
  .object({
    id: z.number().int().describe('Id of the document the device must delete'),
    _deleted: z.literal(true).describe('Always true: the document left the ERP or the caller’s scope'),
  })
  .describe('A deletion');
export type SyncTombstone = z.infer<typeof ZSyncTombstone>;

export const ZSyncPull = z
  .object({
    documents: z
      .array(z.union([ZSyncProduct, ZSyncClient, ZSyncTombstone]))
      .describe('Documents changed after the checkpoint, in revision order, at most `limit`'),
    checkpoint: z
      .string()
      .describe(
        'Opaque checkpoint to send next; the same as sent when nothing changed. Fewer documents than `limit`: the device is up to date',
      ),
  })
  .describe('A batch of the replication pull');
export type SyncPull = z.infer<typeof ZSyncPull>;

export const ZSyncRefreshCounts = z
  .object({
    inserted: z.number().int().describe('Keys new to the change log'),
    updated: z.number().int().describe('Keys whose document changed'),
    deleted: z.number().int().describe('Keys gone from the ERP (now tombstones)'),
  })
  .describe('What a refresh of one collection changed in the change log');
export type SyncRefreshCounts = z.infer<typeof ZSyncRefreshCounts>;

export const ZSyncRefresh = z
  .object({
    produtos: ZSyncRefreshCounts,
    clientes: ZSyncRefreshCounts,
  })
  .describe('What a refresh changed in the change log, per collection');
export type SyncRefresh = z.infer<typeof ZSyncRefresh>;

/** POST /catalog/sync: what the ERP catalog holds, and what the change log refresh changed. */
export const ZCatalogSyncResult = ZCatalogSync.extend({
  changeLog: ZSyncRefresh.describe("What the refresh of the tenant's replication change log changed"),
}).describe('What the ERP catalog of the tenant holds now, and what devices will pull');
export type CatalogSyncResult = z.infer<typeof ZCatalogSyncResult>;
