// Whether a collection is on the device, for the screens that would otherwise say "empty" or
// "still downloading" (docs/pwa.md, "The first download"): the replication's own state in this
// session (the first download's progress, its error) together with what the device kept of the
// last pulls that reached the server's state (sync-health.ts, saved per user). A catalog
// downloaded once is complete when the app reopens offline, though nothing was pulled since.
import type { SyncCollection } from '@campo/shared';
import { combineLatest, distinctUntilChanged, map, type Observable } from 'rxjs';
import type { SyncError } from '../db/sync-state.ts';
import { useStoreObservable } from './hooks.ts';
import type { Store } from './store.ts';

export interface DownloadState {
  /** The collection reached the server's state once on this device (and was not given up since). */
  done: boolean;
  /** Documents received in this session (the first download's progress). */
  received: number;
  /** Why the last pull failed, while it is failing. */
  error: SyncError | null;
}

export function downloadState$(s: Store, collection: SyncCollection): Observable<DownloadState> {
  const pulled$ = s.replication.health.health$.pipe(
    map((h) => h.pulls[collection] !== undefined),
    distinctUntilChanged(),
  );
  return combineLatest([s.replication.syncState.collection$(collection), pulled$]).pipe(
    map(([c, pulled]) => ({
      done: pulled || (c?.initialDone ?? false),
      received: c?.received ?? 0,
      error: c?.error ?? null,
    })),
  );
}

/** The collection's download state; null while the store opens. */
export function useDownloadState(collection: SyncCollection): DownloadState | null {
  return useStoreObservable<DownloadState | null>((s) => downloadState$(s, collection), null, [collection]);
}
