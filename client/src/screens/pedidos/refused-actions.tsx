import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { store } from '../../data/store.ts';
import type { OutboxEntry } from '../../db/outbox.ts';
import { ConfirmDialog } from './confirm.tsx';

/** "Corrigir" and "Descartar" for an order the server refused (or one still waiting in the queue). */
export function OutboxActions(props: { entry: OutboxEntry; afterDiscard?: string }) {
  const { route } = useLocation();
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { entry } = props;
  const canDiscard = entry.state === 'refused' || entry.state === 'queued';
  if (!canDiscard) return null;

  const discard = async () => {
    setAsking(false);
    try {
      await store.value?.outbox?.discard(entry.id);
      if (props.afterDiscard) route(props.afterDiscard);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Não foi possível descartar o pedido.');
    }
  };

  return (
    <div class="outbox-actions">
      {entry.state === 'refused' ? (
        <a class="button-link" href={`/pedidos/${encodeURIComponent(entry.id)}/corrigir`}>
          Corrigir
        </a>
      ) : null}
      <button type="button" class="outline secondary" onClick={() => setAsking(true)}>
        Descartar
      </button>
      {error ? (
        <p role="alert" class="line-error">
          {error}
        </p>
      ) : null}
      {asking ? (
        <ConfirmDialog
          title="Descartar este pedido?"
          confirmLabel="Descartar pedido"
          onConfirm={() => void discard()}
          onCancel={() => setAsking(false)}
        >
          <p>
            O pedido sai deste aparelho e não será enviado. Se precisar dele depois, será preciso digitá-lo de novo.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
