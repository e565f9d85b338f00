// The replication's watchdog: a push that stopped trying while work waits is restarted.
// Sync engines have been seen to stall so (RxDB issue #7259: a push whose request never ends
// blocks the upstream for good; PowerSync: uploads idle until the next local write), and the
// representative would only see "Aguardando envio" forever. RxDB retries a failed push every
// few seconds, so a push that fails for want of a network is busy, not stalled.
import type { SyncWritableCollection } from '@campo/shared';
import type { CampoDatabase } from './database.ts';
import type { CampoReplication } from './replication.ts';
import { itemKey, stalledCollections } from './sync-health.ts';

/** Two minutes with work waiting and no push started or ended: longer than any sane push. */
export const WATCHDOG_DEFAULT_MS = 120_000;

export interface Watchdog {
  /** One look now; resolves with the collections it restarted. */
  check(): Promise<SyncWritableCollection[]>;
  stop(): void;
}

export function startWatchdog(
  db: CampoDatabase,
  replication: CampoReplication,
  options: { thresholdMs?: number; now?: () => Date } = {},
): Watchdog {
  const thresholdMs = options.thresholdMs ?? WATCHDOG_DEFAULT_MS;
  const now = options.now ?? (() => new Date());
  let unsent: Partial<Record<SyncWritableCollection, ReadonlySet<string>>> = {};
  const sub = replication.unsent$.subscribe((u) => {
    unsent = u;
  });
  let running = false;

  /** Since when each writable collection's oldest item has waited to leave. */
  const waitingSince = async (): Promise<Partial<Record<SyncWritableCollection, string>>> => {
    const health = replication.health.get();
    const since: Partial<Record<SyncWritableCollection, string>> = {};
    const note = (c: SyncWritableCollection, at: string) => {
      const old = since[c];
      if (!old || at < old) since[c] = at;
    };
    const startedOr = (c: SyncWritableCollection, id: string) =>
      health.items[itemKey(c, id)]?.firstAttemptAt ?? replication.startedAt;
    // Orders and registrations say themselves that they wait; the rest is known by its pushes.
    const pedidos = db.collections.pedidos;
    if (pedidos) {
      for (const d of await pedidos.find({ selector: { status: 'queued' } }).exec())
        note('pedidos', d.queuedAt ?? startedOr('pedidos', d.id));
    }
    const cadastros = db.collections.cadastros;
    if (cadastros) {
      for (const d of await cadastros.find({ selector: { status: 'queued' } }).exec())
        note('cadastros', startedOr('cadastros', d.id));
    }
    for (const c of ['funil', 'chamados'] as const) for (const id of unsent[c] ?? []) note(c, startedOr(c, id));
    return since;
  };

  const check = async (): Promise<SyncWritableCollection[]> => {
    // Only the tab that replicates (RxDB's leader) pushes; the others have nothing to restart.
    if (running || replication.stopped || !db.isLeader()) return [];
    running = true;
    try {
      const stalled = stalledCollections(
        replication.health.get(),
        await waitingSince(),
        now(),
        thresholdMs,
        replication.startedAt,
      );
      for (const c of stalled) await replication.restart(c);
      return stalled;
    } finally {
      running = false;
    }
  };

  const timer = setInterval(
    () => {
      void check().catch((err: unknown) => console.error('watchdog', err));
    },
    Math.max(250, Math.min(15_000, thresholdMs / 4)),
  );
  return {
    check,
    stop() {
      clearInterval(timer);
      sub.unsubscribe();
    },
  };
}
