// The cart's payment term (condição de pagamento): a block of its own, so the cart's layout
// can move it without touching how the term is chosen. The client's default comes selected.
import type { PaymentTerm } from '@campo/shared';

export function PaymentTermPicker(props: {
  allowed: readonly PaymentTerm[];
  chosen: PaymentTerm | null;
  defaultId: number | null;
  restricted: boolean;
  onChange: (id: number) => void;
}) {
  return (
    <section aria-labelledby="cart-payment-title" class="payment-term">
      <h2 id="cart-payment-title">Pagamento</h2>
      {props.allowed.length === 0 ? (
        <p class="notice">
          As condições de pagamento ainda não chegaram a este aparelho: o pedido segue com a condição padrão do cliente.
        </p>
      ) : (
        <label>
          Condição de pagamento
          <select
            value={props.chosen ? String(props.chosen.id) : ''}
            onChange={(e) => props.onChange(Number(e.currentTarget.value))}
            aria-describedby={props.restricted ? 'cart-payment-restricted' : undefined}
          >
            {props.chosen ? null : (
              <option value="" disabled>
                Escolha…
              </option>
            )}
            {props.allowed.map((t) => (
              <option key={t.id} value={String(t.id)}>
                {t.id === props.defaultId ? `${t.descricao} (padrão do cliente)` : t.descricao}
              </option>
            ))}
          </select>
          {props.restricted ? (
            <small id="cart-payment-restricted">O financeiro liberou só estas condições para este cliente.</small>
          ) : null}
        </label>
      )}
    </section>
  );
}
