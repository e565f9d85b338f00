// What the flex screens share: a ledger entry in words, its signed amount, and the tenant's
// flex settings in one sentence (docs/credit-and-flex.md).
import type { FlexEntry, MoneyRules } from '@campo/shared';
import { formatBrl } from '@campo/shared/format';
import { dateTime } from '../../kit/format.ts';

const pctText = (n: number) => `${String(n).replace('.', ',')}%`;
const pointsText = (n: number) => `${String(n).replace('.', ',')} ${n === 1 ? 'ponto' : 'pontos'}`;

/** The settings as the representative reads them: what earns, and how far the balance takes a discount. */
export function rulesSentence(rules: MoneyRules): string {
  const share = rules.flexCreditSharePercent;
  const points = rules.flexMaxBeyondCeilingPoints;
  if (share > 0 && points > 0) {
    return `Você ganha ${pctText(share)} do que vender acima da tabela; pode passar o teto em até ${pointsText(points)} usando o saldo.`;
  }
  if (share > 0) {
    return `Você ganha ${pctText(share)} do que vender acima da tabela; a empresa não permite usar o saldo para passar o teto.`;
  }
  if (points > 0) {
    return `Você pode passar o teto em até ${pointsText(points)} usando o saldo; vender acima da tabela não aumenta o saldo.`;
  }
  return 'O flex está desligado na empresa: os pedidos não mexem no saldo.';
}

/** What the entry was, in words: "Pedido 1234 reservou", "Ajuste: campanha (por ger@x)". */
export function entryText(e: FlexEntry): string {
  const pedido = e.numPedSar === null ? 'Pedido' : `Pedido ${e.numPedSar}`;
  switch (e.tipo) {
    case 'reserva':
      return `${pedido} reservou`;
    case 'credito':
      return `${pedido} aprovado: ganhou`;
    case 'liberacao':
      // The ERP cancelling an approved order gives it back too, saying so ("cancelado no ERP").
      return `${pedido} ${e.motivo ?? 'rejeitado'}: devolvido`;
    case 'estorno':
      return `${pedido} ${e.motivo ?? 'cancelado no ERP'}: ganho estornado`;
    default:
      return `Ajuste: ${e.motivo ?? 'sem motivo'} (por ${e.criadoPor})`;
  }
}

/** A signed amount: "+ R$ 10,00", "− R$ 5,00". */
export const signedBrl = (v: number) => `${v < 0 ? '−' : '+'} ${formatBrl(Math.abs(v))}`;

export function EntryList(props: { entries: FlexEntry[]; label: string }) {
  if (props.entries.length === 0) return <p>Nenhum movimento ainda.</p>;
  return (
    <ul class="flex-entries" aria-label={props.label}>
      {props.entries.map((e) => (
        <li key={e.id}>
          <span class="flex-entry-what">
            {entryText(e)}
            <small class="mg-muted">{dateTime(e.criadoEm)}</small>
          </span>
          <strong class={`flex-amount ${e.valor < 0 ? 'out' : 'in'}`}>{signedBrl(e.valor)}</strong>
        </li>
      ))}
    </ul>
  );
}
