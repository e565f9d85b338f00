// The orders' replicated collection (docs/sync.md): pedidos, a representative's orders, a
// queued one pushed as a command the order service runs.
import { ZSyncOrder } from '@campo/shared';
import type { CollectionDefinition } from '../changelog/collection.ts';
import { loadOrderDocs, reconcileBeforeRefresh } from './documents.ts';
import { pushOrders } from './sync.ts';

export const ordersCollection: CollectionDefinition<'pedidos'> = {
  name: 'pedidos',
  representativeOnly: true,
  document: { name: 'SyncOrder', schema: ZSyncOrder },
  load: loadOrderDocs,
  push: pushOrders,
  beforeRefresh: reconcileBeforeRefresh,
};
