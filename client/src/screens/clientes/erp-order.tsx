// An order placed in the ERP (telesales, counter), opened from the client's history or the
// recent orders: its lines come from the server once and stay on the device (data/erp-orders),
// so without signal the page shows what it last fetched, or says the lines wait for a
// connection. "Repetir pedido" starts a cart with its products and quantities at today's
// prices and rules, as for a Campo order (pedidos/repeat.tsx).
import type { ErpOrder } from '@campo/shared';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, errorMessage } from '../../api.ts';
import { cachedErpOrder, erpRepeatId, rememberErpOrder } from '../../data/erp-orders.ts';
import { formatDate, formatMoney } from '../../kit/field-format.ts';
import { RepeatLink } from '../../kit/repeat-link.tsx';

const STATUS_LABEL: Record<string, string> = {
  approved: 'Aprovado',
  invoiced: 'Faturado',
  cancelled: 'Cancelado',
};

type State =
  | { kind: 'loading' }
  | { kind: 'offline' }
  | { kind: 'error'; message: string }
  | { kind: 'ok'; order: ErpOrder; stale: boolean };

function useErpOrder(idCliente: number, erpId: number): State {
  const [state, setState] = useState<State>(() => {
    const kept = cachedErpOrder(erpId);
    return kept && kept.idCliente === idCliente ? { kind: 'ok', order: kept, stale: true } : { kind: 'loading' };
  });
  useEffect(() => {
    const abort = new AbortController();
    api
      .GET('/clients/{id}/erp-orders/{erpId}', { params: { path: { id: idCliente, erpId } }, signal: abort.signal })
      .then((order) => {
        rememberErpOrder(order);
        setState({ kind: 'ok', order, stale: false });
      })
      .catch((err: unknown) => {
        if (abort.signal.aborted) return;
        // What the device kept stays on screen; only a page with nothing to show says why.
        setState((prev) =>
          prev.kind === 'ok'
            ? prev
            : err instanceof ApiError && err.status === 0
              ? { kind: 'offline' }
              : { kind: 'error', message: errorMessage(err) },
        );
      });
    return () => abort.abort();
  }, [idCliente, erpId]);
  return state;
}

export function ErpOrderPage(props: { idCliente: number; erpId: number }) {
  const state = useErpOrder(props.idCliente, props.erpId);
  const back = `/clientes/${props.idCliente}`;
  if (state.kind !== 'ok') {
    return (
      <article class="erp-order">
        <a href={back}>← Cliente</a>
        <h1>Pedido do ERP</h1>
        {state.kind === 'loading' && <p aria-busy="true">Buscando o pedido no servidor…</p>}
        {state.kind === 'offline' && (
          <p class="notice">Sem conexão: os itens deste pedido do ERP ficam disponíveis quando houver conexão.</p>
        )}
        {state.kind === 'error' && <p class="error">Não foi possível abrir o pedido ({state.message}).</p>}
      </article>
    );
  }
  const { order } = state;
  return (
    <article class="erp-order">
      <a href={back}>← Cliente</a>
      <h1>
        Pedido {order.number ?? '—'} <span class="badge">ERP</span>
      </h1>
      <p class="muted">Feito no ERP (televendas ou balcão), não pelo Campo.</p>
      <dl class="facts">
        <dt>Data</dt>
        <dd>{formatDate(order.date)}</dd>
        <dt>Situação</dt>
        <dd>{STATUS_LABEL[order.status] ?? order.status}</dd>
        <dt>Total</dt>
        <dd>{formatMoney(order.total)}</dd>
      </dl>
      <p class="order-actions">
        <RepeatLink idCliente={order.idCliente} from={erpRepeatId(order.erpId ?? props.erpId)} />
      </p>
      <h2>Itens</h2>
      {order.lines.length === 0 ? (
        <p>O ERP não tem itens neste pedido.</p>
      ) : (
        <ul class="order-list">
          {order.lines.map((l) => (
            <li key={l.seq}>
              <span>
                <strong>{l.description ?? `Produto ${l.idProduto}`}</strong> <span class="muted">{l.code}</span>
              </span>
              <span>{formatMoney(l.total)}</span>
              <span>
                {l.quantity.toLocaleString('pt-BR')} {l.unit ?? ''} × {formatMoney(l.unitPrice)}
              </span>
            </li>
          ))}
        </ul>
      )}
      {state.stale && <p class="hint">Cópia guardada neste aparelho.</p>}
    </article>
  );
}
