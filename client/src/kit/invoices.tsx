// What the ERP invoiced of an approved order: each invoice, cancelled ones marked, and, when
// the order is invoiced in part, which lines are still open. Shown in the supervisor's review
// (GET /orders/{id}, online) and on the representative's order page (the pedidos document,
// offline once synced), so it lives in the kit. Also a title's due date as both read it.
import type { OrderDetail } from '@campo/shared';
import { sumMoney } from '@campo/shared/money';
import { brl, day, num } from './format.ts';
import './kit.css';

/** The value of the invoices that count (not cancelled), in cents-exact BRL. */
export function invoicedValue(invoices: OrderDetail['invoices']): number {
  return sumMoney(invoices.map((i) => (i.cancelada ? 0 : i.valor)));
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

/** How a title's due date reads: overdue for how long, or when it falls due. */
export function dueText(t: { vencimento: string; diasAtraso: number }): string {
  if (t.diasAtraso === 1) return `vencido há 1 dia (${day(t.vencimento)})`;
  if (t.diasAtraso > 1) return `vencido há ${t.diasAtraso} dias (${day(t.vencimento)})`;
  return `vence em ${day(t.vencimento)}`;
}

/**
 * Days from a due date to `today` (both YYYY-MM-DD), 0 when not yet due. The phone counts them
 * from the client document's due dates, so the count stays right offline.
 */
export function daysOverdue(vencimento: string, today: string): number {
  const days = (Date.parse(`${today}T00:00:00Z`) - Date.parse(`${vencimento.slice(0, 10)}T00:00:00Z`)) / 86_400_000;
  return Number.isFinite(days) ? Math.max(Math.round(days), 0) : 0;
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
