// The cart's product search: the catalog on this device, priced on the client's pauta; a
// product that cannot be added (inactive, without a price, already in the cart) says why.
import { useState } from 'preact/hooks';
import type { ProductDoc } from '../../db/schemas.ts';
import { formatMoney } from '../../kit/order-format.ts';
import { priceOn } from './cart-model.ts';
import { useSearch } from './data.ts';

export function ProductPicker(props: {
  idPauta: number | null;
  inCart: ReadonlySet<number>;
  onAdd: (p: ProductDoc) => void;
}) {
  const [text, setText] = useState('');
  const found = useSearch('produtos', text);
  return (
    <div class="product-picker">
      <label>
        Buscar produto
        <input
          type="search"
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
          placeholder="Código ou descrição"
          autocomplete="off"
        />
      </label>
      {text.trim() && found.length === 0 ? <p>Nenhum produto encontrado neste aparelho.</p> : null}
      <ul class="pick-list">
        {found.map((p) => {
          const price = priceOn(p, props.idPauta);
          const why = !p.active
            ? 'Inativo no ERP.'
            : price === null
              ? 'Sem preço na pauta do cliente.'
              : props.inCart.has(Number(p.id))
                ? 'Já está no pedido.'
                : null;
          const reasonId = `produto-${p.id}-motivo`;
          return (
            <li key={p.id}>
              <button
                type="button"
                class="outline"
                disabled={why !== null}
                aria-describedby={why ? reasonId : undefined}
                aria-label={`Adicionar ${p.description ?? p.code ?? p.id}`}
                onClick={() => {
                  props.onAdd(p);
                  setText('');
                }}
              >
                {p.description}
                <small>
                  {[p.code, p.unit, price !== null ? formatMoney(price) : null].filter(Boolean).join(' · ')}
                </small>
              </button>
              {why ? (
                <small id={reasonId} class="pick-reason">
                  {why}
                </small>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
