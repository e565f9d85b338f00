// The representative's portfolio, read from the device: it works the same with or without
// signal. A portfolio holds up to a few thousand clients, so the list asks RxDB for one page
// at a time (sorted on the indexed search key) instead of drawing every client.

import { activityStatusOf, inactiveBefore } from '@campo/shared/clients';
import { clientDisplayName } from '@campo/shared/format';
import { signal } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';
import type { MangoQuerySelector } from 'rxdb';
import { map, switchMap } from 'rxjs';
import { useDownloadState } from '../../data/download-state.ts';
import { useStoreObservable } from '../../data/hooks.ts';
import type { Store } from '../../data/store.ts';
import { type ClientDoc, collectionOf, type RegistrationDoc } from '../../db/index.ts';
import { DocumentText } from '../../kit/document-text.tsx';
import { InitialSyncNote, StoreGate } from '../../kit/store-gate.tsx';
import { buscaSelectors } from './search.ts';

export type ClientFilter = 'todos' | 'ativos' | 'inativos' | 'bloqueados';

const PAGE = 50;

const FILTERS: { value: ClientFilter; label: string }[] = [
  { value: 'todos', label: 'Todos' },
  { value: 'ativos', label: 'Ativos' },
  { value: 'inativos', label: 'Inativos' },
  { value: 'bloqueados', label: 'Bloqueados' },
];

// Module-level, so coming back from a client's page finds the search as it was left.
const query = signal('');
const filter = signal<ClientFilter>('todos');
const shown = signal(PAGE);
/** Registrations already created for which the device asked for its clients once. */
const pulledFor = new Set<string>();

function clientSelector(q: string, f: ClientFilter, now: Date): MangoQuerySelector<ClientDoc> {
  const and = buscaSelectors(q) as MangoQuerySelector<ClientDoc>[];
  // lastOrderAt is ISO 8601 in UTC with milliseconds, so string order is time order.
  const cutoff = inactiveBefore(now).toISOString();
  if (f === 'ativos') and.push({ lastOrderAt: { $gte: cutoff } });
  if (f === 'inativos') and.push({ $or: [{ lastOrderAt: { $eq: null } }, { lastOrderAt: { $lt: cutoff } }] });
  if (f === 'bloqueados') and.push({ financialStatus: 'blocked' });
  return and.length ? { $and: and } : {};
}

export function ClientList() {
  return <StoreGate>{(s) => <ClientListBody store={s} />}</StoreGate>;
}

function ClientListBody(props: { store: Store }) {
  const [now] = useState(() => new Date());
  const q = query.value;
  const f = filter.value;
  const limit = shown.value;
  // One more than shown tells whether "Mostrar mais" has anything to show.
  const page = useStoreObservable<ClientDoc[] | null>(
    (s) =>
      collectionOf(s.db, 'clientes')
        .find({ selector: clientSelector(q, f, now), sort: [{ busca: 'asc' }], limit: limit + 1 })
        .$.pipe(map((docs) => docs.map((d) => d.toJSON() as ClientDoc))),
    null,
    [q, f, limit],
  );
  const pending = useStoreObservable<RegistrationDoc[]>(
    (s) =>
      s.outbox?.registrations$.pipe(
        switchMap((rs) => {
          const created = rs.flatMap((r) =>
            r.status === 'created' && r.idCliente !== null ? [String(r.idCliente)] : [],
          );
          // A created registration stays listed until its client reaches the portfolio.
          return collectionOf(s.db, 'clientes')
            .findByIds(created)
            .$.pipe(map((found) => rs.filter((r) => r.status !== 'created' || !found.has(String(r.idCliente)))));
        }),
      ) ?? null,
    [],
  );
  const arriving = pending.filter((r) => r.status === 'created').map((r) => r.id);
  useEffect(() => {
    // The change stream normally brings the new client within seconds; without it (a proxy
    // that cuts server-sent events, a server without the stream) the device would only pull
    // on its next timer, so it asks for the portfolio now.
    const fresh = arriving.filter((id) => !pulledFor.has(id));
    if (fresh.length === 0) return;
    for (const id of fresh) pulledFor.add(id);
    void props.store.replication.syncNow().catch(() => undefined);
  }, [arriving.join(','), props.store]);
  const clients = page?.slice(0, limit) ?? [];
  const more = (page?.length ?? 0) > limit;
  const initial = useDownloadState('clientes');

  return (
    <>
      <InitialSyncNote collection="clientes" what="a carteira" />
      {pending.length > 0 && <Registrations items={pending} store={props.store} />}
      <search class="list-search">
        <label>
          Buscar cliente
          <input
            type="search"
            name="busca"
            value={q}
            placeholder="Nome, CNPJ/CPF ou cidade"
            autocomplete="off"
            onInput={(e) => {
              query.value = e.currentTarget.value;
              shown.value = PAGE;
            }}
          />
        </label>
        <fieldset class="chips">
          <legend>Mostrar</legend>
          {FILTERS.map((o) => (
            <label key={o.value}>
              <input
                type="radio"
                name="filtro"
                value={o.value}
                checked={f === o.value}
                onChange={() => {
                  filter.value = o.value;
                  shown.value = PAGE;
                }}
              />
              {o.label}
            </label>
          ))}
        </fieldset>
      </search>
      {page === null ? (
        <p aria-busy="true">Carregando clientes…</p>
      ) : clients.length === 0 ? (
        <p>
          {q || f !== 'todos'
            ? 'Nenhum cliente encontrado com essa busca.'
            : initial && !initial.done
              ? 'Os clientes ainda estão chegando…'
              : 'Sua carteira ainda não tem clientes.'}
        </p>
      ) : (
        <ul class="item-list client-list" aria-label="Clientes da carteira">
          {clients.map((c) => (
            <ClientRow key={c.id} client={c} now={now} />
          ))}
        </ul>
      )}
      {more && (
        <button type="button" class="secondary" onClick={() => (shown.value = limit + PAGE)}>
          Mostrar mais
        </button>
      )}
    </>
  );
}

