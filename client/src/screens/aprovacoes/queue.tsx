import type { OrderSummary } from '@campo/shared';
import { plural } from '@campo/shared/format';
import { useState } from 'preact/hooks';
import { brl, dateTime } from '../../kit/format.ts';
import { Pager } from '../../kit/pager.tsx';
import { useRepName } from '../../kit/rep-name.ts';
import { useApi } from '../../kit/use-api.ts';
import { creditMark } from './credit.ts';

const PAGE_SIZE = 20;

/** An order beyond the client's credit, in words (not colour alone) and with the amount. */
function CreditMark(props: { order: OrderSummary }) {
  const mark = creditMark(props.order.credit, props.order.valorTotal);
  return (
    mark && (
      <span class="mg-row">
        <span class="mg-chip bad">{mark}</span>
      </span>
    )
  );
}

export function ApprovalQueue() {
  const repName = useRepName();
  const [page, setPage] = useState(1);
  const { data, error, loading, reload } = useApi('/orders', {
    params: { query: { status: 'pending_approval', page, pageSize: PAGE_SIZE } },
  });

  return (
    <section aria-labelledby="aprovacoes-titulo">
      <h1 id="aprovacoes-titulo">Aprovações</h1>
      {error && (
        <p role="alert" class="error">
          {error}{' '}
          <button type="button" class="secondary outline inline-btn" onClick={reload}>
            Tentar de novo
          </button>
        </p>
      )}
      {loading && !data && <p aria-busy="true">Carregando pedidos…</p>}
      {data && (
        <>
          <p class="mg-muted" role="status">
            {data.total === 0
              ? 'Nenhum pedido aguardando aprovação.'
              : `${plural(data.total, 'pedido aguardando', 'pedidos aguardando')} aprovação.`}
          </p>
          <ul class="mg-list" aria-label="Pedidos aguardando aprovação">
            {data.items.map((o) => (
              <li key={o.id}>
                <a class="mg-card" href={`/aprovacoes/${o.id}`}>
                  <span class="mg-row">
                    <strong>Pedido nº {o.numPedSar}</strong>
                    <strong>{brl(o.valorTotal)}</strong>
                  </span>
                  <span class="mg-row">
                    <span>{o.nomeCliente}</span>
                    <span class="mg-muted">
                      {repName(o.codVendedor)} · {dateTime(o.criadoEm)}
                    </span>
                  </span>
                  <CreditMark order={o} />
                </a>
              </li>
            ))}
          </ul>
          <Pager page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} />
        </>
      )}
    </section>
  );
}
