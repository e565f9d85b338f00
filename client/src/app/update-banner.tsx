import { applyUpdate, updateReady } from '../pwa.ts';

/**
 * A new version waits until the person accepts it: swapping the shell under an open form
 * could lose what they were typing.
 */
export function UpdateBanner() {
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
