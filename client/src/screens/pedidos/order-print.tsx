// /pedidos/<id>/imprimir: the order as a document with the company's letterhead, laid out for
// paper by the print rules in pedidos.css (the app's header and nav do not print). It reads the
// company from the device's store, so it prints offline too.

import { useCompany } from '../../data/company.ts';
import type { OutboxEntry } from '../../db/outbox.ts';
import { AddressText, DocumentText } from '../../kit/document-text.tsx';
import { companyAddress, formatDateTime, formatDocument, STATUS_LABEL } from '../../kit/order-format.ts';
import { useClients } from './data.ts';
import { LinesTable } from './lines-table.tsx';
import { fromServer } from './order-view.ts';

export function OrderPrint(props: { entry: OutboxEntry | null | undefined }) {
  const company = useCompany();
  const { entry } = props;
  const idCliente = entry?.order?.idCliente;
  const clients = useClients(idCliente !== undefined ? [String(idCliente)] : []);
  if (entry === undefined || company === undefined) return <p aria-busy="true">Preparando a impressão…</p>;
  const order = entry?.order;
  if (!entry || !order) {
    return (
      <section>
        <h1>Impressão indisponível</h1>
        <p>Só um pedido já recebido pelo servidor pode ser impresso.</p>
        <a href="/pedidos">Voltar aos pedidos</a>
      </section>
    );
  }
  const shown = fromServer(order, clients.get(String(order.idCliente)));
  const back = `/pedidos/${encodeURIComponent(entry.id)}`;
  return (
    <section class="print-view">
      <div class="no-print print-toolbar">
        <a href={back}>← Voltar ao pedido</a>
        <button type="button" onClick={() => window.print()}>
          Imprimir
        </button>
      </div>
      <header class="letterhead">
        {company?.logoBase64 ? (
          <img src={company.logoBase64} alt={`Logo de ${company.tradeName ?? company.name ?? 'empresa'}`} />
        ) : null}
        <div>
          <p class="company-name">{company?.name ?? company?.tradeName ?? 'Empresa'}</p>
          {company ? (
            <p>
              {company.cnpj ? `CNPJ ${formatDocument(company.cnpj)}` : null}
              {company.stateRegistration ? ` · IE ${company.stateRegistration}` : null}
            </p>
          ) : null}
          {company ? <p>{companyAddress(company)}</p> : null}
          {company?.phone ? <p>Tel. {company.phone}</p> : null}
        </div>
      </header>
      <h1>Pedido nº {order.numPedSar}</h1>
      <dl class="order-facts">
        <dt>Situação</dt>
        <dd>{STATUS_LABEL[order.status]}</dd>
        <dt>Data</dt>
        <dd>{formatDateTime(order.criadoEm)}</dd>
        {order.numPedidoErp != null ? (
          <>
            <dt>Pedido no ERP</dt>
            <dd>{order.numPedidoErp}</dd>
          </>
        ) : null}
        <dt>Cliente</dt>
        <dd>
          {shown.clientName}
          {order.cnpjCpfCliente ? (
            <>
              {' · '}
              <DocumentText value={order.cnpjCpfCliente} />
            </>
          ) : null}
        </dd>
        <dt>Entrega</dt>
        <dd>{order.endEntrega ? <AddressText text={order.endEntrega} /> : ''}</dd>
        {order.condicaoPagamento ? (
          <>
            <dt>Pagamento</dt>
            <dd>{order.condicaoPagamento.descricao}</dd>
          </>
        ) : null}
        {order.observacao ? (
          <>
            <dt>Observação</dt>
            <dd>{order.observacao}</dd>
          </>
        ) : null}
      </dl>
      <LinesTable order={shown} />
    </section>
  );
}
