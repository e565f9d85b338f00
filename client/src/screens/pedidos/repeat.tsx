// Repeat an order: a new cart with the products and quantities of a past order, priced at
// today's prices and with today's rules (the discount each rule pre-fills now, not the one
// given then). Products this device no longer sells (inactive, gone, without a price on the
// client's pauta) are left out and named, so the representative knows what did not come over.
import { useEffect, useRef, useState } from 'preact/hooks';
import { map } from 'rxjs';
import { cachedErpOrder, erpIdOfRepeat } from '../../data/erp-orders.ts';
import { useStoreObservable } from '../../data/hooks.ts';
import { collectionOf, type ProductDoc } from '../../db/index.ts';
import { toInputText } from '../../kit/order-format.ts';
import { type CartContext, type CartLineInput, newLine, priceOn } from './cart-model.ts';

export interface RepeatItem {
  idProduto: number;
  quantidade: number;
  descricao?: string;
}

/** The lines of a repeated order, and the items left out, by description or product id. */
export function repeatLines(
  items: readonly RepeatItem[],
  products: ReadonlyMap<string, ProductDoc>,
  ctx: CartContext,
): { lines: CartLineInput[]; left: string[] } {
  const lines: CartLineInput[] = [];
  const left: string[] = [];
  for (const item of items) {
    const p = products.get(String(item.idProduto));
    if (!p?.active || priceOn(p, ctx.idPauta) === null) {
      left.push(item.descricao ?? p?.description ?? `Produto ${item.idProduto}`);
      continue;
    }
    if (lines.some((l) => l.idProduto === item.idProduto)) continue;
    lines.push({ ...newLine(p, ctx), quantidade: toInputText(item.quantidade) });
  }
  return { lines, left };
}

/** The items of a repeated ERP order (`repetir=erp-<id>`), from the lines the device kept; else null. */
export function erpRepeatItems(repeatId: string | null): RepeatItem[] | null {
  const erpId = repeatId ? erpIdOfRepeat(repeatId) : null;
  const order = erpId === null ? null : cachedErpOrder(erpId);
  return order
    ? order.lines.map((l) => ({
        idProduto: l.idProduto,
        quantidade: l.quantity,
        ...(l.description ? { descricao: l.description } : {}),
      }))
    : null;
}

/** The products of `ids` on this device once the store has answered (null until then). */
function useProductsOnce(ids: readonly number[]): Map<string, ProductDoc> | null {
  const key = ids.join(',');
  return useStoreObservable<Map<string, ProductDoc> | null>(
    (s) =>
      ids.length === 0
        ? null
        : collectionOf(s.db, 'produtos')
            .find({ selector: { id: { $in: ids.map(String) } } })
            .$.pipe(map((docs) => new Map(docs.map((d) => [d.id, d.toJSON() as ProductDoc])))),
    null,
    [key],
  );
}

/**
 * Fills the cart once with the repeated order's lines, as soon as the products and the
 * representative's ceilings are on hand; afterwards the person's edits rule.
 */
export function useRepeat(
  items: readonly RepeatItem[] | null,
  ctx: CartContext,
  ready: boolean,
  apply: (lines: CartLineInput[]) => void,
): string[] {
  const products = useProductsOnce(items ? items.map((i) => i.idProduto) : []);
  const applied = useRef(false);
  const [left, setLeft] = useState<string[]>([]);
  useEffect(() => {
    if (applied.current || !items || !products || !ready) return;
    applied.current = true;
    const result = repeatLines(items, products, ctx);
    apply(result.lines);
    setLeft(result.left);
  }, [items, products, ready, ctx, apply]);
  return left;
}

export function RepeatNote(props: { left: string[] }) {
  if (props.left.length === 0) return null;
  return (
    <p class="notice" role="status">
      Não vieram do pedido repetido (inativos, sem preço na pauta ou fora deste aparelho): {props.left.join(', ')}.
    </p>
  );
}
