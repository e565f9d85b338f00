import { formatMoney, formatPercent, formatQuantity } from '../../kit/order-format.ts';
import type { ShownOrder } from './order-view.ts';

const dash = '—';

/**
 * The lines and totals of an order: a table on paper and on wide screens, one card per line on
 * a phone (pedidos.css lays the rows out as cards and writes each cell's `data-label` before
 * it), so nothing scrolls sideways at 360 px.
 */
export function LinesTable(props: { order: ShownOrder; showCeiling?: boolean }) {
  const { order } = props;
  return (
    <>
      <div class="table-scroll">
        <table class="striped lines-table">
          <caption>Itens do pedido</caption>
          <thead>
            <tr>
              <th scope="col">Produto</th>
              <th scope="col">Qtd.</th>
              <th scope="col">Preço tabela</th>
              <th scope="col">Desc.</th>
              <th scope="col">Unitário</th>
              <th scope="col">Total</th>
              {props.showCeiling ? <th scope="col">Teto</th> : null}
            </tr>
          </thead>
          <tbody>
            {order.lines.map((l) => (
              <tr key={l.seq}>
                <th scope="row">
                  {l.description}
                  <small> {l.code}</small>
                </th>
                <td data-label="Qtd.">{l.quantity !== null ? formatQuantity(l.quantity) : dash}</td>
                <td data-label="Preço tabela">{l.listPrice !== null ? formatMoney(l.listPrice) : dash}</td>
                <td data-label="Desc.">{l.discountPercent !== null ? formatPercent(l.discountPercent) : dash}</td>
                <td data-label="Unitário">{l.unitPrice !== null ? formatMoney(l.unitPrice) : dash}</td>
                <td data-label="Total">{l.total !== null ? formatMoney(l.total) : dash}</td>
                {props.showCeiling ? (
                  <td data-label="Teto">
                    {l.ceilingPercent !== null ? formatPercent(l.ceilingPercent) : dash}
                    {l.rule ? <small> regra "{l.rule}"</small> : null}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl class="totals-list">
        <dt>Bruto</dt>
        <dd>{formatMoney(order.totals.gross)}</dd>
        <dt>Desconto</dt>
        <dd>{formatMoney(order.totals.discount)}</dd>
        <dt>Total</dt>
        <dd>
          <strong>{formatMoney(order.totals.total)}</strong>
        </dd>
      </dl>
    </>
  );
}
