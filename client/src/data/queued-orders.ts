// The outbox's orders the server has not answered, with the products and clients they name,
// read from the store for the figures of queued-figures.ts.
import { combineLatest, map, of, switchMap } from 'rxjs';
import { collectionOf } from '../db/database.ts';
import type { ClientDoc, ProductDoc } from '../db/schemas.ts';
import { useStoreObservable } from './hooks.ts';
import { NO_QUEUED, type QueuedOrders } from './queued-figures.ts';

const byId = <T extends { id: string }>(docs: { toJSON(): unknown }[]) =>
  new Map(docs.map((d) => d.toJSON() as T).map((t) => [t.id, t]));

/** The outbox's orders the server has not answered, but `exceptId` (the refused order being fixed). */
export function useQueuedOrders(exceptId?: string): QueuedOrders {
  return useStoreObservable<QueuedOrders>(
    (s) =>
      s.outbox?.outbox$.pipe(
        map((all) =>
          all.flatMap((e) =>
            (e.state === 'queued' || e.state === 'sent') && e.draft && e.id !== exceptId
              ? [{ id: e.id, draft: e.draft }]
              : [],
          ),
        ),
        switchMap((drafts) => {
          if (drafts.length === 0) return of(NO_QUEUED);
          const productIds = [...new Set(drafts.flatMap((d) => d.draft.itens.map((i) => String(i.idProduto))))];
          const clientIds = [...new Set(drafts.map((d) => String(d.draft.idCliente)))];
          return combineLatest([
            collectionOf(s.db, 'produtos').find({ selector: { id: { $in: productIds } } }).$,
            collectionOf(s.db, 'clientes').find({ selector: { id: { $in: clientIds } } }).$,
          ]).pipe(
            map(([products, clients]) => ({
              drafts,
              products: byId<ProductDoc>(products),
              clients: byId<ClientDoc>(clients),
            })),
          );
        }),
      ) ?? null,
    NO_QUEUED,
    [exceptId],
  );
}
