// The cart's "Sugestão" (issue #41): the client's mix as lines ready to add, at today's prices,
// ceilings and rules. The lines are made as a repeated order's are (repeat.tsx): newLine's
// discount, the one the best rule pre-fills now, with the usual quantity; the price is the
// product's on the client's pauta now. Once added they are ordinary cart lines.
import type { ProductDoc } from '../../db/schemas.ts';
import type { MixItem } from '../../kit/mix.ts';
import { toInputText } from '../../kit/order-format.ts';
import { type CartContext, type CartLineInput, newLine, priceOn } from './cart-model.ts';

export interface SuggestionRow extends MixItem {
  /** The product as this device holds it; null when it is not in the local catalog. */
  product: ProductDoc | null;
  /** Today's list price on the client's pauta; null when the product cannot be sold (inactive, no price). */
  preco: number | null;
  /** Already a line of the cart. */
  inCart: boolean;
}

/** The mix as the cart lists it, in the mix's order (the most bought first). */
export function suggestionRows(
  items: readonly MixItem[],
  products: ReadonlyMap<string, ProductDoc>,
  ctx: CartContext,
  inCart: ReadonlySet<number>,
): SuggestionRow[] {
  return items.map((item) => {
    const product = products.get(String(item.idProduto)) ?? null;
    return {
      ...item,
      product,
      preco: product?.active ? priceOn(product, ctx.idPauta) : null,
      inCart: inCart.has(item.idProduto),
    };
  });
}

/** Cart lines for `rows` that can be sold and are not in the cart yet, each at its usual quantity. */
export function suggestedLines(
  rows: readonly SuggestionRow[],
  products: ReadonlyMap<string, ProductDoc>,
  ctx: CartContext,
): CartLineInput[] {
  const lines: CartLineInput[] = [];
  for (const r of rows) {
    const product = products.get(String(r.idProduto));
    if (r.inCart || r.preco === null || !product) continue;
    lines.push({ ...newLine(product, ctx), quantidade: toInputText(r.quantidadeUsual) });
  }
  return lines;
}
