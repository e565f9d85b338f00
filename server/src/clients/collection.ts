// The clients' replicated collections (docs/sync.md): clientes, the portfolios built in SQL
// from the ERP, and cadastros, the clients a representative registered in the field (written
// by push).
import { ZSyncClient, ZSyncRegistration } from '@campo/shared';
import type { CollectionDefinition } from '../changelog/collection.ts';
import { loadRegistrationDocs } from './documents.ts';
import { portfolioDocuments } from './portfolio-documents.ts';
import { pushRegistrations } from './sync.ts';

export const clientsCollection: CollectionDefinition<'clientes'> = {
  name: 'clientes',
  representativeOnly: false,
  document: { name: 'SyncClient', schema: ZSyncClient },
  sql: portfolioDocuments,
};

export const registrationsCollection: CollectionDefinition<'cadastros'> = {
  name: 'cadastros',
  representativeOnly: true,
  document: { name: 'SyncRegistration', schema: ZSyncRegistration },
  load: loadRegistrationDocs,
  push: pushRegistrations,
};
