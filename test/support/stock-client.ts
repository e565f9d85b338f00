// A device written only from the served OpenAPI document and docs/sync.md, with none of
// client/src/db: stock RxDB 17 (memory storage, every write validated by ajv against the
// collection's schema as the server publishes it in components/schemas) and
// replicateRxCollection, over real HTTP.
import { randomBytes } from 'node:crypto';
import { SYNC_PROTOCOL_VERSION, SYNC_VERSION_HEADER, type SyncServedCollection } from '@campo/shared';
import { createRxDatabase, type RxCollection, type RxDatabase, type RxJsonSchema } from 'rxdb';
import { replicateRxCollection } from 'rxdb/plugins/replication';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { wrappedValidateAjvStorage } from 'rxdb/plugins/validate-ajv';

/**
 * docs/sync.md: the component that describes each collection's documents (those served ahead
 * of the app included).
 */
export const COMPONENT: Record<SyncServedCollection, string> = {
  produtos: 'SyncProduct',
  clientes: 'SyncClient',
  regras: 'SyncRule',
  ajustes: 'SyncSettings',
  pedidos: 'SyncOrder',
  funil: 'SyncOpportunity',
  chamados: 'SyncTicket',
  cadastros: 'SyncRegistration',
  visitas: 'SyncVisit',
};

export type StockDoc = Record<string, unknown> & { id: string };
type JsonSchema = { properties: Record<string, Record<string, unknown>>; required?: string[] };
export type StockCheckpoint = { checkpoint: string };

/** The served component as an RxDB schema: RxDB keeps `_deleted` itself, and wants a bounded key. */
function rxSchemaOf(component: JsonSchema): RxJsonSchema<StockDoc> {
  const { _deleted, ...properties } = component.properties;
  return {
    version: 0,
    primaryKey: 'id',
    type: 'object',
    properties: { ...properties, id: { ...properties.id, maxLength: 200 } },
    required: (component.required ?? []).filter((r) => r !== '_deleted'),
  } as RxJsonSchema<StockDoc>;
}

/** What every replication request of the stock client sends. */
export const stockHeaders = (token: string) => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
  [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION),
});

/** A fresh store with the collections, each with the schema the server serves for it. */
export async function stockDatabase(
  baseUrl: string,
  collections: readonly SyncServedCollection[],
): Promise<RxDatabase> {
  const openapi = (await (await fetch(`${baseUrl}/api/v1/openapi.json`)).json()) as {
    components: { schemas: Record<string, JsonSchema> };
  };
  const rxdb = await createRxDatabase({
    name: `stock${randomBytes(6).toString('hex')}`,
    storage: wrappedValidateAjvStorage({ storage: getRxStorageMemory() }),
    multiInstance: false,
  });
  await rxdb.addCollections(
    Object.fromEntries(
      collections.map((c) => [c, { schema: rxSchemaOf(openapi.components.schemas[COMPONENT[c]] as JsonSchema) }]),
    ),
  );
  return rxdb;
}

/** RxDB's pull handler as docs/sync.md describes the pull; `pages` hears each answer's size. */
export function stockPullHandler(
  baseUrl: string,
  c: SyncServedCollection,
  token: string,
  pages?: (documents: number) => void,
) {
  return async (checkpoint: StockCheckpoint | undefined, batchSize: number) => {
    const query = new URLSearchParams({ limit: String(batchSize) });
    if (checkpoint) query.set('checkpoint', checkpoint.checkpoint);
    const res = await fetch(`${baseUrl}/api/v1/sync/${c}/pull?${query}`, { headers: stockHeaders(token) });
    if (!res.ok) throw new Error(`pull ${c}: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { documents: StockDoc[]; checkpoint: string };
    pages?.(body.documents.length);
    return { documents: body.documents as never, checkpoint: { checkpoint: body.checkpoint } };
  };
}

/**
 * A fresh install's initial sync of one collection: a new store pulls it from the start, in
 * pages of `batchSize`, until RxDB takes it as in sync (a short page), and closes. Answers the
 * ids the store then holds and the size of every page.
 */
export async function stockInitialSync(options: {
  baseUrl: string;
  token: string;
  collection: SyncServedCollection;
  batchSize: number;
}): Promise<{ ids: string[]; pages: number[] }> {
  const { baseUrl, token, collection: c, batchSize } = options;
  const rxdb = await stockDatabase(baseUrl, [c]);
  const pages: number[] = [];
  try {
    const state = replicateRxCollection<StockDoc, StockCheckpoint>({
      collection: rxdb.collections[c] as RxCollection<StockDoc>,
      replicationIdentifier: `stock-${c}`,
      live: false,
      pull: { batchSize, handler: stockPullHandler(baseUrl, c, token, (n) => pages.push(n)) },
    });
    // RxDB retries a failed pull for ever: the first failure fails the sync instead.
    const failed = new Promise<never>((_, reject) => state.error$.subscribe(reject));
    try {
      await Promise.race([state.awaitInitialReplication(), failed]);
    } finally {
      await state.cancel();
    }
    const docs = await (rxdb.collections[c] as RxCollection<StockDoc>).find().exec();
    return { ids: docs.map((d) => d.primary).sort(), pages };
  } finally {
    await rxdb.close();
  }
}
