import type { TicketStatus } from '@campo/shared';
import { useDownloadState } from '../../data/download-state.ts';
import { ticketNeedsAttention } from '../../db/outbox.ts';
import type { TicketDoc } from '../../db/schemas.ts';
import { InitialSyncNote } from '../../kit/store-gate.tsx';
import { formatWhen, STATUS_HINTS, STATUS_LABELS } from './data.ts';

function about(t: TicketDoc): string {
  if (t.numPedSar !== null) return `Pedido ${t.numPedSar}`;
  if (t.numPedErp !== null) return `Pedido ERP ${t.numPedErp}`;
  if (t.idPedido !== null) return `Pedido #${t.idPedido}`;
  return 'Pedido';
}

export function TicketList(props: { tickets: TicketDoc[] }) {
  const tickets = useDownloadState('chamados');
  return (
    <section>
      <div class="sac-head">
        <h1>SAC</h1>
        <a href="/sac/novo" class="link-button">
          Novo chamado
        </a>
      </div>
      <InitialSyncNote collection="chamados" what="os chamados" />
      {props.tickets.length === 0 ? (
        tickets?.done && <p>Nenhum chamado aberto. Use “Novo chamado” para falar com a empresa sobre um pedido.</p>
      ) : (
        <ul class="ticket-list">
          {props.tickets.map((t) => {
            const status = t.status as TicketStatus;
            return (
              <li key={t.id}>
                <a href={`/sac/${encodeURIComponent(t.id)}`} class="ticket-link">
                  <strong>{t.assunto}</strong>
                  <span class="ticket-meta">
                    {about(t)}
                    {t.nomeCliente ? ` · ${t.nomeCliente}` : ''} · {formatWhen(t.atualizadoEm)}
                  </span>
                </a>
                <span class={`ticket-status status-${status}`}>
                  {STATUS_LABELS[status] ?? t.status}
                  <span class="visually-hidden">: {STATUS_HINTS[status]}</span>
                </span>
                {ticketNeedsAttention(t) ? (
                  <span class="ticket-attention">
                    {t.recusa ? 'Não foi aberto: corrija ou descarte' : 'Mensagem não enviada: veja o chamado'}
                  </span>
                ) : (
                  t.idChamado === null && <span class="ticket-pending">Ainda não enviado</span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
