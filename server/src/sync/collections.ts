// The registry of replicated collections (docs/sync.md; docs/ARCHITECTURE.md, "Layers of the
// server"): each owning domain defines its collections in its collection.ts, and this table
// lists them. The sync layer reads only the definitions, never a collection's name: a new
// collection is one definition file and one line here.
import type { SyncCollection, SyncRefreshCounts } from '@campo/shared';
import { productsCollection } from '../catalog/collection.ts';
import { refreshCollectionLog } from '../changelog/changelog.ts';
import type { CollectionDefinition } from '../changelog/collection.ts';
import { clientsCollection, registrationsCollection } from '../clients/collection.ts';
import { settingsCollection } from '../company/collection.ts';
import type { Tx } from '../db/scope.ts';
import { opportunitiesCollection } from '../funnel/collection.ts';
import { ordersCollection } from '../orders/collection.ts';
import { rulesCollection } from '../policies/collection.ts';
import { ticketsCollection } from '../tickets/collection.ts';

export const COLLECTIONS: { readonly [C in SyncCollection]: CollectionDefinition<C> } = {
  produtos: productsCollection,
  clientes: clientsCollection,
  regras: rulesCollection,
  ajustes: settingsCollection,
  pedidos: ordersCollection,
  funil: opportunitiesCollection,
  chamados: ticketsCollection,
  cadastros: registrationsCollection,
};

export const definitionOf = (colecao: SyncCollection): CollectionDefinition => COLLECTIONS[colecao];

/** Brings one collection's change log of the tenant up to date with its source. */
export const refreshChangeLog = (tx: Tx, idEmpresa: number, colecao: SyncCollection): Promise<SyncRefreshCounts> =>
  refreshCollectionLog(tx, idEmpresa, definitionOf(colecao));
