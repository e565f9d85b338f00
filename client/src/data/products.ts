// Products of the device's catalog by id, for the screens that name products they did not
// search for (the cart's lines, the client's mix). Works offline.
import { map, of } from 'rxjs';
import { collectionOf } from '../db/database.ts';
import type { ProductDoc } from '../db/schemas.ts';
import { useStoreObservable } from './hooks.ts';

/** The documents of `ids` among `docs`, by id. */
export function byIds<T>(ids: readonly string[], docs: { toJSON(): unknown }[]): Map<string, T> {
  const found = new Map<string, T>();
  for (const d of docs) {
    const json = d.toJSON() as T & { id: string };
    if (ids.includes(json.id)) found.set(json.id, json);
  }
  return found;
}

export function useProducts(ids: readonly string[]): Map<string, ProductDoc> {
  const key = [...ids].sort().join(',');
  return useStoreObservable<Map<string, ProductDoc>>(
    (s) =>
      ids.length === 0
        ? of(new Map())
        : collectionOf(s.db, 'produtos')
            .find({ selector: { id: { $in: [...ids] } } })
            .$.pipe(map((docs) => byIds<ProductDoc>(ids, docs))),
    new Map(),
    [key],
  );
}
