// The sync strip under the header: when this device last reached the server, the first
// download's progress, what is still waiting to leave (representatives) and what is wrong,
// in words. A representative decides from it whether the order just taken has left the phone.
import type { Role } from '@campo/shared';
import { plural } from '@campo/shared/format';
import { useEffect } from 'preact/hooks';
import { combineLatest, map } from 'rxjs';
import { storageFull } from '../data/device-storage.ts';
import { useStoreObservable } from '../data/hooks.ts';
import { readLocal, writeLocal } from '../data/local-cache.ts';
import { ensureStore, storeError, syncState } from '../data/store.ts';
import './sync-status.css';

const LAST_SYNC = 'ultima-sincronizacao';
const isString = (v: unknown): v is string => typeof v === 'string';

const time = new Intl.DateTimeFormat('pt-BR', { hour: '2-digit', minute: '2-digit' });
const dayMonth = new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: '2-digit' });

export function syncedLabel(iso: string, now = new Date()): string {
  const at = new Date(iso);
  if (at.toDateString() === now.toDateString()) return `Sincronizado às ${time.format(at)}`;
  return `Sincronizado em ${dayMonth.format(at)} às ${time.format(at)}`;
}

/**
 * "Aguardando envio: 2 pedidos, 1 alteração no funil, 1 chamado, 1 cliente novo", or null
 * when nothing waits.
 */
export function waitingToLeave(w: {
  pending: number;
  unsentFunil: number;
  unsentChamados: number;
  unsentCadastros: number;
  unsentVisitas?: number;
}): string | null {
  const parts = [
    w.pending > 0 && plural(w.pending, 'pedido', 'pedidos'),
    w.unsentFunil > 0 && plural(w.unsentFunil, 'alteração no funil', 'alterações no funil'),
    w.unsentChamados > 0 && plural(w.unsentChamados, 'chamado', 'chamados'),
    w.unsentCadastros > 0 && plural(w.unsentCadastros, 'cliente novo', 'clientes novos'),
    (w.unsentVisitas ?? 0) > 0 && plural(w.unsentVisitas ?? 0, 'visita', 'visitas'),
  ].filter((p): p is string => typeof p === 'string');
  return parts.length ? `Aguardando envio: ${parts.join(', ')}` : null;
}

/** Roles whose session opens a local store; the admin works online only. */
export function hasStore(role: Role): boolean {
  return role !== 'admin';
}

export function SyncStatus(props: { role: Role }) {
  // Split so that the admin's header never opens a store (the hooks below would).
  return hasStore(props.role) ? <SyncStrip /> : null;
}

function SyncStrip() {
  const state = syncState.value;
  // Refused cards and tickets need the representative as much as refused orders do: the
  // server did not take them, and only a fix or a discard settles them.
  // Everything still on the phone counts, not only orders: a card moved, a ticket or a reply,
  // a new client typed in a dead zone all wait for the network the same way.
  const waiting = useStoreObservable(
    (s) =>
      s.outbox
        ? combineLatest([s.outbox.outbox$, s.outbox.attention$, s.replication.unsent$]).pipe(
            map(([entries, attention, unsent]) => ({
              pending: entries.filter((e) => e.state === 'queued' || e.state === 'sent').length,
              refused: entries.filter((e) => e.state === 'refused').length,
              funil: attention.funil,
              chamados: attention.chamados,
              visitas: attention.visitas,
              unsentFunil: unsent.funil?.size ?? 0,
              unsentChamados: unsent.chamados?.size ?? 0,
              unsentCadastros: unsent.cadastros?.size ?? 0,
              unsentVisitas: unsent.visitas?.size ?? 0,
            })),
          )
        : null,
    {
      pending: 0,
      refused: 0,
      funil: 0,
      chamados: 0,
      visitas: 0,
      unsentFunil: 0,
      unsentChamados: 0,
      unsentCadastros: 0,
      unsentVisitas: 0,
    },
  );
  const leaving = waitingToLeave(waiting);

  useEffect(() => {
    void ensureStore();
  }, []);

  // One collection answering is not "synced": the time counts only once every collection has
  // reached the server's state in this session (the first download included).
  const initial = state?.initial;
  const initialComplete = !initial || initial.total === 0 || initial.done >= initial.total;
  const live = initialComplete ? (state?.lastSuccessAt ?? null) : null;
  // The replication's own clock starts empty on every load; the stored time lets a reload
  // with no signal still say when the device last had fresh data.
  useEffect(() => {
    if (live) writeLocal(LAST_SYNC, live);
  }, [live]);
  const stored = readLocal(LAST_SYNC, isString);
  const last = live ?? stored;
  // The first download on this device shows its progress until every collection has arrived.
  const downloading = !initialComplete && stored === null && !!initial;
  const error = storeError.value ?? state?.error?.message ?? null;
  const full = storageFull.value;

  return (
    <div class="sync-status" role="status" aria-live="polite" aria-label="Sincronização">
      {downloading ? (
        <span class="sync-progress">
          <label for="sync-progress">
            Baixando dados para o aparelho: {initial.done} de {plural(initial.total, 'parte', 'partes')} (
            {plural(initial.received, 'registro', 'registros')})
          </label>
          <progress id="sync-progress" value={initial.done} max={initial.total} />
        </span>
      ) : (
        <a class="sync-when" href="/sincronizacao" title="Ver a sincronização">
          {last ? syncedLabel(last) : 'Ainda não sincronizado'}
        </a>
      )}
      {leaving && <span class="sync-outbox">{leaving}</span>}
      {waiting.refused > 0 && (
        <a class="sync-refused" href="/pedidos">
          {plural(waiting.refused, 'pedido recusado', 'pedidos recusados')}
        </a>
      )}
      {waiting.funil > 0 && (
        <a class="sync-refused" href="/funil">
          {plural(waiting.funil, 'oportunidade recusada', 'oportunidades recusadas')}
        </a>
      )}
      {waiting.chamados > 0 && (
        <a class="sync-refused" href="/sac">
          {plural(waiting.chamados, 'chamado precisa de atenção', 'chamados precisam de atenção')}
        </a>
      )}
      {waiting.visitas > 0 && (
        <a class="sync-refused" href="/sincronizacao">
          {plural(waiting.visitas, 'visita recusada', 'visitas recusadas')}
        </a>
      )}
      {full && (
        <a class="sync-error" href="/sincronizacao">
          Aparelho sem espaço: o catálogo foi apagado para guardar seus pedidos. Veja o que fazer.
        </a>
      )}
      {error && <span class="sync-error">{error}</span>}
    </div>
  );
}
