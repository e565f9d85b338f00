import { plural } from '@campo/shared/format';
import { brl, num, targetText } from '../../kit/format.ts';
import { useApi } from '../../kit/use-api.ts';

export function TeamCards(props: { mes?: string }) {
  const { data, error } = useApi('/equipe/supervisores', { params: { query: { mes: props.mes } } });
  return (
    <section aria-labelledby="equipes-titulo">
      <h2 id="equipes-titulo">Equipes</h2>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {!data && !error && <p aria-busy="true">Carregando equipes…</p>}
      {data && data.itens.length === 0 && <p>Nenhum supervisor cadastrado.</p>}
      {data && (
        <ul class="mg-list team-cards" aria-label="Equipes por supervisor">
          {data.itens.map((c) => {
            const progress = c.meta > 0 ? c.faturamento / c.meta : null;
            return (
              <li key={c.codSupervisor}>
                <a class="mg-card" href={`/metas/equipe/${c.codSupervisor}?mes=${data.mes}`}>
                  <strong class="team-name">{c.nome ?? `Supervisor ${c.codSupervisor}`}</strong>
                  {/* Every figure named: a bare "R$ 12.000,00" beside another means nothing. */}
                  <dl class="team-figures">
                    <div>
                      <dt>Faturamento</dt>
                      <dd>{brl(c.faturamento)}</dd>
                    </div>
                    <div>
                      <dt>Meta</dt>
                      <dd>
                        {targetText(c.meta)}
                        {progress !== null && <small> ({num(progress * 100)}%)</small>}
                      </dd>
                    </div>
                    <div>
                      <dt>Positivação</dt>
                      <dd>{plural(c.positivacao, 'cliente', 'clientes')}</dd>
                    </div>
                    <div>
                      <dt>Representantes ativos</dt>
                      <dd>
                        {c.representantesAtivos} de {c.representantes}
                      </dd>
                    </div>
                  </dl>
                  {progress !== null && (
                    <progress value={Math.min(1, progress)} max={1} aria-label={`Meta: ${num(progress * 100)}%`} />
                  )}
                  <span class="mg-muted">
                    {c.variacaoPercent === null
                      ? 'Sem faturamento no mês anterior para comparar'
                      : `${c.variacaoPercent >= 0 ? '+' : ''}${num(c.variacaoPercent)}% de faturamento sobre o mês anterior`}
                  </span>
                </a>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
