// The visit on the client's page (docs/visits.md): "Cheguei" opens it with the device time and
// the position, "Saí" closes it; without an order for the client today, the closing sheet asks
// the manager's reason, with the note or the photo it requires. Everything is written on the
// phone and pushed when there is signal; a visit the server refused says why, with a way out.

import { businessDate } from '@campo/shared/dates';
import { clientDisplayName } from '@campo/shared/format';
import { distanceMeters, type VisitReason } from '@campo/shared/visits';
import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { map } from 'rxjs';
import { useStoreObservable } from '../../data/hooks.ts';
import { clientsWithOrderOn } from '../../data/route.ts';
import { store } from '../../data/store.ts';
import { useVisitReasons } from '../../data/visits.ts';
import { checkInRefused, visitIsOpen, visitWaiting } from '../../db/outbox.ts';
import type { ClientDoc, OrderDoc, VisitDoc } from '../../db/schemas.ts';
import { currentPosition, NO_POSITION, type PositionResult } from '../../kit/geolocation.ts';
import { resizePhoto } from '../../kit/photo-resize.ts';
import './visit.css';

const clock = new Intl.DateTimeFormat('pt-BR', { hour: '2-digit', minute: '2-digit' });
const dayMonth = new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: '2-digit' });
const hhmm = (iso: string) => clock.format(new Date(iso));
/** "14:05" today; "27/11 14:05" for a visit left open on another day. */
const since = (iso: string) =>
  businessDate(iso) === businessDate() ? hhmm(iso) : `${dayMonth.format(new Date(iso))} ${hhmm(iso)}`;
const metres = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0 });

/** "a 40 m do cliente", or why no distance is known. */
function distanceText(client: ClientDoc, visit: VisitDoc): string {
  if (!visit.posicao) return 'sem localização';
  const known = visit.distanciaMetros ?? (client.posicao ? distanceMeters(visit.posicao, client.posicao) : null);
  if (known === null) return 'posição do cliente ainda não conhecida';
  return known >= 1000
    ? `a ${(known / 1000).toLocaleString('pt-BR', { maximumFractionDigits: 1 })} km do cliente`
    : `a ${metres.format(known)} m do cliente`;
}

function useVisits(): VisitDoc[] {
  return useStoreObservable<VisitDoc[]>(
    (s) => s.db.collections.visitas?.find().$.pipe(map((docs) => docs.map((d) => d.toJSON() as VisitDoc))) ?? null,
    [],
  );
}

function useOrders(): OrderDoc[] {
  // Optional like the visits: only a representative's store has them.
  return useStoreObservable<OrderDoc[]>(
    (s) => s.db.collections.pedidos?.find().$.pipe(map((docs) => docs.map((d) => d.toJSON() as OrderDoc))) ?? null,
    [],
  );
}

