// ERP orders (telesales, counter) of the representative's portfolio in the last 7 days, beside
// the device's own: the ERP sells to the same clients, and a rep who does not see it repeats a
// visit for nothing. They come with the dashboard (GET /dashboard/rep), whose last answer the
// device keeps, so the list shows offline too, with its date.
import type { RepDashboard } from '@campo/shared';
import { useEffect, useState } from 'preact/hooks';
import { type CachedDashboard, readCachedDashboard, refreshDashboard } from '../../data/rep-dashboard.ts';
import { formatMoney } from '../../kit/order-format.ts';

const STATUS: Record<RepDashboard['pedidosErpRecentes'][number]['status'], string> = {
  pending_approval: 'Aguardando aprovação',
  approved: 'Aprovado',
  invoiced: 'Faturado',
  rejected: 'Rejeitado',
  cancelled: 'Cancelado',
};

const day = new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit' });

function useDashboard(): CachedDashboard | null {
  const [cached, setCached] = useState(readCachedDashboard);
  useEffect(() => {
    const ctrl = new AbortController();
    refreshDashboard(ctrl.signal)
      .then(setCached)
      // Offline or refused: the last answer kept stays on screen.
      .catch(() => undefined);
    return () => ctrl.abort();
  }, []);
  return cached;
}

export function ErpRecentOrders() {
  const c = useDashboard();
  const orders = c?.data.pedidosErpRecentes ?? [];
  return (
    <section class="erp-recent" aria-labelledby="erp-recentes-titulo">
      <h2 id="erp-recentes-titulo">Pedidos feitos no ERP (últimos 7 dias)</h2>
      {c === null ? (
        <p class="hint">Os pedidos feitos no ERP (televendas, balcão) aparecem quando houver conexão.</p>
      ) : orders.length === 0 ? (
        <p>Nenhum pedido dos seus clientes feito no ERP nos últimos 7 dias.</p>
      ) : (
        <ul class="order-list">
          {orders.map((o) => (
            <li key={o.erpId}>
              <article aria-labelledby={`pedido-erp-${o.erpId}`} class="order-card">
                <header>
                  <h3 id={`pedido-erp-${o.erpId}`}>
                    <a href={`/clientes/${o.idCliente}/pedidos-erp/${o.erpId}`}>Pedido nº {o.numero ?? '—'}</a>
                  </h3>
                  <span class="badge">ERP</span>
                </header>
                <p>{o.nomeCliente ?? `Cliente ${o.idCliente}`}</p>
                <p class="order-meta">
                  <span>{STATUS[o.status]}</span>
                  <span>{formatMoney(o.valorTotal)}</span>
                  <span>{day.format(new Date(o.emitidoEm))}</span>
                </p>
              </article>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
