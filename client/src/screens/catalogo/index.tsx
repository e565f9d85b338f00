// Catálogo: the product list (/catalogo, ?cliente=<id> for that client's prices) and a
// product's commercial conditions (/catalogo/<id>), read from the device's store.
import { useLocation } from 'preact-iso';
import { StoreGate } from '../../kit/store-gate.tsx';
import { ProductDetail } from './product-detail.tsx';
import { ProductList } from './product-list.tsx';
import '../../kit/field.css';
import './catalogo.css';

export default function CatalogoScreen() {
  const { path, query } = useLocation();
  const rest = path.replace(/^\/catalogo\/?/, '').replace(/\/$/, '');
  if (rest !== '') {
    return <StoreGate>{(s) => <ProductDetail store={s} id={decodeURIComponent(rest)} />}</StoreGate>;
  }
  return (
    <section class="catalogo">
      <h1>Catálogo</h1>
      <StoreGate>{(s) => <ProductList store={s} clienteId={query.cliente} />}</StoreGate>
    </section>
  );
}
