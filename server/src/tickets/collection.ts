// The tickets' replicated collection (docs/sync.md): chamados, a representative's tickets with
// their threads, opened, answered and cancelled on push.
import { ZSyncTicket } from '@campo/shared';
import type { CollectionDefinition } from '../changelog/collection.ts';
import { loadTicketDocs } from './documents.ts';
import { pushTickets } from './sync.ts';

export const ticketsCollection: CollectionDefinition<'chamados'> = {
  name: 'chamados',
  representativeOnly: true,
  document: { name: 'SyncTicket', schema: ZSyncTicket },
  load: loadTicketDocs,
  push: pushTickets,
};
