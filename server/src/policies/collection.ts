// The commercial policy's replicated collection (docs/sync.md): regras, the discount rules in
// force today or later that reach the reader.
import { ZSyncRule } from '@campo/shared';
import type { CollectionDefinition } from '../changelog/collection.ts';
import { loadRuleDocs } from './documents.ts';

export const rulesCollection: CollectionDefinition<'regras'> = {
  name: 'regras',
  representativeOnly: false,
  document: { name: 'SyncRule', schema: ZSyncRule },
  load: loadRuleDocs,
};
