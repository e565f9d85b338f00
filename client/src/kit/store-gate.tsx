// The portfolio and the catalog read the device's store, which opens after login (and is
// downloaded on first use): until then the screen says what it is waiting for.
import type { SyncCollection } from '@campo/shared';
import { plural } from '@campo/shared/format';
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { useDownloadState } from '../data/download-state.ts';
import { ensureStore, type Store, store, storeError } from '../data/store.ts';

export function StoreGate(props: { children: (s: Store) => ComponentChildren }) {
  const s = store.value;
  useEffect(() => {
    if (!s) void ensureStore();
  }, [s]);
  if (storeError.value) {
    return (
      <p role="alert" class="error">
        {storeError.value}
      </p>
    );
  }
  if (!s) return <p aria-busy="true">Abrindo os dados deste aparelho…</p>;
  return <>{props.children(s)}</>;
}

/**
 * "Baixando…" while the first download of a collection is still on its way: never for one the
 * device holds complete, online or not (data/download-state.ts).
 */
export function InitialSyncNote(props: { collection: SyncCollection; what: string }) {
  const c = useDownloadState(props.collection);
  if (!c || c.done) return null;
  return (
    <p class="notice" aria-live="polite">
      Baixando {props.what} para usar sem internet…
      {c.received > 0 ? ` ${plural(c.received, 'recebido', 'recebidos')}.` : ''}
      {c.error ? ` ${c.error.message}` : ''}
    </p>
  );
}
