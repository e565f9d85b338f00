// Sincronização (/sincronizacao): the sync's health for whoever holds a local store. A
// representative sees every item still waiting to leave the phone (by name, how long, how many
// tries, the last error or the server's refusal), "Sincronizar agora", when each collection
// last reached the server's state, and the browser's storage: whether it promised to keep the
// data, how much of the quota is used, and a warning when it did not while work waits. A
// supervisor or manager has no outbox: the last sync and the storage only.

import type { SyncCollection, SyncWritableCollection } from '@campo/shared';
import { clientDisplayName } from '@campo/shared/format';
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { RxCollection } from 'rxdb';
import { combineLatest, map, type Observable, of } from 'rxjs';
import { refreshStorage, storageFull, storageInfo } from '../../data/device-storage.ts';
import { useStoreObservable } from '../../data/hooks.ts';
import { readLocal } from '../../data/local-cache.ts';
import { syncEverythingNow, syncState } from '../../data/store.ts';
import { collectionOf } from '../../db/database.ts';
import type { ClientDoc, OpportunityDoc, RegistrationDoc, TicketDoc, VisitDoc } from '../../db/schemas.ts';
import { createSyncHealth, type SyncHealth } from '../../db/sync-health.ts';
import { currentUser } from '../../session/session.ts';
import '../../kit/kit.css';
import './sincronizacao.css';
import {
  bytesLabel,
  COLLECTION_LABEL,
  completeSyncAt,
  evictionWarning,
  itemProgressLabel,
  storageFullMessage,
  type WaitingItem,
  waitingItems,
  waitingSummary,
  whenLabel,
} from './model.ts';
import { PhotoDownload } from './photos.tsx';

const EMPTY_HEALTH: SyncHealth = createSyncHealth().get();
/** The sync strip's stored time (sync-status.tsx), for a device whose pulls predate this screen. */
const LAST_SYNC = 'ultima-sincronizacao';
const isString = (v: unknown): v is string => typeof v === 'string';

const STATE_LABEL = { sending: 'Enviando', waiting: 'Aguardando envio', refused: 'Recusado' } as const;

function useHealth(): SyncHealth {
  return useStoreObservable((s) => s.replication.health.health$, EMPTY_HEALTH);
}

function useWaiting(health: SyncHealth): WaitingItem[] | null {
  const raw = useStoreObservable(
    (s) => {
      if (!s.outbox) return of(null);
      const docs = <T,>(c: 'funil' | 'chamados' | 'cadastros'): Observable<T[]> =>
        (collectionOf(s.db, c) as unknown as RxCollection).find().$.pipe(map((ds) => ds.map((d) => d.toJSON() as T)));
      return combineLatest([
        s.outbox.outbox$,
        docs<OpportunityDoc>('funil'),
        docs<TicketDoc>('chamados'),
        docs<RegistrationDoc>('cadastros'),
        s.db.collections.visitas
          ? s.db.collections.visitas.find().$.pipe(map((ds) => ds.map((d) => d.toJSON() as VisitDoc)))
          : of([] as VisitDoc[]),
        s.replication.unsent$,
        s.replication.inFlight$,
      ]).pipe(
        map(([orders, funil, chamados, cadastros, visitas, unsent, inFlight]) => ({
          orders,
          funil,
          chamados,
          cadastros,
          visitas,
          unsent,
          inFlight,
        })),
      );
    },
    null as null | {
      orders: Parameters<typeof waitingItems>[0]['orders'];
      funil: OpportunityDoc[];
      chamados: TicketDoc[];
      cadastros: RegistrationDoc[];
      visitas: VisitDoc[];
      unsent: Partial<Record<SyncWritableCollection, ReadonlySet<string>>>;
      inFlight: ReadonlySet<string>;
    },
  );
  const clientIds = raw
    ? [...new Set(raw.orders.flatMap((e) => (e.draft && !e.order?.nomeCliente ? [String(e.draft.idCliente)] : [])))]
    : [];
  const key = clientIds.sort().join(',');
  const clients = useStoreObservable(
    (s) =>
      clientIds.length === 0 || !s.outbox
        ? of(new Map<string, ClientDoc>())
        : collectionOf(s.db, 'clientes')
            .find({ selector: { id: { $in: clientIds } } })
            .$.pipe(map((ds) => new Map(ds.map((d) => [d.id, d.toJSON() as ClientDoc])))),
    new Map<string, ClientDoc>(),
    [key],
  );
  if (!raw) return null;
  return waitingItems({
    ...raw,
    health,
    clientName: (id) => {
      const c = clients.get(String(id));
      return c ? clientDisplayName(c) || null : null;
    },
  });
}