export function VisitBlock(props: { client: ClientDoc }) {
  const s = store.value;
  const visits = useVisits();
  const orders = useOrders();
  const busy = useSignal(false);
  const notice = useSignal<string | null>(null);
  const error = useSignal<string | null>(null);
  const closing = useSignal<VisitDoc | null>(null);
  // Fetched here too, with signal, so the closing sheet has the list offline later.
  useVisitReasons();
  // Representatives only: the other roles have no visits on the phone.
  if (!s?.outbox || !s.db.collections.visitas || s.user.codVendedor === null) return null;
  const outbox = s.outbox;
  const codVendedor = s.user.codVendedor;
  const idCliente = Number(props.client.id);
  const today = businessDate();
  const open = visits.find(visitIsOpen);
  const mine = visits.filter((v) => v.idCliente === idCliente);
  const refused = mine.filter(checkInRefused);
  const todays = mine
    .filter((v) => v.data === today && !refused.includes(v) && !visitIsOpen(v))
    .sort((a, b) => (a.entradaEm < b.entradaEm ? -1 : 1));
  const hasOrder = clientsWithOrderOn(orders, today).has(idCliente);

  const arrive = async () => {
    busy.value = true;
    error.value = null;
    notice.value = 'Obtendo a localização…';
    const where: PositionResult = await currentPosition();
    try {
      await outbox.checkIn({
        codVendedor,
        idCliente,
        nomeCliente: clientDisplayName(props.client),
        posicao: where.posicao,
      });
      notice.value = where.falta
        ? `Chegada registrada sem localização: ${NO_POSITION[where.falta]}. A visita vale do mesmo jeito.`
        : null;
    } catch (err) {
      notice.value = null;
      error.value = err instanceof Error ? err.message : 'Não foi possível registrar a chegada.';
    } finally {
      busy.value = false;
    }
  };

  return (
    <section aria-labelledby="visita-titulo" class="visit-block">
      <h2 id="visita-titulo">Visita</h2>
      {refused.map((v) => (
        <div key={v.id} class="notice" role="alert">
          <p>
            Visita de {since(v.entradaEm)} recusada pelo servidor: {v.recusa?.message}
          </p>
          <div class="form-actions">
            <button type="button" class="secondary" onClick={() => void outbox.retryVisit(v.id)}>
              Tentar de novo
            </button>
            <button type="button" class="secondary" onClick={() => void outbox.discardVisit(v.id)}>
              Descartar
            </button>
          </div>
        </div>
      ))}
      {open && open.idCliente === idCliente ? (
        <>
          <p class="visit-open">
            <strong>Em visita desde {since(open.entradaEm)}</strong> · {distanceText(props.client, open)}
          </p>
          {open.recusa && (
            <p class="notice" role="alert">
              A saída não foi aceita pelo servidor: {open.recusa.message} Registre a saída de novo.
            </p>
          )}
          <button type="button" onClick={() => (closing.value = open)}>
            Saí
          </button>
        </>
      ) : open ? (
        <p>
          Você está em visita em{' '}
          <a href={`/clientes/${open.idCliente}`}>{open.nomeCliente ?? `Cliente ${open.idCliente}`}</a> desde{' '}
          {since(open.entradaEm)}: registre a saída lá antes de chegar aqui.
        </p>
      ) : (
        <button type="button" onClick={arrive} disabled={busy.value} aria-busy={busy.value ? 'true' : undefined}>
          Cheguei
        </button>
      )}
      {notice.value && (
        <p class="notice" role="status">
          {notice.value}
        </p>
      )}
      {error.value && (
        <p class="error" role="alert">
          {error.value}
        </p>
      )}
      {todays.length > 0 && (
        <ul class="plain-list">
          {todays.map((v) => (
            <li key={v.id}>
              <span>
                Hoje, {hhmm(v.entradaEm)}–{v.saidaEm ? hhmm(v.saidaEm) : '…'} · {distanceText(props.client, v)}
              </span>
              <small>
                {v.idPedido !== null || v.estado === 'com_pedido' ? 'com pedido' : `sem pedido: ${v.motivo ?? '—'}`}
                {visitWaiting(v) ? ' · aguardando envio' : ''}
              </small>
            </li>
          ))}
        </ul>
      )}
      {closing.value && (
        <CloseSheet
          client={props.client}
          hasOrder={hasOrder}
          onCancel={() => (closing.value = null)}
          onClose={async (input) => {
            const where = await currentPosition(5_000);
            await outbox.checkOut((closing.value as VisitDoc).id, { ...input, posicao: where.posicao });
            closing.value = null;
            notice.value = 'Saída registrada.';
          }}
        />
      )}
    </section>
  );
}

interface Closing {
  motivo: { id: number; descricao: string } | null;
  observacao: string | null;
  foto: Blob | null;
}

