// "Repetir pedido" from an order the device holds or one from the ERP: the new order's screen
// reads the client and the order to repeat from the query and fills the cart (pedidos/repeat.tsx).
export function RepeatLink(props: { idCliente: number; from: string }) {
  return (
    <a
      class="button-link outline"
      href={`/pedidos/novo?cliente=${props.idCliente}&repetir=${encodeURIComponent(props.from)}`}
    >
      Repetir pedido
    </a>
  );
}
