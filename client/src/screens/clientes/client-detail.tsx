// One client of the portfolio: what the device holds (works offline) and, with signal, the
// server's latest orders (Campo and ERP alike) and its financial position, which say more
// than the device's copy about why a client is blocked.

import { type ClientDetail as ApiClientDetail, activityStatusOf, type ClientOrders } from '@campo/shared/clients';
import { clientDisplayName, formatCep, plural } from '@campo/shared/format';
import { CLIENT_MIX_MONTHS } from '@campo/shared/mix';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { map } from 'rxjs';
import { ApiError, api, errorMessage } from '../../api.ts';
import { usePautaName } from '../../data/company.ts';
import { useStoreObservable } from '../../data/hooks.ts';
import { useProducts } from '../../data/products.ts';
import { deviceCredit, queuedTotalFor } from '../../data/queued-figures.ts';
import { useQueuedOrders } from '../../data/queued-orders.ts';
import { type ClientDoc, collectionOf, type OutboxEntry } from '../../db/index.ts';
import { AddressText, DocumentText } from '../../kit/document-text.tsx';
import { formatDate, formatMoney } from '../../kit/field-format.ts';
import { today } from '../../kit/format.ts';
import { daysOverdue, dueText } from '../../kit/invoices.tsx';
import { mixItems, notBoughtThisMonth } from '../../kit/mix.ts';
import { MixEntry, mixProductName } from '../../kit/mix-list.tsx';
import { StoreGate } from '../../kit/store-gate.tsx';
import { VisitBlock } from './visit.tsx';

const ORDER_LIMIT = 10;

const STATUS_LABEL: Record<string, string> = {
  pending_approval: 'Aguardando aprovação',
  approved: 'Aprovado',
  invoiced: 'Faturado',
  rejected: 'Rejeitado',
  cancelled: 'Cancelado',
  queued: 'Na fila deste aparelho',
  sent: 'Enviando',
  refused: 'Recusado pelo servidor',
};

const FINANCIAL_LABEL = { ok: 'Em dia', overdue: 'Em atraso', blocked: 'Bloqueado' } as const;

interface OrderRow {
  key: string;
  number: string;
  date: string;
  status: string;
  total: number | null;
  source: string;
  /** The order's page: an ERP order's, or a Campo order's when this device holds it (the last 90 days). */
  href?: string;
}

const orderHref = (id: string) => `/pedidos/${encodeURIComponent(id)}`;

type Remote =
  | { kind: 'loading' }
  | { kind: 'offline' }
  | { kind: 'error'; message: string }
  | { kind: 'ok'; detail: ApiClientDetail | null; orders: ClientOrders['items'] };

export function ClientDetail(props: { id: string }) {
  return <StoreGate>{() => <ClientDetailBody id={props.id} />}</StoreGate>;
}

function useRemote(id: string): Remote {
  const [remote, setRemote] = useState<Remote>({ kind: 'loading' });
  useEffect(() => {
    const abort = new AbortController();
    setRemote({ kind: 'loading' });
    const params = { path: { id: Number(id) } };
    Promise.all([
      api.GET('/clients/{id}/orders', { params, signal: abort.signal }),
      // The financial detail is a bonus: without it the device's copy still says "blocked".
      api.GET('/clients/{id}', { params, signal: abort.signal }).catch(() => null),
    ])
      .then(([orders, detail]) => setRemote({ kind: 'ok', detail, orders: orders.items }))
      .catch((err: unknown) => {
        if (abort.signal.aborted) return;
        if (err instanceof ApiError && err.status === 0) setRemote({ kind: 'offline' });
        else setRemote({ kind: 'error', message: errorMessage(err) });
      });
    return () => abort.abort();
  }, [id]);
  return remote;
}

function mapHref(local: OutboxEntry[], id: number): string | undefined {
  const entry = local.find((e) => e.order?.id === id);
  return entry ? orderHref(entry.id) : undefined;
}

