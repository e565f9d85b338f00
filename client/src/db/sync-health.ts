// The sync's health as the sync screen shows it, kept outside the replicated documents (their
// schemas belong to the server's contract and to the store's versions): per item still
// waiting to leave, when its first push was tried, how many tries and the last error; per
// collection, when a pull last reached the server's state; per writable collection, when the
// push last did anything, which the watchdog reads. The replication reports into it; it holds
// no RxDB object, so it can be tested alone, and it is saved through `persist` (the app keeps it
// in localStorage per user) so a reload offline still says since when and how often.
import type { SyncCollection, SyncWritableCollection } from '@campo/shared';
import { BehaviorSubject, type Observable } from 'rxjs';
import { describeSyncError, type SyncError } from './sync-state.ts';

export interface ItemHealth {
  /** First push that carried it (ISO 8601, device clock). */
  firstAttemptAt: string;
  lastAttemptAt: string;
  /** Pushes that carried it and were not answered: failed, or still under way. */
  tries: number;
  /** Why the last one failed; null while the first one is under way. */
  lastError: SyncError | null;
}

export interface PushActivity {
  /** The last time a push of the collection started, ended or was restarted. */
  lastActivityAt: string;
  /** A push is waiting for the server's answer. */
  inProgress: boolean;
  /** Times the watchdog restarted this collection's replication (this session). */
  restarts: number;
}

export interface SyncHealth {
  /** By `<collection>:<id>`. */
  items: Readonly<Record<string, ItemHealth>>;
  /** Last pull that reached the server's state, per collection (ISO 8601). */
  pulls: Readonly<Partial<Record<SyncCollection, string>>>;
  push: Readonly<Partial<Record<SyncWritableCollection, PushActivity>>>;
}

/** What is kept across reloads: items and pulls (push activity belongs to one run). */
export interface SavedHealth {
  items: Record<string, ItemHealth>;
  pulls: Partial<Record<SyncCollection, string>>;
}

export interface HealthPersistence {
  load(): unknown;
  save(saved: SavedHealth): void;
}

export interface SyncHealthStore {
  readonly health$: Observable<SyncHealth>;
  get(): SyncHealth;
  pushStarted(collection: SyncWritableCollection, ids: readonly string[]): void;
  pushFailed(collection: SyncWritableCollection, ids: readonly string[], err: unknown): void;
  /** The server answered (taken or refused): the items are no longer waiting. */
  pushAnswered(collection: SyncWritableCollection, ids: readonly string[]): void;
  pullComplete(collection: SyncCollection): void;
  /** The collection's data was given up (a full disk): it is no longer complete on the device. */
  pullForgotten(collection: SyncCollection): void;
  restarted(collection: SyncWritableCollection): void;
  /** Drops what is known of items no longer on the device (discarded, or pushed by another tab). */
  forget(keys: readonly string[]): void;
}

export const itemKey = (collection: SyncCollection, id: string) => `${collection}:${id}`;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What was saved, if it has the expected shape; an empty health otherwise. */
export function parseSavedHealth(raw: unknown): SavedHealth {
  const saved: SavedHealth = { items: {}, pulls: {} };
  if (!isRecord(raw)) return saved;
  if (isRecord(raw.items)) {
    for (const [key, v] of Object.entries(raw.items)) {
      if (
        isRecord(v) &&
        typeof v.firstAttemptAt === 'string' &&
        typeof v.lastAttemptAt === 'string' &&
        typeof v.tries === 'number'
      ) {
        const lastError = isRecord(v.lastError) && typeof v.lastError.message === 'string' ? v.lastError : null;
        saved.items[key] = {
          firstAttemptAt: v.firstAttemptAt,
          lastAttemptAt: v.lastAttemptAt,
          tries: v.tries,
          lastError: lastError as SyncError | null,
        };
      }
    }
  }
  if (isRecord(raw.pulls)) {
    for (const [c, at] of Object.entries(raw.pulls)) if (typeof at === 'string') saved.pulls[c as SyncCollection] = at;
  }
  return saved;
}

