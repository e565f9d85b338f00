// One line of the cart: the product's facts (price, ceiling and where it comes from, stock),
// the quantity and discount as typed, the line's amounts, and what is wrong with it, locally
// or in the server's refusal.
import type { SyncOrderReason } from '@campo/shared';
import { formatMoney, formatPercent } from '../../kit/order-format.ts';
import { ProductPhoto } from '../../kit/product-photo.tsx';
import { StockWarning, stockText } from '../../kit/stock.tsx';
import {
  type CartLineInput,
  ceilingSourceText,
  type LinePreview,
  lineFlexText,
  serverReasonsFor,
} from './cart-model.ts';

export function CartLine(props: {
  line: LinePreview;
  refusedReasons: readonly SyncOrderReason[];
  onChange: (patch: Partial<CartLineInput>) => void;
  onRemove: () => void;
}) {
  const l = props.line;
  const name = l.product?.description ?? `Produto ${l.input.idProduto}`;
  const key = `${l.input.idProduto}`;
  const errorId = `linha-${key}-erro`;
  const serverReasons = serverReasonsFor(props.refusedReasons, l);
  const flexText = lineFlexText(l);
  return (
    <article aria-labelledby={`linha-${key}-titulo`} class={l.error ? 'has-error' : undefined}>
      <div class="line-head">
        {/* The product's id is the line's; a line whose product left the device has no photo. */}
        <ProductPhoto
          product={{ id: String(l.input.idProduto), image: l.product?.image ?? null }}
          size="thumb"
          name={name}
          decorative
        />
        <h3 id={`linha-${key}-titulo`}>{name}</h3>
      </div>
      <p class="line-facts">
        {l.product?.code ? <span>Cód. {l.product.code}</span> : null}
        {l.listPrice !== null ? (
          <span>
            Preço de tabela {formatMoney(l.listPrice)}
            {l.product?.unit ? ` / ${l.product.unit}` : ''}
          </span>
        ) : null}
        {l.ceiling ? (
          <span>
            Teto {formatPercent(l.ceiling.ceilingPercent)} ({ceilingSourceText(l.ceiling)})
          </span>
        ) : null}
        {stockText(l.product?.stock, l.product?.unit) ? (
          <span>{stockText(l.product?.stock, l.product?.unit)}</span>
        ) : null}
      </p>
      {l.ceiling?.prefillRule ? (
        <p class="line-rule">
          {l.ceiling.prefillRule.promocao ? 'Promoção' : 'Cond. especial'}: "{l.ceiling.prefillRule.descricao}" sugere{' '}
          {formatPercent(l.ceiling.prefillPercent)}
        </p>
      ) : null}
      <div class="line-inputs">
        <label>
          Quantidade
          <input
            inputMode="decimal"
            value={l.input.quantidade}
            onInput={(e) => props.onChange({ quantidade: e.currentTarget.value })}
            aria-invalid={l.error && l.quantity === null ? 'true' : undefined}
            aria-describedby={l.error ? errorId : undefined}
          />
        </label>
        <label>
          Desconto (%)
          <input
            inputMode="decimal"
            value={l.input.desconto}
            onInput={(e) => props.onChange({ desconto: e.currentTarget.value })}
            aria-invalid={l.error && l.quantity !== null ? 'true' : undefined}
            aria-describedby={l.error ? errorId : undefined}
          />
        </label>
      </div>
      {l.amounts ? (
        <p class="line-amounts">
          Unitário {formatMoney(l.amounts.unitPrice)} · Total da linha <strong>{formatMoney(l.amounts.total)}</strong>
        </p>
      ) : null}
      {flexText ? <p class={l.flex?.spent ? 'line-flex line-flex-uses' : 'line-flex'}>{flexText}</p> : null}
      <StockWarning stock={l.product?.stock} quantity={l.quantity} />
      {l.error ? (
        <p id={errorId} class="line-error">
          {l.error}
        </p>
      ) : null}
      {serverReasons.map((r) => (
        <p key={r.message} class="line-error">
          {r.message}
        </p>
      ))}
      <button type="button" class="outline secondary" aria-label={`Remover ${name}`} onClick={props.onRemove}>
        Remover
      </button>
    </article>
  );
}
