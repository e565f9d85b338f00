// One product of the client's mix as the cart's "Sugestão" and the client's page show it: its
// name (never its code alone), how often and how much the client buys it, the last price and
// date, and, when the client has stopped buying it for a while, how long. `children` is the
// cart's "Adicionar" button.
import type { ComponentChildren } from 'preact';
import type { ProductDoc } from '../db/schemas.ts';
import { day } from './format.ts';
import { type MixItem, ordersText, sinceText } from './mix.ts';
import { formatMoney, formatQuantity } from './order-format.ts';
import './mix-list.css';

/** The product's name; a product this device does not hold is named by its id, said as such. */
export const mixProductName = (item: MixItem, product: ProductDoc | null | undefined) =>
  product?.description ?? product?.code ?? `Produto ${item.idProduto} (fora do catálogo deste aparelho)`;

export function MixEntry(props: {
  item: MixItem;
  product: ProductDoc | null | undefined;
  children?: ComponentChildren;
}) {
  const { item, product } = props;
  return (
    <div class={item.parado ? 'mix-entry mix-entry-stale' : 'mix-entry'}>
      <strong>{mixProductName(item, product)}</strong>
      <small>
        {ordersText(item.pedidos)} · costuma levar {formatQuantity(item.quantidadeUsual)}
        {product?.unit ? ` ${product.unit}` : ''} · último {formatMoney(item.ultimoPreco)} em {day(item.ultimaCompra)}
      </small>
      {item.parado ? <span class="mix-stale">{sinceText(item.dias)}</span> : null}
      {props.children}
    </div>
  );
}
