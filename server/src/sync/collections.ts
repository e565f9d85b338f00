// The registry of replicated collections (docs/sync.md; docs/ARCHITECTURE.md, "Layers of the
// server"): each owning domain defines its collections in its collection.ts, and this table
// lists them. The sync layer reads only the definitions, never a collection's name: a new
// collection is one definition file and one line here.
import type { SyncRefreshCounts, SyncServedCollection } from '@campo/shared';
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
import { visitsCollection } from '../visits/collection.ts';

export const COLLECTIONS: { readonly [C in SyncServedCollection]: CollectionDefinition<C> } = {
  produtos: productsCollection,
  clientes: clientsCollection,
  regras: rulesCollection,
  ajustes: settingsCollection,
  pedidos: ordersCollection,
  funil: opportunitiesCollection,
  chamados: ticketsCollection,
  cadastros: registrationsCollection,
  visitas: visitsCollection,
};

export const definitionOf = (colecao: SyncServedCollection): CollectionDefinition => COLLECTIONS[colecao];

/** Brings one collection's change log of the tenant up to date with its source. */
export const refreshChangeLog = (
  tx: Tx,
  idEmpresa: number,
  colecao: SyncServedCollection,
): Promise<SyncRefreshCounts> => refreshCollectionLog(tx, idEmpresa, definitionOf(colecao));