export function createSyncHealth(options: { persist?: HealthPersistence; now?: () => Date } = {}): SyncHealthStore {
  const now = () => (options.now ?? (() => new Date()))().toISOString();
  const saved = parseSavedHealth(options.persist?.load());
  const subject = new BehaviorSubject<SyncHealth>({ items: saved.items, pulls: saved.pulls, push: {} });
  const update = (change: (h: SyncHealth) => SyncHealth, keep: boolean) => {
    const next = change(subject.getValue());
    subject.next(next);
    if (keep) options.persist?.save({ items: { ...next.items }, pulls: { ...next.pulls } });
  };
  const activity = (h: SyncHealth, collection: SyncWritableCollection, inProgress: boolean, restart = false) => ({
    ...h.push,
    [collection]: {
      lastActivityAt: now(),
      inProgress,
      restarts: (h.push[collection]?.restarts ?? 0) + (restart ? 1 : 0),
    },
  });
  return {
    health$: subject.asObservable(),
    get: () => subject.getValue(),
    pushStarted(collection, ids) {
      const at = now();
      update((h) => {
        const items = { ...h.items };
        for (const id of ids) {
          const key = itemKey(collection, id);
          const old = items[key];
          items[key] = {
            firstAttemptAt: old?.firstAttemptAt ?? at,
            lastAttemptAt: at,
            tries: (old?.tries ?? 0) + 1,
            lastError: old?.lastError ?? null,
          };
        }
        return { ...h, items, push: activity(h, collection, true) };
      }, true);
    },
    pushFailed(collection, ids, err) {
      const error = describeSyncError(err);
      update((h) => {
        const items = { ...h.items };
        for (const id of ids) {
          const key = itemKey(collection, id);
          const old = items[key];
          if (old) items[key] = { ...old, lastError: error };
        }
        return { ...h, items, push: activity(h, collection, false) };
      }, true);
    },
    pushAnswered(collection, ids) {
      update((h) => {
        const items = { ...h.items };
        for (const id of ids) delete items[itemKey(collection, id)];
        return { ...h, items, push: activity(h, collection, false) };
      }, true);
    },
    pullComplete(collection) {
      update((h) => ({ ...h, pulls: { ...h.pulls, [collection]: now() } }), true);
    },
    pullForgotten(collection) {
      if (!(collection in subject.getValue().pulls)) return;
      update((h) => {
        const pulls = { ...h.pulls };
        delete pulls[collection];
        return { ...h, pulls };
      }, true);
    },
    restarted(collection) {
      update((h) => ({ ...h, push: activity(h, collection, false, true) }), false);
    },
    forget(keys) {
      if (!keys.some((k) => k in subject.getValue().items)) return;
      update((h) => {
        const items = { ...h.items };
        for (const k of keys) delete items[k];
        return { ...h, items };
      }, true);
    },
  };
}

/**
 * The writable collections whose push looks stalled: something has waited to leave for longer
 * than `thresholdMs` and the push has done nothing for that long either (no try started, none
 * ended). RxDB retries a failed push every few seconds, so a push that keeps failing is not
 * stalled; one whose request never ends (RxDB issue #7259), or an upstream that went idle with
 * work left (PowerSync's uploads that wait for the next write), is.
 */
export function stalledCollections(
  health: SyncHealth,
  /** Per collection, since when its oldest item has waited (ISO 8601); absent when none waits. */
  waitingSince: Partial<Record<SyncWritableCollection, string>>,
  now: Date,
  thresholdMs: number,
  /** When the replication started: a collection with no push yet counts from there. */
  startedAt: string,
): SyncWritableCollection[] {
  const stalled: SyncWritableCollection[] = [];
  const limit = now.getTime() - thresholdMs;
  for (const [collection, since] of Object.entries(waitingSince) as [SyncWritableCollection, string][]) {
    if (Date.parse(since) > limit) continue;
    const last = health.push[collection]?.lastActivityAt ?? startedAt;
    if (Date.parse(last) <= limit) stalled.push(collection);
  }
  return stalled;
}
