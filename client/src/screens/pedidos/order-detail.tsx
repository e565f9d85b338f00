// /pedidos/<id>: one order, by its document id (the Idempotency-Key, or pedido-<id> for an
// order made online): lines, totals, status history, when refused or rejected why, and what
// the ERP invoiced of it (its document carries the invoices since store version 5).
import type { Order } from '@campo/shared';
import { useState } from 'preact/hooks';
import { useCompany } from '../../data/company.ts';
import type { OutboxEntry } from '../../db/outbox.ts';
import { AddressText, DocumentText } from '../../kit/document-text.tsx';
import { InvoicesPanel } from '../../kit/invoices.tsx';
import { formatDateTime, labelOf, STATUS_LABEL } from '../../kit/order-format.ts';
import { RepeatLink } from '../../kit/repeat-link.tsx';
import { LinesTable } from './lines-table.tsx';
import { useShownOrder } from './order-view.ts';
import { orderTitle } from './orders-list.tsx';
import { ReasonList } from './reasons.tsx';
import { OutboxActions } from './refused-actions.tsx';

function History(props: { order: Order }) {
  return (
    <section aria-labelledby="historico-title">
      <h2 id="historico-title">Histórico</h2>
      <ol class="history">
        {props.order.historico.map((h) => (
          <li key={`${h.em}-${h.para}`}>
            <strong>{h.de === null ? `Criado: ${STATUS_LABEL[h.para].toLowerCase()}` : STATUS_LABEL[h.para]}</strong>{' '}
            <small>
              {formatDateTime(h.em)} · {h.usuario === 'erp' ? 'ERP' : (h.nomeUsuario ?? h.usuario)}
            </small>
            {h.motivo ? <p>Motivo: {h.motivo}</p> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Shares the order's PDF (Web Share with a file), or downloads it where sharing files is not possible. */
function ShareButton(props: { order: Order; clientName: string }) {
  const company = useCompany();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const share = async () => {
    setBusy(true);
    setMessage(null);
    try {
      const { shareOrderPdf } = await import('../../pdf/share-order.ts');
      // The client named as on the screen (the one rule), in the PDF too.
      const how = await shareOrderPdf({ ...props.order, nomeCliente: props.clientName }, company ?? null);
      setMessage(how === 'shared' ? 'PDF compartilhado.' : how === 'downloaded' ? 'PDF baixado.' : null);
    } catch (err) {
      console.error('pdf', err);
      setMessage('Não foi possível gerar o PDF. Tente de novo ou use Imprimir.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" onClick={() => void share()} aria-busy={busy ? 'true' : undefined} disabled={busy}>
        Compartilhar
      </button>
      {message ? <p role="status">{message}</p> : null}
    </>
  );
}

export function OrderDetail(props: { id: string; entry: OutboxEntry | null | undefined }) {
  const { entry } = props;
  const shown = useShownOrder(entry);
  if (entry === undefined) return <p aria-busy="true">Abrindo o pedido…</p>;
  if (entry === null) {
    return (
      <section>
        <h1>Pedido não encontrado</h1>
        <p>
          Este pedido não está neste aparelho. Pedidos decididos há mais de 90 dias saem do aparelho; peça ao escritório
          se precisar dele.
        </p>
        <a href="/pedidos">Voltar aos pedidos</a>
      </section>
    );
  }
  const order = entry.order;
  const printable = order !== null && (order.status === 'approved' || order.status === 'invoiced');
  return (
    <section class="order-detail">
      <p>
        <a href="/pedidos">← Pedidos</a>
      </p>
      <h1>{orderTitle(entry)}</h1>
      <p>
        <span class={`badge status-${entry.state === 'sent' ? 'sent' : entry.status}`}>{labelOf(entry)}</span>
      </p>
      {entry.state === 'queued' ? (
        <p role="status">Na fila deste aparelho desde {formatDateTime(entry.queuedAt)}: segue quando houver conexão.</p>
      ) : null}
      {entry.state === 'sent' ? <p role="status">Enviando ao servidor…</p> : null}
      {entry.state === 'refused' ? (
        <article class="refusal" aria-labelledby="recusa-title">
          <h2 id="recusa-title">Recusado pelo servidor</h2>
          <ReasonList reasons={entry.reasons} />
          <OutboxActions entry={entry} afterDiscard="/pedidos" />
        </article>
      ) : entry.state === 'queued' ? (
        <OutboxActions entry={entry} afterDiscard="/pedidos" />
      ) : null}
      {order?.status === 'rejected' ? (
        <article class="refusal" aria-labelledby="rejeicao-title">
          <h2 id="rejeicao-title">Rejeitado pelo supervisor</h2>
          <p>{order.motivoRejeicao ?? 'Sem motivo informado.'}</p>
        </article>
      ) : null}
      {shown ? (
        <>
          <dl class="order-facts">
            <dt>Cliente</dt>
            <dd>
              {shown.clientName}
              {shown.clientDocument ? (
                <>
                  {' · '}
                  <DocumentText value={shown.clientDocument} />
                </>
              ) : null}
            </dd>
            <dt>Entrega</dt>
            <dd>{shown.address ? <AddressText text={shown.address} /> : 'Endereço do cadastro do cliente'}</dd>
            {shown.paymentTerm ? (
              <>
                <dt>Pagamento</dt>
                <dd>{shown.paymentTerm}</dd>
              </>
            ) : null}
            {shown.observacao ? (
              <>
                <dt>Observação</dt>
                <dd>{shown.observacao}</dd>
              </>
            ) : null}
            {order?.numPedidoErp != null ? (
              <>
                <dt>Pedido no ERP</dt>
                <dd>{order.numPedidoErp}</dd>
              </>
            ) : null}
            {order ? (
              <>
                <dt>Recebido em</dt>
                <dd>{formatDateTime(order.criadoEm)}</dd>
              </>
            ) : null}
          </dl>
          {shown.preview ? (
            <p>
              <small>Valores calculados neste aparelho; o servidor confirma quando receber o pedido.</small>
            </p>
          ) : null}
          <LinesTable order={shown} showCeiling />
        </>
      ) : null}
      {printable ? (
        <div class="order-actions">
          <ShareButton order={order} clientName={shown?.clientName ?? order.nomeCliente} />
          <a class="button-link outline" href={`/pedidos/${encodeURIComponent(entry.id)}/imprimir`}>
            Imprimir
          </a>
        </div>
      ) : null}
      {order || entry.draft ? (
        <p class="order-actions">
          <RepeatLink idCliente={order?.idCliente ?? (entry.draft?.idCliente as number)} from={entry.id} />
        </p>
      ) : null}
      {/* A document pulled before version 5's refetch has no invoices yet. */}
      {order?.invoices ? <InvoicesPanel order={order} /> : null}
      {order ? <History order={order} /> : null}
    </section>
  );
}
