// The catalog's replicated collection (docs/sync.md): produtos, every device's, built in SQL.
import { ZSyncProduct } from '@campo/shared';
import type { CollectionDefinition } from '../changelog/collection.ts';
import { catalogDocuments } from './documents.ts';

export const productsCollection: CollectionDefinition<'produtos'> = {
  name: 'produtos',
  representativeOnly: false,
  document: { name: 'SyncProduct', schema: ZSyncProduct },
  sql: catalogDocuments,
};
