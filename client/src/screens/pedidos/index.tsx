// Pedidos, for representatives: the list and outbox (/pedidos), the cart (/pedidos/novo and
// /pedidos/<id>/corrigir), an order (/pedidos/<id>) and its print view (/pedidos/<id>/imprimir).
// Everything reads the device's store, so the whole screen works without signal.
import { useLocation } from 'preact-iso';
import { storeError } from '../../data/store.ts';
import { CartScreen } from './cart.tsx';
import { useOrderEntry, useOutbox } from './data.ts';
import { OrderDetail } from './order-detail.tsx';
import { OrderPrint } from './order-print.tsx';
import { OrdersList } from './orders-list.tsx';
import './pedidos.css';

function List() {
  return <OrdersList entries={useOutbox()} />;
}

function Detail(props: { id: string }) {
  return <OrderDetail id={props.id} entry={useOrderEntry(props.id)} />;
}

function Print(props: { id: string }) {
  return <OrderPrint entry={useOrderEntry(props.id)} />;
}

export default function PedidosScreen() {
  const { path } = useLocation();
  const [, , segment, action] = path.split('/');
  if (storeError.value) {
    return (
      <section>
        <h1>Pedidos</h1>
        <p role="alert">{storeError.value}</p>
      </section>
    );
  }
  if (!segment) return <List />;
  if (segment === 'novo') return <CartScreen />;
  const id = decodeURIComponent(segment);
  if (action === 'corrigir') return <CartScreen key={id} fixId={id} />;
  if (action === 'imprimir') return <Print id={id} />;
  return <Detail key={id} id={id} />;
}
