// Stock on hand where the ERP keeps it (vw_estoque): a block of its own for the catalog and
// the cart. Unknown stock (null) shows nothing, never zero; a quantity above the stock only
// warns: the office may have goods on the way, and the order is never blocked by it.
import { formatQuantity } from './order-format.ts';

export function stockText(stock: number | null | undefined, unit: string | null | undefined): string | null {
  if (stock === null || stock === undefined) return null;
  return `Estoque ${formatQuantity(stock)}${unit ? ` ${unit}` : ''}`;
}

export function StockWarning(props: { stock: number | null | undefined; quantity: number | null; id?: string }) {
  const { stock, quantity } = props;
  if (stock === null || stock === undefined || quantity === null || quantity <= stock) return null;
  return (
    <p id={props.id} class="line-warning" role="status">
      Acima do estoque do ERP ({formatQuantity(stock)}): o pedido segue, e o escritório confirma a entrega.
    </p>
  );
}
