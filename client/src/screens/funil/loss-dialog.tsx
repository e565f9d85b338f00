import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';

/**
 * Asks why an opportunity was lost: the server refuses "perdido" without a reason, and the
 * reason is what the manager reads in the funnel report.
 */
export function LossDialog(props: {
  name: string;
  onConfirm: (reason: string) => Promise<void>;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const reason = useSignal('');
  const error = useSignal<string | null>(null);
  const busy = useSignal(false);

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);

  const submit = async (e: Event) => {
    e.preventDefault();
    const text = reason.value.trim();
    if (!text) {
      error.value = 'Informe o motivo da perda.';
      return;
    }
    busy.value = true;
    try {
      await props.onConfirm(text);
    } catch (err) {
      error.value = err instanceof Error ? err.message : 'Não foi possível mover a oportunidade.';
      busy.value = false;
    }
  };

  return (
    <dialog ref={ref} aria-labelledby="perda-titulo" onCancel={props.onCancel}>
      <article>
        <h2 id="perda-titulo">Oportunidade perdida</h2>
        <form onSubmit={submit} noValidate>
          <label>
            Motivo da perda de {props.name}
            <textarea
              name="motivoPerda"
              rows={3}
              maxLength={500}
              value={reason.value}
              onInput={(e) => {
                reason.value = e.currentTarget.value;
              }}
              aria-invalid={error.value ? 'true' : undefined}
              aria-describedby={error.value ? 'perda-erro' : undefined}
            />
          </label>
          {error.value && (
            <p id="perda-erro" class="field-error" role="alert">
              {error.value}
            </p>
          )}
          <footer class="form-actions">
            <button type="button" class="secondary" onClick={props.onCancel}>
              Cancelar
            </button>
            <button type="submit" aria-busy={busy.value ? 'true' : undefined} disabled={busy.value}>
              Confirmar perda
            </button>
          </footer>
        </form>
      </article>
    </dialog>
  );
}
