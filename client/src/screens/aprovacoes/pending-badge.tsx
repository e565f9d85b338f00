// The supervisor's pending-approval badge in the header: polled every 30 s (the API's
// documented rhythm), refreshed at once after a decision and whenever the change stream
// announces orders, and paused while the tab is hidden.
import { plural } from '@campo/shared/format';
import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api } from '../../api.ts';
import { ensureStore, store } from '../../data/store.ts';
import './pending-badge.css';

const POLL_MS = 30_000;
const count = signal<number | null>(null);

export async function refreshPendingCount(): Promise<void> {
  try {
    count.value = (await api.GET('/notifications/pending-count')).count;
  } catch {
    // Offline or refused: keep the last count rather than blink a wrong zero.
  }
}

export function PendingBadge() {
  useEffect(() => {
    void refreshPendingCount();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void refreshPendingCount();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, []);
  // Live: an order created or decided anywhere in the tenant is announced on the stream.
  const s = store.value;
  useEffect(() => {
    if (!s) {
      void ensureStore();
      return;
    }
    const sub = s.replication.changes$.subscribe((c) => {
      if (c === 'pedidos' || c === 'resync') void refreshPendingCount();
    });
    return () => sub.unsubscribe();
  }, [s]);
  const n = count.value;
  if (n === null) return null;
  const label = plural(n, 'pedido aguardando aprovação', 'pedidos aguardando aprovação');
  return (
    <a
      href="/aprovacoes"
      class={n > 0 ? 'pending-badge has-pending' : 'pending-badge'}
      aria-label={label}
      title={label}
    >
      {n}
    </a>
  );
}
