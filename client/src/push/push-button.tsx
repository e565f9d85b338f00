import { useEffect } from 'preact/hooks';
import { enablePush, probePush, pushError, pushStatus } from './push.ts';

/**
 * "Ativar notificações": the browser asks permission only from a click, so the app offers
 * the switch instead of prompting at login. Where push cannot work it says why, rather than
 * vanishing and leaving the person to wonder where the switch went.
 */
export function PushButton() {
  const status = pushStatus.value;
  useEffect(() => {
    void probePush();
  }, []);
  if (status === 'disabled')
    return (
      <p class="push-note">
        Notificações indisponíveis: o servidor do Campo desta empresa não está configurado para enviá-las. Avise o
        administrador do sistema.
      </p>
    );
  if (status === 'unsupported')
    return (
      <p class="push-note">
        Este navegador não recebe notificações. No iPhone, adicione o Campo à tela de início e abra-o por lá para
        recebê-las.
      </p>
    );
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
