import type { SyncOrderReason } from '@campo/shared';
import { formatMoney, formatPercent } from '../../kit/order-format.ts';

/**
 * Why the server refused an order: one item per reason, with the line, the ceiling and the rule,
 * and the figures of a flex balance or a credit that did not cover it.
 */
export function ReasonList(props: { reasons: readonly SyncOrderReason[] }) {
  return (
    <ul class="reasons">
      {props.reasons.map((r, i) => (
        <li key={`${r.code}-${r.line ?? i}`}>
          {r.message}
          {r.code === 'DISCOUNT_ABOVE_CEILING' && r.tetoPercent !== undefined ? (
            <small>
              {r.line !== undefined ? `Linha ${r.line}: ` : ''}
              pedido {formatPercent(r.descontoPercent ?? 0)}, teto {formatPercent(r.tetoPercent)}
              {r.regra ? ` pela regra "${r.regra.descricao}"` : ' (sem regra que o eleve)'}.
            </small>
          ) : null}
          {r.code === 'FLEX_BALANCE_INSUFFICIENT' && r.flex ? (
            <small>
              {r.line !== undefined ? `Linha ${r.line}: ` : ''}
              usaria {formatMoney(r.flex.linha)} do saldo flex; o pedido precisa de {formatMoney(r.flex.necessario)} e o
              saldo é {formatMoney(r.flex.saldo)}.
            </small>
          ) : null}
          {r.code === 'CREDIT_LIMIT_EXCEEDED' && r.credit ? (
            <small>
              Limite {formatMoney(r.credit.limit)} · títulos em aberto {formatMoney(r.credit.openReceivables)} · pedidos
              em aberto {formatMoney(r.credit.openOrders)} · disponível {formatMoney(r.credit.available)} · este pedido{' '}
              {formatMoney(r.credit.orderTotal)}.
            </small>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