/** Orders the server does not hold yet (queued or refused here) come first: they need attention. */
function orderRows(idCliente: number, local: OutboxEntry[], remote: Remote): OrderRow[] {
  const notOnServer = local
    .filter((e) => e.state !== 'accepted')
    .map((e) => ({
      key: e.id,
      number: 'Sem número',
      date: e.queuedAt,
      status: STATUS_LABEL[e.state] ?? e.state,
      total: null,
      source: 'Este aparelho',
      href: orderHref(e.id),
    }));
  const held: OrderRow[] =
    remote.kind === 'ok'
      ? remote.orders.map((o) => ({
          key: `${o.source}-${o.id ?? o.erpId}`,
          number: o.number !== null ? String(o.number) : '—',
          date: o.date,
          status: STATUS_LABEL[o.status] ?? o.status,
          total: o.total,
          source: o.source === 'erp' ? 'ERP' : 'Campo',
          href:
            o.source === 'erp' && o.erpId !== null
              ? `/clientes/${idCliente}/pedidos-erp/${o.erpId}`
              : o.id === null
                ? undefined
                : mapHref(local, o.id),
        }))
      : local
          .filter((e) => e.state === 'accepted' && e.order)
          .map((e) => ({
            key: e.id,
            number: String(e.order?.numPedSar ?? '—'),
            date: e.order?.criadoEm ?? e.queuedAt,
            status: STATUS_LABEL[e.order?.status ?? e.status] ?? e.status,
            total: e.order?.valorTotal ?? null,
            source: 'Campo',
            href: orderHref(e.id),
          }));
  held.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  return [...notOnServer, ...held].slice(0, ORDER_LIMIT);
}

export function blockedReason(detail: ApiClientDetail | null): string {
  if (detail && detail.maxDaysOverdue > 30) {
    return `Cliente bloqueado: título vencido há ${plural(detail.maxDaysOverdue, 'dia', 'dias')} (${formatMoney(detail.overdueAmount)} em atraso). Fale com o financeiro.`;
  }
  if (detail) return 'Cliente bloqueado: bloqueio de crédito feito pelo financeiro no ERP.';
  return 'Cliente bloqueado: bloqueio de crédito no ERP (manual ou por título vencido há mais de 30 dias).';
}

