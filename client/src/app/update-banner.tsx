import { useSignal } from '@preact/signals';
import { syncState } from '../data/store.ts';
import { applyUpdate, updateNow, updateReady } from '../pwa.ts';

/**
 * A new version waits until the person accepts it: swapping the shell under an open form
 * could lose what they were typing. Except when the server no longer serves this app's sync
 * protocol (426): nothing syncs until the update, so the banner says so and the button fetches
 * the new version now. The local store and its outbox are kept across the reload.
 */
export function UpdateBanner() {
  const updating = useSignal(false);
  if (syncState.value?.updateRequired) {
    const update = () => {
      updating.value = true;
      void updateNow().finally(() => {
        updating.value = false;
      });
    };
    return (
      <div class="update-banner update-required" role="alert">
        <span>
          <strong>Atualize o app</strong>: esta versão não sincroniza mais com o servidor. Seus pedidos e alterações
          continuam guardados neste aparelho.
        </span>
        <button
          type="button"
          onClick={update}
          disabled={updating.value}
          aria-busy={updating.value ? 'true' : undefined}
        >
          Atualizar agora
        </button>
      </div>
    );
  }
  if (!updateReady.value) return null;
  return (
    <div class="update-banner" role="status">
      <span>Há uma nova versão do Campo.</span>
      <button type="button" onClick={applyUpdate}>
        Atualizar
      </button>
    </div>
  );
}
