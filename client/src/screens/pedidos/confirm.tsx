import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * A modal question with a native <dialog>: it traps focus, closes on Escape and gives the
 * focus back to where it was, which a hand-made overlay would have to redo.
 */
export function ConfirmDialog(props: {
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog ref={ref} aria-labelledby="confirm-title" onCancel={props.onCancel}>
      <article>
        <h2 id="confirm-title">{props.title}</h2>
        {props.children}
        <footer>
          <button type="button" class="secondary" onClick={props.onCancel}>
            Cancelar
          </button>
          <button type="button" class="danger" onClick={props.onConfirm}>
            {props.confirmLabel}
          </button>
        </footer>
      </article>
    </dialog>
  );
}
