// The cart's "Sugestão": the client's mix from its replicated document (offline once synced),
// the most bought first, each with today's price on the client's pauta and one tap to add it at
// its usual quantity; "Adicionar todos" adds every one not in the cart yet (suggestion.ts).
import { plural } from '@campo/shared/format';
import { useMemo } from 'preact/hooks';
import { useProducts } from '../../data/products.ts';
import type { ClientDoc } from '../../db/schemas.ts';
import { today } from '../../kit/format.ts';
import { mixItems } from '../../kit/mix.ts';
import { MixEntry, mixProductName } from '../../kit/mix-list.tsx';
import { formatMoney } from '../../kit/order-format.ts';
import type { CartContext, CartLineInput } from './cart-model.ts';
import { type SuggestionRow, suggestedLines, suggestionRows } from './suggestion.ts';

export function CartSuggestion(props: {
  client: ClientDoc;
  ctx: CartContext;
  inCart: ReadonlySet<number>;
  onAdd: (lines: CartLineInput[]) => void;
}) {
  const items = useMemo(() => mixItems(props.client, today()), [props.client]);
  const ids = useMemo(() => items.map((i) => String(i.idProduto)), [items]);
  const products = useProducts(ids);
  if (items.length === 0) return null;
  const rows = suggestionRows(items, products, props.ctx, props.inCart);
  const addable = rows.filter((r) => !r.inCart && r.preco !== null);
  const add = (some: SuggestionRow[]) => props.onAdd(suggestedLines(some, products, props.ctx));
  const stale = rows.filter((r) => r.parado).length;

  return (
    <details class="cart-suggestion" open>
      <summary>
        Sugestão: {plural(rows.length, 'produto', 'produtos')} que o cliente compra
        {stale > 0 ? ` (${stale} parado${stale === 1 ? '' : 's'})` : ''}
      </summary>
      <div class="mix-actions">
        <button type="button" class="secondary" disabled={addable.length === 0} onClick={() => add(addable)}>
          Adicionar todos{addable.length > 0 ? ` (${addable.length})` : ''}
        </button>
        <small>Nas quantidades de costume, com os preços e regras de hoje.</small>
      </div>
      <ul class="mix-list" aria-label="Sugestão">
        {rows.map((r) => (
          <li key={r.idProduto}>
            <MixEntry item={r} product={r.product}>
              {r.inCart ? (
                <small>No pedido</small>
              ) : r.preco === null ? (
                <small>{r.product ? 'Inativo ou sem preço na pauta do cliente.' : 'Fora deste aparelho.'}</small>
              ) : (
                <>
                  <small>Hoje {formatMoney(r.preco)}</small>
                  <button
                    type="button"
                    class="outline"
                    aria-label={`Adicionar ${mixProductName(r, r.product)} da sugestão`}
                    onClick={() => add([r])}
                  >
                    Adicionar
                  </button>
                </>
              )}
            </MixEntry>
          </li>
        ))}
      </ul>
    </details>
  );
}