/** "Saí": with an order today nothing is asked; without one, a reason from the manager's list. */
function CloseSheet(props: {
  client: ClientDoc;
  hasOrder: boolean;
  onClose: (input: Closing) => Promise<void>;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const reasons = useVisitReasons();
  const chosen = useSignal<VisitReason | null>(null);
  const note = useSignal('');
  const photo = useSignal<Blob | null>(null);
  const photoState = useSignal<string | null>(null);
  const error = useSignal<string | null>(null);
  const busy = useSignal(false);

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);

  const takePhoto = async (file: File | undefined) => {
    photo.value = null;
    if (!file) return;
    photoState.value = 'Preparando a foto…';
    try {
      photo.value = await resizePhoto(file);
      photoState.value = `Foto pronta (${Math.ceil(photo.value.size / 1024)} KiB).`;
    } catch (err) {
      photoState.value = err instanceof Error ? err.message : 'Não foi possível ler a foto; tire outra.';
    }
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    error.value = null;
    const reason = chosen.value;
    if (!props.hasOrder) {
      if (!reason) {
        error.value = 'Escolha o motivo de não ter vendido.';
        return;
      }
      if (reason.exigeObservacao && !note.value.trim()) {
        error.value = `O motivo "${reason.descricao}" pede uma observação.`;
        return;
      }
      if (reason.exigeFoto && !photo.value) {
        error.value = `O motivo "${reason.descricao}" pede uma foto.`;
        return;
      }
    }
    busy.value = true;
    try {
      await props.onClose(
        props.hasOrder || !reason
          ? { motivo: null, observacao: null, foto: null }
          : {
              motivo: { id: reason.id, descricao: reason.descricao },
              observacao: note.value.trim() || null,
              foto: reason.exigeFoto ? photo.value : null,
            },
      );
    } catch (err) {
      error.value = err instanceof Error ? err.message : 'Não foi possível registrar a saída.';
      busy.value = false;
    }
  };

  const reason = chosen.value;
  return (
    <dialog ref={ref} aria-labelledby="saida-titulo" onCancel={props.onCancel}>
      <article>
        <h2 id="saida-titulo">Saída de {clientDisplayName(props.client)}</h2>
        <form onSubmit={submit} noValidate>
          {props.hasOrder ? (
            <p>Há pedido deste cliente hoje neste aparelho: a visita fecha com pedido.</p>
          ) : reasons === null ? (
            <p class="notice" role="alert">
              A lista de motivos ainda não foi baixada neste aparelho. Conecte-se à internet uma vez e tente de novo; a
              visita continua aberta.
            </p>
          ) : (
            <fieldset>
              <legend>Por que não houve venda?</legend>
              {reasons.map((r) => (
                <label key={r.id}>
                  <input
                    type="radio"
                    name="motivo"
                    value={String(r.id)}
                    checked={reason?.id === r.id}
                    onChange={() => {
                      chosen.value = r;
                    }}
                  />
                  {r.descricao}
                  {r.exigeFoto ? ' (pede foto)' : ''}
                </label>
              ))}
            </fieldset>
          )}
          {!props.hasOrder && reason && (reason.exigeObservacao || reason.exigeFoto) && (
            <>
              {reason.exigeObservacao && (
                <label>
                  Observação
                  <textarea
                    name="observacao"
                    rows={3}
                    maxLength={500}
                    value={note.value}
                    onInput={(e) => {
                      note.value = e.currentTarget.value;
                    }}
                  />
                </label>
              )}
              {reason.exigeFoto && (
                <label>
                  Foto
                  <input
                    type="file"
                    name="foto"
                    accept="image/*"
                    capture="environment"
                    onChange={(e) => void takePhoto(e.currentTarget.files?.[0])}
                  />
                </label>
              )}
              {photoState.value && <p role="status">{photoState.value}</p>}
            </>
          )}
          {!props.hasOrder && reason && !reason.exigeObservacao && (
            <label>
              Observação (opcional)
              <textarea
                name="observacao"
                rows={2}
                maxLength={500}
                value={note.value}
                onInput={(e) => {
                  note.value = e.currentTarget.value;
                }}
              />
            </label>
          )}
          {error.value && (
            <p class="field-error" role="alert">
              {error.value}
            </p>
          )}
          <footer class="form-actions">
            <button type="button" class="secondary" onClick={props.onCancel}>
              Cancelar
            </button>
            <button
              type="submit"
              aria-busy={busy.value ? 'true' : undefined}
              disabled={busy.value || (!props.hasOrder && reasons === null)}
            >
              Confirmar saída
            </button>
          </footer>
        </form>
      </article>
    </dialog>
  );
}