function ClientRow(props: { client: ClientDoc; now: Date }) {
  const c = props.client;
  const activity = activityStatusOf(c.lastOrderAt ? new Date(c.lastOrderAt) : null, props.now);
  const title = clientDisplayName(c) || `Cliente ${c.id}`;
  return (
    <li>
      <a href={`/clientes/${encodeURIComponent(c.id)}`}>
        <strong>{title}</strong>
        {c.tradeName && c.name && c.tradeName !== c.name && <span class="muted">{c.name}</span>}
        <span class="muted">
          <DocumentText value={c.document} />
          {c.city ? ` · ${c.city}${c.uf ? `/${c.uf}` : ''}` : ''}
        </span>
      </a>
      <span class="badges">
        {c.financialStatus === 'blocked' && <span class="badge badge-danger">Bloqueado</span>}
        {c.financialStatus === 'overdue' && <span class="badge badge-warning">Em atraso</span>}
        {activity === 'inactive' && <span class="badge">Inativo</span>}
      </span>
    </li>
  );
}

function Registrations(props: { items: RegistrationDoc[]; store: Store }) {
  return (
    <section class="registrations" aria-labelledby="cadastros-titulo">
      <h2 id="cadastros-titulo">Cadastros enviados daqui</h2>
      <ul class="item-list client-list">
        {props.items.map((r) => (
          <RegistrationRow key={r.id} item={r} store={props.store} />
        ))}
      </ul>
    </section>
  );
}

function RegistrationRow(props: { item: RegistrationDoc; store: Store }) {
  const r = props.item;
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const dados = (r.dados ?? {}) as Record<string, unknown>;
  const name = r.razaoSocial ?? (typeof dados.razaoSocial === 'string' ? dados.razaoSocial : 'Cliente sem nome');
  const refused = r.status === 'refused';
  const discard = async () => {
    try {
      await props.store.outbox?.discardRegistration(r.id);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Não foi possível descartar o cadastro.');
    }
  };
  return (
    <li class={refused ? 'registration refused' : 'registration'}>
      <div>
        <strong>{name}</strong>
        <span class="muted">
          <DocumentText value={r.documento} />
        </span>
        {refused ? (
          <span class="badge badge-danger">Recusado</span>
        ) : r.status === 'created' ? (
          <span class="badge">Cadastrado no ERP, chegando à carteira…</span>
        ) : (
          <span class="badge badge-waiting">Aguardando ERP</span>
        )}
      </div>
      {refused && (
        <>
          <ul class="reasons" aria-label="Motivos da recusa">
            {r.reasons.map((reason) => (
              <li key={`${reason.code}-${reason.message}`}>{reason.message}</li>
            ))}
          </ul>
          <div class="actions">
            <a class="button-link secondary" href={`/clientes/novo?cadastro=${encodeURIComponent(r.id)}`}>
              Corrigir e reenviar
            </a>
            {confirming ? (
              <button type="button" class="contrast" onClick={discard}>
                Confirmar descarte
              </button>
            ) : (
              <button type="button" class="outline secondary" onClick={() => setConfirming(true)}>
                Descartar
              </button>
            )}
          </div>
          {error && (
            <p role="alert" class="error">
              {error}
            </p>
          )}
        </>
      )}
    </li>
  );
}
