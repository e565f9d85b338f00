import { enablePush, pushError, pushStatus } from './push.ts';

/**
 * "Ativar notificações": the browser asks permission only from a click, so the app offers
 * the switch instead of prompting at login. Hidden where push cannot work.
 */
export function PushButton() {
  const status = pushStatus.value;
  if (status === 'unsupported' || status === 'disabled') return null;
  if (status === 'on') return <p class="push-note">Notificações ativadas neste aparelho.</p>;
  if (status === 'denied')
    return (
      <p class="push-note">
        As notificações estão bloqueadas neste navegador. Para recebê-las, libere-as nas configurações do site.
      </p>
    );
  return (
    <div class="push-offer">
      <button
        type="button"
        class="outline"
        onClick={() => void enablePush()}
        disabled={status === 'working'}
        aria-busy={status === 'working' ? 'true' : undefined}
      >
        Ativar notificações
      </button>
      {pushError.value && (
        <p class="push-error" role="alert">
          {pushError.value}
        </p>
      )}
    </div>
  );
}
