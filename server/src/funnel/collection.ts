// The funnel's replicated collection (docs/sync.md): funil, a representative's opportunities,
// merged per field on push.
import { ZSyncOpportunity } from '@campo/shared';
import type { CollectionDefinition } from '../changelog/collection.ts';
import { loadOpportunityDocs } from './documents.ts';
import { pushOpportunities } from './sync.ts';

export const opportunitiesCollection: CollectionDefinition<'funil'> = {
  name: 'funil',
  representativeOnly: true,
  document: { name: 'SyncOpportunity', schema: ZSyncOpportunity },
  load: loadOpportunityDocs,
  push: pushOpportunities,
};