export default function SyncScreen() {
  const role = currentUser.value?.role;
  const rep = role === 'representative';
  const health = useHealth();
  const items = useWaiting(health);
  const busy = useSignal(false);
  const now = useSignal(new Date());
  useEffect(() => {
    void refreshStorage();
    // The ages move on while the screen is open.
    const timer = setInterval(() => {
      now.value = new Date();
    }, 30_000);
    return () => clearInterval(timer);
  }, []);

  const state = syncState.value;
  const info = storageInfo.value;
  const full = storageFull.value;
  const waiting = items?.filter((i) => i.state !== 'refused').length ?? 0;
  const warning = rep ? evictionWarning(info?.persisted ?? null, items?.length ?? 0) : null;
  const collections = Object.keys(state?.collections ?? {}) as SyncCollection[];
  const complete = completeSyncAt(collections, health) ?? readLocal(LAST_SYNC, isString);

  const syncNow = async () => {
    busy.value = true;
    try {
      await syncEverythingNow();
    } finally {
      busy.value = false;
    }
  };

  return (
    <section class="sync-screen">
      <h1>Sincronização</h1>
      {full && (
        <p role="alert" class="sync-full">
          {storageFullMessage(full.dropped)}
        </p>
      )}
      {warning && (
        <p role="alert" class="sync-warning">
          {warning}
        </p>
      )}
      <div class="sync-summary">
        <p>
          Última sincronização completa: <strong>{whenLabel(complete, now.value)}</strong>
          {state && !state.online && <span class="mg-muted"> · sem conexão agora</span>}
        </p>
        <button type="button" onClick={syncNow} aria-busy={busy.value ? 'true' : undefined} disabled={busy.value}>
          Sincronizar agora
        </button>
      </div>

      {rep && (
        <section aria-labelledby="sync-waiting">
          <h2 id="sync-waiting">Aguardando envio</h2>
          {items === null ? (
            <p aria-busy="true">Carregando…</p>
          ) : items.length === 0 ? (
            <p>Nada aguardando envio: tudo o que foi feito neste aparelho já está no servidor.</p>
          ) : (
            <>
              <p class="mg-muted">{waitingSummary(waiting, items.length - waiting)}</p>
              <ul class="mg-list sync-items">
                {items.map((i) => (
                  <li key={i.key}>
                    <article class={`mg-card sync-item state-${i.state}`} aria-label={i.label}>
                      <div class="mg-row">
                        <a href={i.href}>
                          <strong>{i.label}</strong>
                        </a>
                        <span
                          class={`mg-chip ${i.state === 'refused' ? 'bad' : i.state === 'sending' ? 'ok' : 'warn'}`}
                        >
                          {STATE_LABEL[i.state]}
                        </span>
                      </div>
                      <p class="mg-muted">{itemProgressLabel(i, now.value)}</p>
                      {i.lastError && (
                        <p class="sync-item-error">
                          {i.state === 'refused' ? 'Motivo: ' : 'Último erro: '}
                          {i.lastError}
                        </p>
                      )}
                    </article>
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
      )}

      <section aria-labelledby="sync-collections">
        <h2 id="sync-collections">Dados no aparelho</h2>
        <div class="mg-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Dados</th>
                <th scope="col">Última atualização completa</th>
              </tr>
            </thead>
            <tbody>
              {collections.map((c) => {
                // "Sem conexão" is said once, above; another error is this collection's own.
                const error = state?.collections[c]?.error;
                const own = error && error.kind !== 'offline' ? error : null;
                return (
                  <tr key={c}>
                    <th scope="row">{COLLECTION_LABEL[c]}</th>
                    <td>
                      {whenLabel(health.pulls[c], now.value)}
                      {own && <span class="sync-item-error"> · {own.message}</span>}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </section>

      {rep && <PhotoDownload />}

      <section aria-labelledby="sync-storage">
        <h2 id="sync-storage">Armazenamento</h2>
        {!info ? (
          <p aria-busy="true">Consultando o navegador…</p>
        ) : !info.supported ? (
          <p>Este navegador não informa o espaço que o app usa.</p>
        ) : (
          <dl class="sync-storage">
            <dt>Proteção dos dados</dt>
            <dd data-persisted={info.persisted === null ? 'unknown' : String(info.persisted)}>
              {info.persisted === true
                ? 'Protegidos: o navegador se comprometeu a não apagar os dados deste app.'
                : info.persisted === false
                  ? 'Não protegidos: o navegador pode apagar os dados deste app se faltar espaço.'
                  : 'O navegador não informa se protege os dados deste app.'}
            </dd>
            <dt>Espaço usado</dt>
            <dd>
              {info.usage !== null && info.quota !== null
                ? `${bytesLabel(info.usage)} de ${bytesLabel(info.quota)}`
                : 'não informado'}
            </dd>
          </dl>
        )}
      </section>
    </section>
  );
}
