// What the ERP invoiced of an approved order, in the supervisor's review (GET /orders/{id}
// answers it; online, as the review is): each invoice, cancelled ones marked, and, when the
// order is invoiced in part, which lines are still open.
import type { OrderDetail } from '@campo/shared';
import { brl, day, num } from '../../kit/format.ts';

/** The value of the invoices that count (not cancelled), in cents-exact BRL. */
export function invoicedValue(invoices: OrderDetail['invoices']): number {
  return Math.round(invoices.reduce((sum, i) => sum + (i.cancelada ? 0 : i.valor), 0) * 100) / 100;
}

type Line = OrderDetail['itens'][number];
type OpenLine = Line & { quantidadeAberta: number };

/**
 * The lines still to invoice, once the ERP invoiced some of the order: none before any
 * invoice, and none when the ERP keeps no invoice lines (unknown is shown as nothing).
 */
export function openLines(order: Pick<OrderDetail, 'invoices' | 'itens'>): OpenLine[] {
  if (!order.invoices.some((i) => !i.cancelada)) return [];
  return order.itens.filter((l): l is OpenLine => l.quantidadeAberta !== null && l.quantidadeAberta > 0);
}

export function InvoicesPanel(props: { order: OrderDetail }) {
  const { invoices } = props.order;
  if (invoices.length === 0) return null;
  const open = openLines(props.order);
  return (
    <article aria-labelledby="notas-titulo">
      <h2 id="notas-titulo">Notas fiscais</h2>
      <ul>
        {invoices.map((i) => (
          <li key={`${i.serie}-${i.numero}`}>
            NF {i.numero} série {i.serie} · {day(i.emissao)} · {brl(i.valor)}
            {i.cancelada && (
              <>
                {' '}
                <span class="mg-chip bad">Cancelada</span>
              </>
            )}
          </li>
        ))}
      </ul>
      <p>Faturado: {brl(invoicedValue(invoices))}</p>
      {open.length > 0 && (
        <>
          <h3>Ainda não faturado</h3>
          <ul>
            {open.map((l) => (
              <li key={l.seq}>
                {l.descricao}: {num(l.quantidadeAberta)} de {num(l.quantidade)}
              </li>
            ))}
          </ul>
        </>
      )}
    </article>
  );
}
