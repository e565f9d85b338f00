// The company's SAC inbox (managers, and admins through the API): every ticket of the tenant,
// filtered by status and client, with the thread, a reply and resolving. The /sac route draws
// this for managers; representatives get their own SAC screen (screens/sac/).
import type { Ticket, TicketStatus } from '@campo/shared';
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, errorMessage } from '../../../api.ts';
import '../../../kit/kit.css';
import { dateTime } from '../../../kit/format.ts';
import { Pager } from '../../../kit/pager.tsx';
import { useRepName } from '../../../kit/rep-name.ts';
import { useApi } from '../../../kit/use-api.ts';
import './sac-empresa.css';

const STATUS: Record<TicketStatus, { label: string; chip: string }> = {
  aberto: { label: 'Aberto', chip: 'bad' },
  respondido: { label: 'Respondido', chip: 'warn' },
  resolvido: { label: 'Resolvido', chip: 'ok' },
  cancelado: { label: 'Cancelado', chip: '' },
};

function Inbox() {
  const repName = useRepName();
  const [status, setStatus] = useState<TicketStatus | ''>('aberto');
  const [cliente, setCliente] = useState('');
  const [applied, setApplied] = useState('');
  const [page, setPage] = useState(1);
  const { data, error, loading } = useApi('/ger/chamados', {
    params: { query: { page, pageSize: 20, status: status || undefined, cliente: applied || undefined } },
  });

  return (
    <section aria-labelledby="sac-titulo">
      <h1 id="sac-titulo">SAC da empresa</h1>
      <form
        class="sac-filters"
        aria-label="Filtrar chamados"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(cliente.trim());
          setPage(1);
        }}
      >
        <label>
          Situação
          <select
            value={status}
            onChange={(e) => {
              setStatus(e.currentTarget.value as TicketStatus | '');
              setPage(1);
            }}
          >
            <option value="">Todas</option>
            {(Object.keys(STATUS) as TicketStatus[]).map((s) => (
              <option key={s} value={s}>
                {STATUS[s].label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Cliente
          <input
            type="search"
            value={cliente}
            maxLength={100}
            placeholder="Parte do nome"
            onInput={(e) => setCliente(e.currentTarget.value)}
          />
        </label>
        <button type="submit" class="secondary">
          Filtrar
        </button>
      </form>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {loading && !data && <p aria-busy="true">Carregando chamados…</p>}
      {data && data.items.length === 0 && <p>Nenhum chamado com estes filtros.</p>}
      {data && (
        <ul class="mg-list" aria-label="Chamados">
          {data.items.map((t) => (
            <li key={t.id}>
              <a class="mg-card" href={`/sac/${t.id}`}>
                <span class="mg-row">
                  <strong>{t.assunto}</strong>
                  <span class={`mg-chip ${STATUS[t.status].chip}`}>{STATUS[t.status].label}</span>
                </span>
                <span class="mg-row mg-muted">
                  <span>
                    {t.nomeCliente} · {repName(t.codVendedor)}
                    {t.numPedSar !== null && ` · pedido ${t.numPedSar}`}
                    {t.numPedErp !== null && ` · pedido ERP ${t.numPedErp}`}
                  </span>
                  <span>{dateTime(t.atualizadoEm)}</span>
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
      {data && <Pager page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} />}
    </section>
  );
}

function TicketView(props: { id: number }) {
  const fetched = useApi('/ger/chamados/{id}', { params: { path: { id: props.id } } });
  const repName = useRepName();
  const [ticket, setTicket] = useState<Ticket | null>(null);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'reply' | 'resolve' | null>(null);
  const t = ticket ?? fetched.data;
  const open = t?.status === 'aberto' || t?.status === 'respondido';

  const act = async (kind: 'reply' | 'resolve') => {
    if (kind === 'reply' && !text.trim()) {
      setError('Escreva a resposta.');
      return;
    }
    setBusy(kind);
    setError(null);
    try {
      const next =
        kind === 'reply'
          ? await api.POST('/ger/chamados/{id}/mensagens', {
              params: { path: { id: props.id } },
              body: { texto: text },
            })
          : await api.POST('/ger/chamados/{id}/resolver', { params: { path: { id: props.id } } });
      setTicket(next);
      if (kind === 'reply') setText('');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section aria-labelledby="chamado-titulo">
      <p>
        <a href="/sac">← Chamados</a>
      </p>
      {fetched.error && (
        <p role="alert" class="error">
          {fetched.error}
        </p>
      )}
      {!t && !fetched.error && <p aria-busy="true">Carregando o chamado…</p>}
      {t && (
        <>
          <h1 id="chamado-titulo">{t.assunto}</h1>
          <p>
            <span class={`mg-chip ${STATUS[t.status].chip}`}>{STATUS[t.status].label}</span>{' '}
            <span class="mg-muted">
              {t.nomeCliente} · {repName(t.codVendedor)}
              {t.numPedSar !== null && ` · pedido ${t.numPedSar}`}
            </span>
          </p>
          <ol class="sac-thread" aria-label="Mensagens">
            {t.mensagens.map((m) => (
              <li key={m.id} class={m.autorTipo === 'empresa' ? 'from-company' : 'from-rep'}>
                <p class="mg-muted">
                  {m.autorNome} ({m.autorTipo === 'empresa' ? 'empresa' : 'representante'}) · {dateTime(m.criadoEm)}
                </p>
                <p class="sac-text">{m.texto}</p>
              </li>
            ))}
          </ol>
          {open ? (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                void act('reply');
              }}
            >
              <label>
                Resposta
                <textarea rows={4} maxLength={4000} value={text} onInput={(e) => setText(e.currentTarget.value)} />
              </label>
              {error && (
                <p role="alert" class="error">
                  {error}
                </p>
              )}
              <div class="mg-actions">
                <button type="submit" disabled={busy !== null} aria-busy={busy === 'reply' ? 'true' : undefined}>
                  Responder
                </button>
                <button
                  type="button"
                  class="secondary outline"
                  disabled={busy !== null}
                  aria-busy={busy === 'resolve' ? 'true' : undefined}
                  onClick={() => void act('resolve')}
                >
                  Marcar como resolvido
                </button>
              </div>
            </form>
          ) : (
            <p class="mg-muted">Este chamado está {STATUS[t.status].label.toLowerCase()}.</p>
          )}
        </>
      )}
    </section>
  );
}

export default function CompanySacScreen() {
  const { path } = useLocation();
  const id = Number(path.split('/')[2]);
  if (Number.isSafeInteger(id) && id > 0) return <TicketView id={id} />;
  return <Inbox />;
}
