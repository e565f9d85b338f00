// What the orders screens read from the device's store. Everything here works offline: the
// outbox, the local catalog and portfolio, the ceilings, the rules and the company document.
import { businessDate, flexPolicyOf, foldSearchText } from '@campo/shared';
import type { RxCollection } from 'rxdb';
import { map, type Observable, of } from 'rxjs';
import { useMoneyRules, useSettings } from '../../data/company.ts';
import { useStoreObservable } from '../../data/hooks.ts';
import { searchProducts } from '../../data/product-search.ts';
import { byIds, useProducts } from '../../data/products.ts';
import { collectionOf } from '../../db/database.ts';
import type { OutboxEntry } from '../../db/outbox.ts';
import type { ClientDoc, ProductDoc, RuleDoc } from '../../db/schemas.ts';
import { currentUser } from '../../session/session.ts';
import { type CartContext, ceilingsOf, NO_CEILINGS, ruleOf } from './cart-model.ts';

const SEARCH_LIMIT = 20;

/** Every order of the representative, newest first; null while the store opens. */
export function useOutbox(): OutboxEntry[] | null {
  return useStoreObservable<OutboxEntry[] | null>((s) => s.outbox?.outbox$ ?? null, null);
}

/** One order by its document id; undefined while loading, null when the device does not hold it. */
export function useOrderEntry(id: string): OutboxEntry | null | undefined {
  return useStoreObservable<OutboxEntry | null | undefined>(
    (s) => s.outbox?.outbox$.pipe(map((all) => all.find((e) => e.id === id) ?? null)) ?? null,
    undefined,
    [id],
  );
}

export function useRules(): RuleDoc[] {
  return useStoreObservable<RuleDoc[]>(
    (s) =>
      collectionOf(s.db, 'regras')
        .find()
        .$.pipe(map((docs) => docs.map((d) => d.toJSON() as RuleDoc))),
    [],
  );
}

export { useProducts };

export function useClients(ids: readonly string[]): Map<string, ClientDoc> {
  const key = [...ids].sort().join(',');
  return useStoreObservable<Map<string, ClientDoc>>(
    (s) =>
      ids.length === 0
        ? of(new Map())
        : collectionOf(s.db, 'clientes')
            .find({ selector: { id: { $in: [...ids] } } })
            .$.pipe(map((docs) => byIds<ClientDoc>(ids, docs))),
    new Map(),
    [key],
  );
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A regex that matches the folded search key when every word typed appears in it, in any order. */
function searchSelector(text: string) {
  const words = foldSearchText(text).split(/\s+/).filter(Boolean).slice(0, 8);
  return words.length === 0 ? null : { $and: words.map((w) => ({ busca: { $regex: escapeRegex(w) } })) };
}

/** Up to 20 local products or clients whose search key holds what was typed; [] for an empty search. */
export function useSearch<C extends 'produtos' | 'clientes'>(
  collection: C,
  text: string,
): (C extends 'produtos' ? ProductDoc : ClientDoc)[] {
  type Doc = C extends 'produtos' ? ProductDoc : ClientDoc;
  return useStoreObservable<Doc[]>(
    (s) => {
      const selector = searchSelector(text);
      if (!selector) return of([]);
      // Products from the in-memory index: a substring is in no IndexedDB index, and a query
      // would walk all of them on every keystroke. Inactive ones too, shown as such.
      if (collection === 'produtos') {
        return searchProducts(s.db, text, { limit: SEARCH_LIMIT, includeInactive: true }) as Observable<Doc[]>;
      }
      // Both collections index the same folded `busca` key; typed loosely to share the query.
      const searchable = collectionOf(s.db, collection) as unknown as RxCollection<{ id: string; busca: string }>;
      return searchable
        .find({ selector, sort: [{ busca: 'asc' }], limit: SEARCH_LIMIT })
        .$.pipe(map((docs) => docs.map((d) => d.toJSON() as unknown as Doc)));
    },
    [],
    [collection, text],
  );
}

/** What the discount engine needs for a client's pauta today; ceilingsKnown is false before the first sync. */
export function useCartContext(idPauta: number | null): { ctx: CartContext; ceilingsKnown: boolean } {
  const tetos = useSettings('tetos');
  const rules = useRules();
  const moneyRules = useMoneyRules();
  const ceilings = ceilingsOf(tetos);
  const codVendedor = tetos?.tetos?.codVendedor ?? currentUser.value?.codVendedor ?? 0;
  return {
    ctx: {
      codVendedor,
      idPauta,
      // São Paulo's calendar decides which rules are in force, as on the server.
      date: businessDate(),
      ceilings: ceilings ?? NO_CEILINGS,
      rules: rules.map(ruleOf),
      flex: flexPolicyOf(moneyRules),
    },
    ceilingsKnown: ceilings !== null,
  };
}
