// The team dashboard: the month's ranking by billing and by positivation, and today's
// positivation against the daily target. Supervisors see their own team at /equipe; managers
// reach the same view for any supervisor from the team cards (/metas/equipe/<cod>).
import type { RepRanking } from '@campo/shared';
import { formatMonth, pluralWord } from '@campo/shared/format';
import { useMemo } from 'preact/hooks';
import { BarChart } from './bar-chart.tsx';
import { brl, num, targetText } from './format.ts';
import { useApi } from './use-api.ts';

const PRIMARY = '#00815f';
const TARGET = '#8a96a3';
const LIMIT = 15;

/** First and last name: the chart's axis has room for little on a phone. */
const shortName = (r: RepRanking) => {
  const words = (r.nome ?? `Vendedor ${r.codVendedor}`).split(/\s+/);
  return words.length > 2 ? `${words[0]} ${words[words.length - 1]}` : words.join(' ');
};
const monthLabel = formatMonth;

function RankingTable(props: { caption: string; rows: RepRanking[] }) {
  return (
    <div class="mg-scroll">
      <table>
        <caption class="mg-muted">{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Representante</th>
            <th scope="col" class="mg-num">
              Faturamento
            </th>
            <th scope="col" class="mg-num">
              Meta
            </th>
            <th scope="col" class="mg-num">
              Positivação
            </th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r, i) => (
            <tr key={r.codVendedor}>
              <td>{i + 1}</td>
              <th scope="row">{r.nome ?? `Vendedor ${r.codVendedor}`}</th>
              <td class="mg-num">{brl(r.faturamento)}</td>
              <td class="mg-num">
                {targetText(r.meta)}
                {r.progresso !== null && <small class="mg-muted"> ({num(r.progresso * 100)}%)</small>}
              </td>
              <td class="mg-num">{r.positivacao}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function TeamDashboard(props: { codSupervisor?: number; mes?: string; title: string }) {
  const { data, error, loading } = useApi('/dashboard/supervisor', {
    params: { query: { codSupervisor: props.codSupervisor || undefined, mes: props.mes } },
  });

  const billing = useMemo(() => {
    const top = (data?.porFaturamento ?? []).slice(0, LIMIT);
    return {
      labels: top.map(shortName),
      series: [
        { label: 'Faturamento', values: top.map((r) => r.faturamento), color: PRIMARY },
        { label: 'Meta', values: top.map((r) => r.meta ?? 0), color: TARGET },
      ],
    };
  }, [data]);
  const positivation = useMemo(() => {
    const top = (data?.porPositivacao ?? []).slice(0, LIMIT);
    return {
      labels: top.map(shortName),
      series: [{ label: 'Clientes positivados', values: top.map((r) => r.positivacao), color: PRIMARY }],
    };
  }, [data]);

  return (
    <section aria-labelledby="equipe-titulo">
      <h1 id="equipe-titulo">{props.title}</h1>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {loading && !data && <p aria-busy="true">Carregando o painel da equipe…</p>}
      {data && (
        <>
          <p class="mg-muted">Mês de {monthLabel(data.mes)}</p>
          <article aria-labelledby="hoje-titulo">
            <h2 id="hoje-titulo">Positivação de hoje</h2>
            <p>
              <strong>{data.positivacaoHoje.clientes}</strong>{' '}
              {pluralWord(data.positivacaoHoje.clientes, 'cliente', 'clientes')} com pedido hoje
              {data.positivacaoHoje.meta !== null && <> de uma meta de {data.positivacaoHoje.meta} por dia</>}.
            </p>
            {data.positivacaoHoje.progresso !== null && (
              <progress
                value={Math.min(1, data.positivacaoHoje.progresso)}
                max={1}
                aria-label={`Meta diária: ${num(data.positivacaoHoje.progresso * 100)}%`}
              />
            )}
          </article>
          {data.porFaturamento.length === 0 ? (
            <p>Nenhum representante nesta equipe.</p>
          ) : (
            <>
              <h2>Ranking por faturamento</h2>
              <BarChart
                labels={billing.labels}
                series={billing.series}
                format={brl}
                summary={`Faturamento do mês por representante; maior: ${data.porFaturamento[0]?.nome ?? ''}, ${brl(data.porFaturamento[0]?.faturamento)}`}
              />
              <RankingTable caption="Representantes por faturamento do mês" rows={data.porFaturamento} />
              <h2>Ranking por positivação</h2>
              <BarChart
                labels={positivation.labels}
                series={positivation.series}
                format={num}
                summary={`Clientes positivados no mês por representante; maior: ${data.porPositivacao[0]?.nome ?? ''}, ${data.porPositivacao[0]?.positivacao ?? 0}`}
              />
              <RankingTable caption="Representantes por positivação do mês" rows={data.porPositivacao} />
            </>
          )}
        </>
      )}
    </section>
  );
}