function ClientDetailBody(props: { id: string }) {
  const client = useStoreObservable<ClientDoc | null | undefined>(
    (s) =>
      collectionOf(s.db, 'clientes')
        .findOne(props.id)
        .$.pipe(map((d) => (d ? (d.toJSON() as ClientDoc) : null))),
    undefined,
    [props.id],
  );
  const idNumber = Number(props.id);
  const local = useStoreObservable<OutboxEntry[]>(
    (s) =>
      s.outbox?.outbox$.pipe(
        map((entries) => entries.filter((e) => (e.order?.idCliente ?? e.draft?.idCliente) === idNumber)),
      ) ?? null,
    [],
    [idNumber],
  );
  const remote = useRemote(props.id);
  const queued = useQueuedOrders();
  const pautaName = usePautaName();

  if (client === undefined) return <p aria-busy="true">Carregando cliente…</p>;
  if (client === null) {
    return (
      <>
        <a href="/clientes">← Clientes</a>
        <h1>Cliente não encontrado</h1>
        <p>Este cliente não está na sua carteira neste aparelho.</p>
      </>
    );
  }

  const detail = remote.kind === 'ok' ? remote.detail : null;
  const status = detail?.financialStatus ?? client.financialStatus;
  const blocked = status === 'blocked';
  const activity = activityStatusOf(client.lastOrderAt ? new Date(client.lastOrderAt) : null, new Date());
  const rows = orderRows(idNumber, local, remote);
  const address = [
    [client.street, client.number].filter(Boolean).join(', '),
    client.complement,
    client.district,
    [client.city, client.uf].filter(Boolean).join('/'),
    client.zip ? `CEP ${formatCep(client.zip)}` : null,
  ].filter(Boolean);

  return (
    <article class="client-detail">
      <a href="/clientes">← Clientes</a>
      <h1>{clientDisplayName(client)}</h1>
      {client.tradeName && client.name !== client.tradeName && <p class="muted">{client.name}</p>}

      <div class="new-order">
        {blocked ? (
          <>
            <button type="button" disabled aria-describedby="motivo-bloqueio">
              Novo pedido
            </button>
            <p id="motivo-bloqueio" class="error">
              {blockedReason(detail)}
            </p>
          </>
        ) : (
          <a class="button-link" href={`/pedidos/novo?cliente=${encodeURIComponent(client.id)}`}>
            Novo pedido
          </a>
        )}
        <a href={`/catalogo?cliente=${encodeURIComponent(client.id)}`}>Ver catálogo com os preços deste cliente</a>
      </div>

      <VisitBlock client={client} />

      <dl class="facts">
        <dt>Situação financeira</dt>
        <dd>
          <span class={`badge ${status === 'blocked' ? 'badge-danger' : status === 'overdue' ? 'badge-warning' : ''}`}>
            {FINANCIAL_LABEL[status]}
          </span>
          {detail && detail.overdueAmount > 0 && ` ${formatMoney(detail.overdueAmount)} vencidos`}
        </dd>
        {detail && (
          <>
            <dt>Em aberto</dt>
            <dd>{formatMoney(detail.openAmount)}</dd>
          </>
        )}
        <dt>Atividade</dt>
        <dd>
          {activity === 'active' ? 'Ativo' : 'Inativo'} · último pedido {formatDate(client.lastOrderAt)}
        </dd>
        <dt>{client.documentType}</dt>
        <dd>
          <DocumentText value={client.document} />
        </dd>
        <dt>Pauta</dt>
        <dd>{client.idPauta === null ? '—' : pautaName(client.idPauta)}</dd>
        <dt>Endereço</dt>
        <dd>{address.length ? <AddressText text={address.join(' · ')} /> : '—'}</dd>
        <dt>Telefone</dt>
        <dd>{client.phone ? <a href={`tel:${client.phone.replace(/[^\d+]/g, '')}`}>{client.phone}</a> : '—'}</dd>
        <dt>E-mail</dt>
        <dd>{client.email ? <a href={`mailto:${client.email}`}>{client.email}</a> : '—'}</dd>
      </dl>

      <CreditBlock client={client} queued={queuedTotalFor(queued, idNumber)} />

      <TitlesBlock client={client} />

      <MixBlock client={client} />

      <section aria-labelledby="pedidos-titulo">
        <h2 id="pedidos-titulo">Últimos pedidos</h2>
        {remote.kind === 'loading' && <p aria-busy="true">Buscando pedidos no servidor…</p>}
        {remote.kind === 'offline' && (
          <p class="notice">
            Sem conexão: mostrando só os pedidos deste aparelho. Pedidos feitos no ERP aparecem com internet.
          </p>
        )}
        {remote.kind === 'error' && (
          <p class="notice">
            Não foi possível buscar os pedidos no servidor ({remote.message}). Mostrando os deste aparelho.
          </p>
        )}
        {rows.length === 0 ? (
          remote.kind !== 'loading' && <p>Nenhum pedido deste cliente.</p>
        ) : (
          <ul class="order-list">
            {rows.map((o) => (
              <li key={o.key}>
                <span>
                  <strong>{o.href ? <a href={o.href}>Pedido {o.number}</a> : `Pedido ${o.number}`}</strong>{' '}
                  <span class="muted">{o.source}</span>
                </span>
                <span>{formatDate(o.date)}</span>
                <span>{o.status}</span>
                <span>{o.total === null ? '' : formatMoney(o.total)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </article>
  );
}

/**
 * The client's credit as this device knows it, offline: the document's limit and open amounts,
 * less this device's orders for the client the server has not counted yet. The server judges
 * each order on its own figures when it arrives (docs/credit-and-flex.md).
 */
function CreditBlock(props: { client: ClientDoc; queued: number }) {
  const credit = deviceCredit(props.client, props.queued);
  return (
    <section aria-labelledby="credito-titulo">
      <h2 id="credito-titulo">Crédito</h2>
      {credit === null ? (
        <p>Sem limite de crédito definido.</p>
      ) : (
        <dl class="facts">
          <dt>Limite de crédito</dt>
          <dd>{formatMoney(credit.limit)}</dd>
          <dt>Em aberto no ERP (títulos)</dt>
          <dd>{formatMoney(credit.openReceivables)}</dd>
          <dt>Pedidos em aberto no Campo</dt>
          <dd>{formatMoney(credit.openOrders)}</dd>
          {credit.queued > 0 ? (
            <>
              <dt>Na fila deste aparelho</dt>
              <dd>{formatMoney(credit.queued)}</dd>
            </>
          ) : null}
          <dt>Disponível</dt>
          <dd>
            <strong class={credit.available < 0 ? 'error' : undefined}>{formatMoney(credit.available)}</strong>
          </dd>
        </dl>
      )}
    </section>
  );
}

/**
 * The client's open titles from its document (offline once synced), the most overdue first; the
 * days overdue are counted here from the due dates, against this device's São Paulo date.
 */
function TitlesBlock(props: { client: ClientDoc }) {
  const { titulos, titulosAlem } = props.client;
  // A document pulled before store version 5's refetch carries none yet.
  if (!titulos) return null;
  const now = today();
  return (
    <section aria-labelledby="titulos-titulo">
      <h2 id="titulos-titulo">Títulos em aberto</h2>
      {titulos.length === 0 ? (
        <p>Nenhum título em aberto.</p>
      ) : (
        <ul class="titles-list">
          {titulos.map((t, i) => {
            const diasAtraso = daysOverdue(t.vencimento, now);
            return (
              <li key={`${t.documento}-${t.vencimento}-${i}`} class={diasAtraso > 0 ? 'error' : undefined}>
                <strong>{t.documento ?? 'Sem número'}</strong> · {formatMoney(t.valor)}
                {t.valorPago > 0 ? ` (pago ${formatMoney(t.valorPago)})` : ''} · {dueText({ ...t, diasAtraso })}
              </li>
            );
          })}
        </ul>
      )}
      {(titulosAlem ?? 0) > 0 && <p class="muted">e mais {plural(titulosAlem ?? 0, 'título', 'títulos')} em aberto.</p>}
    </section>
  );
}

const MONTHS = new Intl.DateTimeFormat('pt-BR', { month: 'long', timeZone: 'UTC' });

/**
 * The client's mix from its document (offline once synced), the most bought first, and the
 * positivação de produto: which of those products the client has not bought yet this month,
 * by name, so the rep knows what to offer on the visit.
 */
/** How many names show before "Mais N": a visit's glance, the rest one tap away. */
const MISSING_SHOWN = 6;

function MissingList(props: { names: readonly string[] }) {
  const shown = props.names.slice(0, MISSING_SHOWN);
  const rest = props.names.slice(MISSING_SHOWN);
  return (
    <>
      <ul class="mix-missing">
        {shown.map((n, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: two products may share a description; the list never reorders
          <li key={i}>{n}</li>
        ))}
      </ul>
      {rest.length > 0 && (
        <details>
          <summary>Mais {plural(rest.length, 'produto', 'produtos')}</summary>
          <ul class="mix-missing">
            {rest.map((n, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: as above
              <li key={i}>{n}</li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}

function MixBlock(props: { client: ClientDoc }) {
  const now = today();
  const items = useMemo(() => mixItems(props.client, now), [props.client, now]);
  const products = useProducts(useMemo(() => items.map((i) => String(i.idProduto)), [items]));
  // A document pulled before store version 6's refetch carries none yet.
  if (!props.client.mix) return null;
  const missing = notBoughtThisMonth(items, now);
  const month = MONTHS.format(new Date(`${now.slice(0, 7)}-01T00:00:00Z`));
  return (
    <section aria-labelledby="mix-titulo">
      <h2 id="mix-titulo">Mix do cliente</h2>
      {items.length === 0 ? (
        <p>Nenhuma compra nos últimos {CLIENT_MIX_MONTHS} meses.</p>
      ) : (
        <>
          <section aria-labelledby="positivacao-titulo" class="mix-month">
            <h3 id="positivacao-titulo">
              {missing.length === 0
                ? `Todo o mix já foi comprado em ${month}`
                : `${missing.length} de ${items.length} produtos do mix sem compra em ${month}`}
            </h3>
            {missing.length > 0 && (
              <MissingList names={missing.map((i) => mixProductName(i, products.get(String(i.idProduto))))} />
            )}
          </section>
          <ul class="mix-list" aria-label="Mix do cliente">
            {items.map((i) => (
              <li key={i.idProduto}>
                <MixEntry item={i} product={products.get(String(i.idProduto))} />
              </li>
            ))}
          </ul>
          <p class="muted">
            O que o cliente comprou nos últimos {CLIENT_MIX_MONTHS} meses (ERP e Campo), o mais comprado primeiro.
          </p>
        </>
      )}
    </section>
  );
}
