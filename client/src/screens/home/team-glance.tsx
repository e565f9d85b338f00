// A supervisor's Início: the team at a glance, what needs them first (orders waiting for
// approval), then today's positivation and the month's billing against the team's target.
// Details stay on Aprovações and Equipe; this is the morning look.
import { brl, num, targetText } from '../../kit/format.ts';
import { useApi } from '../../kit/use-api.ts';

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
