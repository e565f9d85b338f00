// A new ticket about one order: one of the representative's Campo orders on this device, or an
// older ERP order by its number. Written offline; the draft is kept while typing.

import type { SyncRefusal } from '@campo/shared';
import { TICKET_MESSAGE_MAX, TICKET_SUBJECT_MAX, type TicketCreate, ZTicketCreate } from '@campo/shared';
import { formatBrl } from '@campo/shared/format';
import { useSignal } from '@preact/signals';
import { useLocation } from 'preact-iso';
import { store } from '../../data/store.ts';
import type { TicketDoc } from '../../db/schemas.ts';
import { currentUser } from '../../session/session.ts';
import { draftOf, type NewTicketDraft, readTicketDraft, usePlacedOrders, writeTicketDraft } from './data.ts';

type Errors = Partial<Record<'pedido' | 'assunto' | 'mensagem' | 'form', string>>;

function validate(d: NewTicketDraft): { body: TicketCreate } | { errors: Errors } {
  const errors: Errors = {};
  const input: Record<string, unknown> = { assunto: d.assunto, mensagem: d.mensagem };
  if (d.kind === 'campo') {
    if (d.idPedido === '') errors.pedido = 'Escolha o pedido.';
    else input.idPedido = Number(d.idPedido);
  } else {
    const n = d.numPedErp.trim();
    if (!/^\d{1,9}$/.test(n) || Number(n) <= 0) errors.pedido = 'Informe o número do pedido no ERP (só números).';
    else input.numPedErp = Number(n);
  }
  const parsed = ZTicketCreate.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (field === 'assunto' && !errors.assunto) errors.assunto = `Assunto: ${issue.message}.`;
      if (field === 'mensagem' && !errors.mensagem) errors.mensagem = `Mensagem: ${issue.message}.`;
    }
  }
  if (Object.keys(errors).length || !parsed.success) return { errors };
  return { body: parsed.data };
}

/**
 * A new ticket, or (`fixing`) a ticket the server could not open, corrected and sent again
 * under its own id so a retry never opens two.
 */
export function NewTicket(props: { fixing?: TicketDoc }) {
  const { route } = useLocation();
  const orders = usePlacedOrders();
  const fixing = props.fixing;
  const draft = useSignal<NewTicketDraft>(
    fixing ? draftOf(fixing, fixing.mensagens[0]?.texto ?? '') : readTicketDraft(),
  );
  const errors = useSignal<Errors>({});
  const busy = useSignal(false);

  const set = (field: keyof NewTicketDraft) => (e: Event) => {
    const value = (e.currentTarget as HTMLInputElement).value;
    draft.value = { ...draft.value, [field]: value };
    // The new-ticket draft survives a reload; a correction starts from the ticket itself.
    if (!fixing) writeTicketDraft(draft.value);
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    const result = validate(draft.value);
    if ('errors' in result) {
      errors.value = result.errors;
      return;
    }
    const outbox = store.peek()?.outbox;
    if (!outbox) {
      errors.value = { form: 'Os dados deste aparelho ainda estão abrindo. Tente de novo em instantes.' };
      return;
    }
    busy.value = true;
    try {
      if (fixing) {
        await outbox.fixTicket(fixing.id, result.body);
        route(`/sac/${encodeURIComponent(fixing.id)}`);
        return;
      }
      const id = await outbox.createTicket({ ...result.body, autorNome: currentUser.peek()?.name ?? 'Representante' });
      writeTicketDraft(null);
      route(`/sac/${encodeURIComponent(id)}`);
    } catch (err) {
      errors.value = { form: err instanceof Error ? err.message : 'Não foi possível abrir o chamado.' };
      busy.value = false;
    }
  };

  const d = draft.value;
  const err = errors.value;
  return (
    <section>
      <h1>{fixing ? 'Corrigir chamado' : 'Novo chamado'}</h1>
      {fixing?.recusa && (
        <p class="ticket-refusal" role="note">
          <strong>Não foi aberto:</strong> {(fixing.recusa as SyncRefusal).message}
        </p>
      )}
      <form class="ticket-form" onSubmit={submit} noValidate>
        <fieldset>
          <legend>Sobre qual pedido?</legend>
          <label>
            <input type="radio" name="kind" value="campo" checked={d.kind === 'campo'} onChange={set('kind')} />
            Um pedido do Campo
          </label>
          <label>
            <input type="radio" name="kind" value="erp" checked={d.kind === 'erp'} onChange={set('kind')} />
            Um pedido antigo do ERP, pelo número
          </label>
        </fieldset>
        {d.kind === 'campo' ? (
          <label>
            Pedido
            <select
              name="idPedido"
              value={d.idPedido}
              onChange={set('idPedido')}
              aria-invalid={err.pedido ? 'true' : undefined}
              aria-describedby={err.pedido ? 'sac-pedido-erro' : undefined}
            >
              <option value="">{orders.length ? 'Escolha o pedido…' : 'Nenhum pedido enviado neste aparelho'}</option>
              {orders.map((o) => (
                <option key={o.id} value={String(o.id)}>
                  Pedido {o.numPedSar} · {o.nomeCliente} · {formatBrl(o.valorTotal)}
                </option>
              ))}
            </select>
            {err.pedido && (
              <small id="sac-pedido-erro" class="field-error">
                {err.pedido}
              </small>
            )}
          </label>
        ) : (
          <label>
            Número do pedido no ERP
            <input
              name="numPedErp"
              inputMode="numeric"
              autoComplete="off"
              value={d.numPedErp}
              onInput={set('numPedErp')}
              aria-invalid={err.pedido ? 'true' : undefined}
              aria-describedby={err.pedido ? 'sac-pedido-erro' : undefined}
            />
            {err.pedido && (
              <small id="sac-pedido-erro" class="field-error">
                {err.pedido}
              </small>
            )}
          </label>
        )}
        <label>
          Assunto
          <input
            name="assunto"
            maxLength={TICKET_SUBJECT_MAX}
            value={d.assunto}
            onInput={set('assunto')}
            aria-invalid={err.assunto ? 'true' : undefined}
            aria-describedby={err.assunto ? 'sac-assunto-erro' : undefined}
          />
          {err.assunto && (
            <small id="sac-assunto-erro" class="field-error">
              {err.assunto}
            </small>
          )}
        </label>
        <label>
          Mensagem
          <textarea
            name="mensagem"
            rows={5}
            maxLength={TICKET_MESSAGE_MAX}
            value={d.mensagem}
            onInput={set('mensagem')}
            aria-invalid={err.mensagem ? 'true' : undefined}
            aria-describedby={err.mensagem ? 'sac-mensagem-erro' : undefined}
          />
          {err.mensagem && (
            <small id="sac-mensagem-erro" class="field-error">
              {err.mensagem}
            </small>
          )}
        </label>
        {err.form && (
          <p class="field-error" role="alert">
            {err.form}
          </p>
        )}
        {Object.keys(err).length > 0 && !err.form && (
          <p class="field-error" role="alert">
            Corrija os campos marcados.
          </p>
        )}
        <div class="form-actions">
          <a href={fixing ? `/sac/${encodeURIComponent(fixing.id)}` : '/sac'} class="link-button secondary">
            Voltar
          </a>
          <button type="submit" disabled={busy.value} aria-busy={busy.value ? 'true' : undefined}>
            {fixing ? 'Enviar de novo' : 'Abrir chamado'}
          </button>
        </div>
      </form>
    </section>
  );
}
