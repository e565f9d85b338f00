// A supervisor's Início: the team at a glance, what needs them first (orders waiting for
// approval), then today's positivation and the month's billing against the team's target.
// Details stay on Aprovações and Equipe; this is the morning look.
import { useState } from 'preact/hooks';
import '../../kit/kit.css';
import { brl, num, targetText } from '../../kit/format.ts';
import { Pager } from '../../kit/pager.tsx';
import { useApi } from '../../kit/use-api.ts';
import { routeLine } from '../../kit/visit-format.ts';

const ROUTE_PAGE = 20;

/**
 * Today's route of each representative in reach (GET /visits/summary): "Roteiro: 5/8 · 3 com
 * pedido", each card opening that representative's day on Visitas. A supervisor sees the team,
 * a manager every representative, a page at a time.
 */
export function RouteCards() {
  const [page, setPage] = useState(1);
  const { data, error } = useApi('/visits/summary', { params: { query: { page, pageSize: ROUTE_PAGE } } });
  return (
    <section class="route-cards" aria-labelledby="roteiro-hoje-titulo">
      <h2 id="roteiro-hoje-titulo">Roteiro de hoje</h2>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {!data && !error && <p aria-busy="true">Carregando os roteiros…</p>}
      {data && data.items.length === 0 && <p>Nenhum representante para mostrar.</p>}
      {data && data.items.length > 0 && (
        <ul class="mg-list route-card-list" aria-label="Roteiro de hoje por representante">
          {data.items.map((r) => (
            <li key={r.codVendedor}>
              <a class="mg-card" href={`/visitas?rep=${r.codVendedor}`}>
                <strong>{r.nome || `Vendedor ${r.codVendedor}`}</strong>
                <span class="mg-muted">{routeLine(r)}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
      {data && <Pager page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} />}
    </section>
  );
}

export function TeamGlance() {
  const pending = useApi('/notifications/pending-count');
  const team = useApi('/dashboard/supervisor');
  const d = team.data;
  const billed = d ? d.porFaturamento.reduce((sum, r) => sum + r.faturamento, 0) : 0;
  const target = d ? d.porFaturamento.reduce((sum, r) => sum + (r.meta ?? 0), 0) : 0;
  const n = pending.data?.count;
  return (
    <section class="team-glance" aria-label="Sua equipe hoje">
      <a class="glance-tile glance-urgent" href="/aprovacoes">
        <span class="glance-label">Aguardando aprovação</span>
        <strong class="glance-figure">{n === undefined ? '…' : n}</strong>
        <span>{n === 1 ? 'pedido para revisar' : 'pedidos para revisar'}</span>
      </a>
      <a class="glance-tile" href="/equipe">
        <span class="glance-label">Positivação hoje</span>
        <strong class="glance-figure">{d ? d.positivacaoHoje.clientes : '…'}</strong>
        <span>
          {d &&
            (d.positivacaoHoje.meta !== null
              ? `clientes de ${d.positivacaoHoje.meta} da meta do dia`
              : 'clientes · sem meta')}
        </span>
      </a>
      <a class="glance-tile" href="/equipe">
        <span class="glance-label">Faturamento do mês</span>
        <strong class="glance-figure">{d ? brl(billed) : '…'}</strong>
        <span>
          {d && (target > 0 ? `de ${targetText(target)} da meta (${num((billed / target) * 100)}%)` : targetText(null))}
        </span>
        {d && target > 0 && (
          <progress
            value={Math.min(1, billed / target)}
            max={1}
            aria-label={`Meta do mês: ${num((billed / target) * 100)}%`}
          />
        )}
      </a>
      {(team.error ?? pending.error) && (
        <p role="alert" class="error">
          {team.error ?? pending.error}
        </p>
      )}
    </section>
  );
}
