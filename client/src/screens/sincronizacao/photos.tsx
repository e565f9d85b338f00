// "Fotos dos produtos" on the sync screen (a representative's): download every active
// product's photo for offline use, with progress, cancel and resume, within the photos' byte
// budget (data/photos.ts); "Só no Wi-Fi" where the browser tells the connection type, and the
// limit, both kept per person on the device.

import { plural } from '@campo/shared/format';
import { useEffect } from 'preact/hooks';
import { refreshStorage } from '../../data/device-storage.ts';
import {
  cancelPhotoDownload,
  connectionNow,
  downloadPhotos,
  LIMIT_CHOICES_MB,
  loadLastDownload,
  loadPhotoSettings,
  photoDownload,
  photoSettings,
  photoStats,
  setPhotoSettings,
} from '../../data/photos.ts';
import { store } from '../../data/store.ts';
import { bytesLabel, photoPhaseMessage, photoProgressLabel } from './model.ts';

const MB = 1024 * 1024;

export function PhotoDownload() {
  useEffect(() => {
    loadPhotoSettings();
    loadLastDownload();
  }, []);
  const d = photoDownload.value;
  const settings = photoSettings.value;
  const stats = photoStats.value;
  const s = store.value;
  const busy = d.phase === 'preparing' || d.phase === 'running';
  const connection = connectionNow();
  const message = photoPhaseMessage(d);

  useEffect(() => {
    // What the photos took shows in the browser's estimate below once a download ends.
    if (!busy) void refreshStorage();
  }, [busy]);

  return (
    <section aria-labelledby="sync-photos" class="sync-photos">
      <h2 id="sync-photos">Fotos dos produtos</h2>
      <p class="mg-muted">
        {stats
          ? `Neste aparelho: ${plural(stats.count, 'foto', 'fotos')}, ${bytesLabel(stats.bytes)} de ${bytesLabel(stats.limit)} reservados para fotos.`
          : 'As fotos vistas no catálogo ficam guardadas neste aparelho para usar sem internet.'}
      </p>
      {d.phase !== 'idle' && d.total > 0 && (
        <>
          <progress value={d.done} max={d.total} aria-label="Fotos baixadas" />
          <p role="status" aria-label="Progresso das fotos">
            {photoProgressLabel(d.done, d.total, stats?.bytes ?? 0)}
          </p>
        </>
      )}
      {message && <p class={d.phase === 'done' ? undefined : 'mg-muted'}>{message}</p>}
      <div class="sync-photos-actions">
        {busy ? (
          <button type="button" class="secondary" onClick={cancelPhotoDownload}>
            Cancelar
          </button>
        ) : (
          <button type="button" disabled={!s} onClick={() => s && void downloadPhotos(s)}>
            {d.phase === 'idle' || d.phase === 'done' ? 'Baixar fotos para usar sem internet' : 'Continuar'}
          </button>
        )}
      </div>
      <fieldset>
        <label>
          <input
            type="checkbox"
            name="so-wifi"
            checked={settings.wifiOnly && connection !== 'unknown'}
            disabled={connection === 'unknown'}
            onChange={(e) => void setPhotoSettings({ wifiOnly: e.currentTarget.checked })}
          />
          Só no Wi-Fi
        </label>
        {connection === 'unknown' && (
          <small>
            Este navegador não informa se a conexão é Wi-Fi ou dados móveis: baixe as fotos quando estiver no Wi-Fi.
          </small>
        )}
        <label>
          <input
            type="checkbox"
            name="fotos-grandes"
            checked={settings.full}
            disabled={busy}
            onChange={(e) => void setPhotoSettings({ full: e.currentTarget.checked })}
          />
          Incluir as fotos grandes da página do produto
        </label>
      </fieldset>
      <label>
        Espaço para fotos
        <select
          name="limite-fotos"
          value={String(settings.limitMb)}
          onChange={(e) => void setPhotoSettings({ limitMb: Number(e.currentTarget.value) })}
        >
          {[...new Set([...LIMIT_CHOICES_MB, settings.limitMb])]
            .sort((a, b) => a - b)
            .map((mb) => (
              <option key={mb} value={String(mb)}>
                {bytesLabel(mb * MB)}
              </option>
            ))}
        </select>
        <small>Ao passar do limite, as fotos vistas há mais tempo saem primeiro; pedidos e dados nunca.</small>
      </label>
    </section>
  );
}
