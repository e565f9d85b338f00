// Screens read the store through observables (RxDB queries, the outbox, the sync state);
// these hooks turn one into component state and unsubscribe when the screen goes.
import { useEffect, useState } from 'preact/hooks';
import type { Observable } from 'rxjs';
import { ensureStore, type Store, store } from './store.ts';

/** The latest value of an observable made from the store; `initial` until the first one. */
export function useStoreObservable<T>(make: (s: Store) => Observable<T> | null, initial: T, deps: unknown[] = []): T {
  const s = store.value;
  const [value, setValue] = useState<T>(initial);
  useEffect(() => {
    if (!s) {
      void ensureStore();
      return;
    }
    const source = make(s);
    if (!source) return;
    const sub = source.subscribe(setValue);
    return () => sub.unsubscribe();
    // make is rebuilt on each render; deps say when what it builds changes.
  }, [s, ...deps]);
  return value;
}
