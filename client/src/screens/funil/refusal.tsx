// A card the server did not take (docs/sync.md, refusals): the reason, in the server's pt-BR
// words, and the two ways out. "Corrigir" opens the card's form (saving clears the refusal and
// the card is pushed again); "Descartar" drops what was refused: a card never created leaves
// the device, a refused edit leaves the server's card as it is.
import type { SyncRefusal } from '@campo/shared';
import { useSignal } from '@preact/signals';
import { useLocation } from 'preact-iso';
import { store } from '../../data/store.ts';
import { opportunityRefusal } from '../../db/outbox.ts';
import type { OpportunityDoc } from '../../db/schemas.ts';

export function RefusalNotice(props: { item: OpportunityDoc; showFix?: boolean }) {
  const { route } = useLocation();
  const busy = useSignal(false);
  const error = useSignal<string | null>(null);
  const kind = opportunityRefusal(props.item);
  const recusa = props.item.recusa as SyncRefusal | null | undefined;
  if (!kind || !recusa) return null;

  const discard = async () => {
    busy.value = true;
    error.value = null;
    try {
      const outbox = store.peek()?.outbox;
      if (!outbox) throw new Error('Os dados deste aparelho ainda estão abrindo. Tente de novo em instantes.');
      await outbox.discardOpportunityRefusal(props.item.id);
      // On the card's own page a discarded creation leaves nothing to show.
      if (kind === 'creation' && props.showFix === false) route('/funil');
    } catch (err) {
      error.value = err instanceof Error ? err.message : 'Não foi possível descartar.';
      busy.value = false;
    }
  };

  return (
    <div class="opp-refusal">
      <p>
        <strong>{kind === 'creation' ? 'Oportunidade não criada' : 'Alteração não aceita'}:</strong> {recusa.message}
      </p>
      <p class="opp-refusal-hint">
        {kind === 'creation'
          ? 'Corrija e salve para enviar de novo, ou descarte para apagá-la deste aparelho.'
          : 'Corrija e salve para enviar de novo, ou descarte suas alterações e fique com a versão do servidor.'}
      </p>
      <div class="opp-refusal-actions">
        {props.showFix !== false && (
          <a class="link-button" href={`/funil/${encodeURIComponent(props.item.id)}`}>
            Corrigir
          </a>
        )}
        <button
          type="button"
          class="outline secondary"
          disabled={busy.value}
          aria-busy={busy.value ? 'true' : undefined}
          onClick={() => void discard()}
        >
          Descartar
        </button>
      </div>
      {error.value && (
        <p class="field-error" role="alert">
          {error.value}
        </p>
      )}
    </div>
  );
}
