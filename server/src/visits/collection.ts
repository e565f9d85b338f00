// The visits' replicated collection (docs/sync.md): visitas, a representative's visits of the
// last 30 days, written offline and pushed (check-in, check-out), the ninth collection of a
// representative's store since its version 7.
import { ZSyncVisit } from '@campo/shared';
import type { CollectionDefinition } from '../changelog/collection.ts';
import { loadVisitDocs } from './documents.ts';
import { pushVisits } from './sync.ts';

export const visitsCollection: CollectionDefinition<'visitas'> = {
  name: 'visitas',
  representativeOnly: true,
  document: { name: 'SyncVisit', schema: ZSyncVisit },
  load: loadVisitDocs,
  push: pushVisits,
};
