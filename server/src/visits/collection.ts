// The visits' replicated collection (docs/sync.md): visitas, a representative's visits of the
// last 30 days, written offline and pushed (check-in, check-out). Served ahead of the app: the
// app's store does not open it yet (SYNC_SERVED_AHEAD in shared/src/sync-collections.ts).
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
