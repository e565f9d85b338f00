import type { SyncOrderReason } from '@campo/shared';
import { formatPercent } from '../../kit/order-format.ts';

/** Why the server refused an order: one item per reason, with the line, the ceiling and the rule. */
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
        </li>
      ))}
    </ul>
  );
}
