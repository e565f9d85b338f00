import { brl, num } from '../../kit/format.ts';
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
                  <span class="mg-row">
                    <strong>{c.nome ?? `Supervisor ${c.codSupervisor}`}</strong>
                    <span>{brl(c.faturamento)}</span>
                  </span>
                  <span class="mg-row mg-muted">
                    <span>Meta {brl(c.meta)}</span>
                    <span>
                      {c.variacaoPercent === null
                        ? 'sem mês anterior'
                        : `${c.variacaoPercent >= 0 ? '+' : ''}${num(c.variacaoPercent)}% sobre o mês anterior`}
                    </span>
                  </span>
                  {progress !== null && (
                    <progress value={Math.min(1, progress)} max={1} aria-label={`Meta: ${num(progress * 100)}%`} />
                  )}
                  <span class="mg-row mg-muted">
                    <span>{c.positivacao} clientes positivados</span>
                    <span>
                      {c.representantesAtivos} de {c.representantes} representantes ativos
                    </span>
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
