// What each replicated collection is made of (docs/sync.md): who may pull it, how its
// documents are built, and how a push is applied. Built by the owning domain, listed here.
import {
  SYNC_REPRESENTATIVE_ONLY,
  SYNC_WRITABLE,
  type SyncCollection,
  type SyncPushRow,
  type SyncRefreshCounts,
} from '@campo/shared';
import { loadRegistrationDocs } from '../clients/documents.ts';
import { pushRegistrations } from '../clients/sync.ts';
import { loadSettingsDocs } from '../company/documents.ts';
import type { Db } from '../db/kysely.ts';
import type { Tx } from '../db/scope.ts';
import { loadOpportunityDocs } from '../funnel/documents.ts';
import { pushOpportunities } from '../funnel/sync.ts';
import type { AuthContext } from '../http/env.ts';
import { loadOrderDocs, reconcileBeforeRefresh } from '../orders/documents.ts';
import { pushOrders } from '../orders/sync.ts';
import { loadRuleDocs } from '../policies/documents.ts';
import { loadTicketDocs } from '../tickets/documents.ts';
import { pushTickets } from '../tickets/sync.ts';
import { isSqlCollection, refreshLoadedCollection, refreshSqlCollection, type SyncDoc } from './changelog.ts';

type Loader = (tx: Tx, idEmpresa: number, chaves: string[] | null) => Promise<SyncDoc[]>;

export function loaderOf(colecao: Exclude<SyncCollection, 'produtos' | 'clientes'>): Loader {
  switch (colecao) {
    case 'regras':
      return loadRuleDocs;
    case 'ajustes':
      return loadSettingsDocs;
    case 'pedidos':
      return loadOrderDocs;
    case 'funil':
      return loadOpportunityDocs;
    case 'chamados':
      return loadTicketDocs;
    case 'cadastros':
      return loadRegistrationDocs;
  }
}

export const isWritable = (c: SyncCollection) => (SYNC_WRITABLE as readonly string[]).includes(c);
export const isRepresentativeOnly = (c: SyncCollection) => (SYNC_REPRESENTATIVE_ONLY as readonly string[]).includes(c);

/** Brings one collection's change log of the tenant up to date with its source. */
export async function refreshChangeLog(tx: Tx, idEmpresa: number, colecao: SyncCollection): Promise<SyncRefreshCounts> {
  if (colecao === 'pedidos') await reconcileBeforeRefresh(tx, idEmpresa);
  return isSqlCollection(colecao)
    ? refreshSqlCollection(tx, idEmpresa, colecao)
    : refreshLoadedCollection(tx, idEmpresa, colecao, loaderOf(colecao));
}

/**
 * After a manager changes rules or settings: those collections are small, so the whole of
 * it is rebuilt (a rule moved to another representative becomes a tombstone for the first
 * one and a document for the second, as a full refresh does), in the writing transaction.
 */
export async function refreshReference(tx: Tx, idEmpresa: number, colecao: 'regras' | 'ajustes'): Promise<void> {
  await refreshChangeLog(tx, idEmpresa, colecao);
}

export function pushTo(colecao: SyncCollection, db: Db, auth: AuthContext, rows: SyncPushRow[]) {
  switch (colecao) {
    case 'pedidos':
      return pushOrders(db, auth, rows);
    case 'funil':
      return pushOpportunities(db, auth, rows);
    case 'chamados':
      return pushTickets(db, auth, rows);
    case 'cadastros':
      return pushRegistrations(db, auth, rows);
    default:
      throw new Error(`not writable: ${colecao}`);
  }
}
