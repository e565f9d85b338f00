// One ticket: the thread, a reply (its draft kept per ticket while typing) and the cancel.
import type { SyncRefusal, TicketStatus } from '@campo/shared';
import { useSignal } from '@preact/signals';
import { useLocation } from 'preact-iso';
import { map } from 'rxjs';
import { useStoreObservable } from '../../data/hooks.ts';
import { store } from '../../data/store.ts';
import type { TicketDoc } from '../../db/schemas.ts';
import { currentUser } from '../../session/session.ts';
import {
  draftOf,
  formatWhen,
  isClosed,
  readReplyDraft,
  STATUS_HINTS,
  STATUS_LABELS,
  writeReplyDraft,
  writeTicketDraft,
} from './data.ts';

const refusalOf = (r: unknown) => (r ?? null) as SyncRefusal | null;

export function Thread(props: { ticket: TicketDoc }) {
  const { route } = useLocation();
  const t = props.ticket;
  const refused = refusalOf(t.recusa);
  const reply = useSignal(readReplyDraft(t.id));
  const error = useSignal<string | null>(null);
  const busy = useSignal(false);
  const confirmCancel = useSignal(false);
  const status = t.status as TicketStatus;
  const closed = isClosed(status);
  // Still on the phone: never held by the server, or a change (a reply, the cancel) whose push
  // has not been answered. Said plainly, so nobody tells the client "I already sent it".
  const unsent = useStoreObservable(
    (s) => s.replication.unsent$.pipe(map((u) => u.chamados?.has(t.id) ?? false)),
    false,
    [t.id],
  );

  const outbox = () => {
    const o = store.peek()?.outbox;
    if (!o) throw new Error('Os dados deste aparelho ainda estão abrindo. Tente de novo em instantes.');
    return o;
  };

  const send = async (e: Event) => {
    e.preventDefault();
    if (reply.value.trim() === '') {
      error.value = 'Escreva a mensagem antes de enviar.';
      return;
    }
    busy.value = true;
    error.value = null;
    try {
      await outbox().replyTicket(t.id, reply.value, currentUser.peek()?.name ?? 'Representante');
      reply.value = '';
      writeReplyDraft(t.id, '');
    } catch (err) {
      error.value = err instanceof Error ? err.message : 'Não foi possível enviar a mensagem.';
    } finally {
      busy.value = false;
    }
  };

  const cancel = async () => {
    busy.value = true;
    try {
      await outbox().cancelTicket(t.id);
      confirmCancel.value = false;
    } catch (err) {
      error.value = err instanceof Error ? err.message : 'Não foi possível cancelar o chamado.';
    } finally {
      busy.value = false;
    }
  };

  // What the server did not take stays on the device until the representative decides.
  const act = async (action: () => Promise<void>, failure: string) => {
    busy.value = true;
    error.value = null;
    try {
      await action();
    } catch (err) {
      error.value = err instanceof Error ? err.message : failure;
    } finally {
      busy.value = false;
    }
  };
  const discardTicket = () =>
    act(async () => {
      await outbox().discardTicket(t.id);
      route('/sac');
    }, 'Não foi possível descartar o chamado.');
  const discardMessage = (messageId: string) =>
    act(() => outbox().discardTicketMessage(t.id, messageId), 'Não foi possível descartar a mensagem.');
  // The refused text, the subject and the order go to the new-ticket form.
  const reopenWith = (texto: string) => {
    writeTicketDraft(draftOf(t, texto));
    route('/sac/novo');
  };

  return (
    <section class="thread">
      <p>
        <a href="/sac">← Chamados</a>
      </p>
      <h1>{t.assunto}</h1>
      <p class="thread-about">
        {t.idChamado !== null ? `Chamado ${t.idChamado}` : 'Chamado aguardando envio'}
        {t.numPedSar !== null && ` · Pedido ${t.numPedSar}`}
        {t.numPedErp !== null && ` · Pedido ERP ${t.numPedErp}`}
        {t.nomeCliente && ` · ${t.nomeCliente}`}
      </p>
      {!refused && (t.idChamado === null || unsent) && (
        <p class="notice ticket-unsent" role="status">
          {t.idChamado === null
            ? 'Ainda não enviado: este chamado está só neste aparelho e segue sozinho quando houver conexão.'
            : 'Há mudanças deste chamado ainda não enviadas: seguem sozinhas quando houver conexão.'}
        </p>
      )}
      {refused && t.idChamado === null && (
        <div class="ticket-refusal">
          <p>
            <strong>Chamado não aberto:</strong> {refused.message}
          </p>
          <p class="ticket-refusal-hint">Corrija e envie de novo, ou descarte-o deste aparelho.</p>
          <div class="ticket-refusal-actions">
            <a class="link-button" href={`/sac/${encodeURIComponent(t.id)}/corrigir`}>
              Corrigir
            </a>
            <button type="button" class="outline secondary" disabled={busy.value} onClick={() => void discardTicket()}>
              Descartar
            </button>
          </div>
        </div>
      )}
      <p>
        Situação:{' '}
        <strong class={`ticket-status status-${status}`}>
          {STATUS_LABELS[status] ?? t.status} ({STATUS_HINTS[status]})
        </strong>
      </p>
      <ol class="messages" aria-label="Mensagens">
        {t.mensagens.map((m) => {
          const recusa = refusalOf(m.recusa);
          const side = m.autorTipo === 'empresa' ? 'from-company' : 'from-rep';
          return (
            <li key={m.id} class={recusa ? `${side} refused` : side}>
              <p class="message-author">
                <strong>{m.autorTipo === 'empresa' ? `${m.autorNome} (empresa)` : m.autorNome}</strong>{' '}
                <time dateTime={m.criadoEm}>{formatWhen(m.criadoEm)}</time>
              </p>
              <p class="message-text">{m.texto}</p>
              {recusa && (
                <div class="message-refusal">
                  <p>
                    <strong>Não enviada:</strong> {recusa.message}
                  </p>
                  <div class="ticket-refusal-actions">
                    <button type="button" disabled={busy.value} onClick={() => reopenWith(m.texto)}>
                      Abrir novo chamado com este texto
                    </button>
                    <button
                      type="button"
                      class="outline secondary"
                      disabled={busy.value}
                      onClick={() => void discardMessage(m.id)}
                    >
                      Descartar
                    </button>
                  </div>
                </div>
              )}
            </li>
          );
        })}
      </ol>
      {closed ? (
        <p>Este chamado está encerrado e não recebe novas mensagens.</p>
      ) : (
        <>
          <form onSubmit={send} noValidate>
            <label>
              Sua resposta
              <textarea
                name="resposta"
                rows={4}
                maxLength={4000}
                value={reply.value}
                onInput={(e) => {
                  reply.value = e.currentTarget.value;
                  writeReplyDraft(t.id, reply.value);
                }}
                aria-invalid={error.value ? 'true' : undefined}
                aria-describedby={error.value ? 'resposta-erro' : undefined}
              />
            </label>
            {error.value && (
              <p id="resposta-erro" class="field-error" role="alert">
                {error.value}
              </p>
            )}
            <div class="form-actions">
              <button type="submit" disabled={busy.value} aria-busy={busy.value ? 'true' : undefined}>
                Enviar resposta
              </button>
            </div>
          </form>
          <div class="danger-zone">
            {confirmCancel.value ? (
              <>
                <p>Cancelar este chamado? A empresa deixa de tratá-lo.</p>
                <div class="form-actions">
                  <button type="button" class="secondary" onClick={() => (confirmCancel.value = false)}>
                    Manter aberto
                  </button>
                  <button type="button" class="danger" disabled={busy.value} onClick={() => void cancel()}>
                    Sim, cancelar
                  </button>
                </div>
              </>
            ) : (
              <button type="button" class="outline danger" onClick={() => (confirmCancel.value = true)}>
                Cancelar chamado
              </button>
            )}
          </div>
        </>
      )}
    </section>
  );
}
