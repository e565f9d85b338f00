// Clientes: the portfolio (/clientes), a client (/clientes/<id>), an ERP order of the client
// (/clientes/<id>/pedidos-erp/<erpId>) and the registration of a
// new one (/clientes/novo, or ?cadastro=<id> to fix a refused one).
import { useLocation } from 'preact-iso';
import { ClientDetail } from './client-detail.tsx';
import { ClientList } from './client-list.tsx';
import { ErpOrderPage } from './erp-order.tsx';
import { NewClientForm } from './new-client-form.tsx';
import '../../kit/field.css';
import './clientes.css';

export default function ClientesScreen() {
  const { path } = useLocation();
  const rest = path.replace(/^\/clientes\/?/, '').replace(/\/$/, '');
  if (rest === 'novo') return <NewClientForm />;
  const erp = /^(\d+)\/pedidos-erp\/(\d+)$/.exec(rest);
  if (erp) return <ErpOrderPage key={rest} idCliente={Number(erp[1])} erpId={Number(erp[2])} />;
  if (rest !== '') return <ClientDetail id={decodeURIComponent(rest)} />;
  return (
    <section class="clientes">
      <div class="screen-head">
        <h1>Clientes</h1>
        <a class="button-link" href="/clientes/novo">
          Novo cliente
        </a>
      </div>
      <ClientList />
    </section>
  );
}
