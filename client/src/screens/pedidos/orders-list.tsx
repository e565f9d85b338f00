// /pedidos: every order of the representative, newest first, with the outbox's state and age
// (DESIGN.md: nothing queued is silently dropped, and the rep always sees where each order is).
import { clientDisplayName, plural } from '@campo/shared/format';
import { useMemo, useState } from 'preact/hooks';
import { useDownloadState } from '../../data/download-state.ts';
import type { OutboxEntry } from '../../db/outbox.ts';
import { formatAge, formatMoney, labelOf } from '../../kit/order-format.ts';
import { InitialSyncNote } from '../../kit/store-gate.tsx';
import { useClients } from './data.ts';
import { ErpRecentOrders } from './erp-recent.tsx';
import { ReasonList } from './reasons.tsx';
import { OutboxActions } from './refused-actions.tsx';

type Filter =
  | 'all'
  | 'queued'
  | 'sent'
  | 'pending_approval'
  | 'approved'
  | 'invoiced'
  | 'rejected'
  | 'cancelled'
  | 'refused';

const FILTERS: { value: Filter; label: string }[] = [
  { value: 'all', label: 'Todos' },
  { value: 'queued', label: 'Na fila' },
  { value: 'sent', label: 'Enviando' },
  { value: 'refused', label: 'Recusados' },
  { value: 'pending_approval', label: 'Aguardando aprovação' },
  { value: 'approved', label: 'Aprovados' },
  { value: 'invoiced', label: 'Faturados' },
  { value: 'rejected', label: 'Rejeitados' },
  { value: 'cancelled', label: 'Cancelados no ERP' },
];

function filterOf(e: OutboxEntry): Filter {
  if (e.state === 'sent') return 'sent';
  return e.status;
}

export function orderTitle(e: OutboxEntry): string {
  return e.order ? `Pedido nº ${e.order.numPedSar}` : 'Pedido ainda sem número';
}

function OutboxSummary(props: { entries: readonly OutboxEntry[] }) {
  const count = (s: OutboxEntry['state']) => props.entries.filter((e) => e.state === s).length;
  const queued = count('queued');
  const sent = count('sent');
  const refused = count('refused');
  const parts = [
    queued ? `${queued} na fila` : null,
    sent ? `${sent} enviando` : null,
    refused ? `${refused} recusado${refused > 1 ? 's' : ''}` : null,
  ].filter(Boolean);
  return (
    <p role="status" class="outbox-summary">
      {parts.length
        ? `Fila de envio: ${parts.join(', ')}.`
        : 'Fila de envio vazia: o servidor tem todos os seus pedidos.'}
    </p>
  );
}

export function OrdersList(props: { entries: OutboxEntry[] | null }) {
  const [filter, setFilter] = useState<Filter>('all');
  const entries = props.entries;
  const orders = useDownloadState('pedidos');
  const clientIds = useMemo(
    () => [
      ...new Set(
        (entries ?? []).flatMap((e) => {
          const id = e.order?.idCliente ?? e.draft?.idCliente;
          return id !== undefined ? [String(id)] : [];
        }),
      ),
    ],
    [entries],
  );
  const clients = useClients(clientIds);
  const now = new Date();

  const shown = (entries ?? []).filter((e) => filter === 'all' || filterOf(e) === filter);
  const counts = new Map<Filter, number>();
  for (const e of entries ?? []) counts.set(filterOf(e), (counts.get(filterOf(e)) ?? 0) + 1);

  return (
    <section class="orders">
      <div class="orders-head">
        <h1>Pedidos</h1>
        <a class="button-link" href="/pedidos/novo">
          Novo pedido
        </a>
      </div>
      {entries === null ? (
        <p aria-busy="true">Abrindo os pedidos deste aparelho…</p>
      ) : (
        <>
          <OutboxSummary entries={entries} />
          <fieldset class="filters" data-scroll-x aria-label="Filtrar por situação">
            {FILTERS.map((f) => {
              const n = f.value === 'all' ? entries.length : (counts.get(f.value) ?? 0);
              return (
                <button
                  key={f.value}
                  type="button"
                  class={filter === f.value ? undefined : 'outline'}
                  aria-pressed={filter === f.value ? 'true' : 'false'}
                  onClick={() => setFilter(f.value)}
                >
                  {f.label} ({n})
                </button>
              );
            })}
          </fieldset>
          <InitialSyncNote collection="pedidos" what="os pedidos" />
          {shown.length === 0 && orders?.done ? <p>Nenhum pedido nesta situação.</p> : null}
          <ul class="order-list">
            {shown.map((e) => {
              const idCliente = e.order?.idCliente ?? e.draft?.idCliente;
              const client = idCliente !== undefined ? clients.get(String(idCliente)) : undefined;
              // The portfolio's name by the one rule (trade name first), as on Início and Clientes;
              // the order's copy for a client no longer in the portfolio.
              const clientName =
                (client && clientDisplayName(client)) || e.order?.nomeCliente || `Cliente ${idCliente ?? ''}`;
              const items = e.order?.itens.length ?? e.draft?.itens.length ?? 0;
              const label = labelOf(e);
              return (
                <li key={e.id}>
                  <article aria-labelledby={`pedido-${e.id}`} class={`order-card state-${e.state}`}>
                    <header>
                      <h2 id={`pedido-${e.id}`}>
                        <a href={`/pedidos/${encodeURIComponent(e.id)}`}>{orderTitle(e)}</a>
                      </h2>
                      <span class={`badge status-${e.state === 'sent' ? 'sent' : e.status}`}>{label}</span>
                    </header>
                    <p>{clientName}</p>
                    <p class="order-meta">
                      <span>{plural(items, 'item', 'itens')}</span>
                      {e.order ? <span>{formatMoney(e.order.valorTotal)}</span> : null}
                      <span>
                        {e.state === 'queued' || e.state === 'sent' ? 'Na fila ' : ''}
                        {formatAge(e.queuedAt, now)}
                      </span>
                    </p>
                    {e.state === 'refused' ? (
                      <>
                        <ReasonList reasons={e.reasons} />
                        <OutboxActions entry={e} />
                      </>
                    ) : null}
                  </article>
                </li>
              );
            })}
          </ul>
        </>
      )}
      <ErpRecentOrders />
    </section>
  );
}
