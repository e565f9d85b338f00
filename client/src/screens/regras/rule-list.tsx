import type { PolicyRule } from '@campo/shared';
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, errorMessage } from '../../api.ts';
import { day, pct } from '../../kit/format.ts';
import { Pager } from '../../kit/pager.tsx';
import { useApi } from '../../kit/use-api.ts';
import { useLookups } from './lookups.ts';
import { CeilingPreviewPanel } from './preview.tsx';
import { ruleScope } from './scope.ts';

const TABS = [
  { key: 'vigentes', label: 'Em vigor' },
  { key: 'futuras', label: 'Futuras' },
  { key: 'expiradas', label: 'Expiradas' },
  { key: 'todas', label: 'Todas' },
] as const;
type Tab = (typeof TABS)[number]['key'];

const SITUACAO = { vigente: 'Em vigor', futura: 'Futura', expirada: 'Expirada' } as const;
const CHIP = { vigente: 'ok', futura: 'warn', expirada: '' } as const;

export function RuleList() {
  const { query } = useLocation();
  const tab: Tab = TABS.some((t) => t.key === query.situacao) ? (query.situacao as Tab) : 'vigentes';
  const [page, setPage] = useState(1);
  const { data, error, loading, reload } = useApi('/politicas/regras', {
    params: { query: { situacao: tab, page, pageSize: 20 } },
  });
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const lookups = useLookups();

  const remove = async (r: PolicyRule) => {
    if (!confirm(`Excluir a regra "${r.descricao}"? Pedidos já feitos mantêm a regra como era.`)) return;
    setDeleteError(null);
    try {
      await api.DELETE('/politicas/regras/{id}', { params: { path: { id: r.id } } });
      reload();
    } catch (err) {
      setDeleteError(errorMessage(err));
    }
  };

  return (
    <section aria-labelledby="regras-titulo">
      <div class="regras-head">
        <h1 id="regras-titulo">Regras de desconto</h1>
        <a href="/regras/nova" class="mg-button">
          Nova regra
        </a>
      </div>
      <nav class="mg-tabs" aria-label="Situação das regras">
        {TABS.map((t) => (
          <a
            key={t.key}
            href={`/regras?situacao=${t.key}`}
            aria-current={t.key === tab ? 'page' : undefined}
            onClick={() => setPage(1)}
          >
            {t.label}
          </a>
        ))}
      </nav>
      {(error ?? deleteError) && (
        <p role="alert" class="error">
          {error ?? deleteError}
        </p>
      )}
      {loading && !data && <p aria-busy="true">Carregando regras…</p>}
      {data && data.items.length === 0 && <p>Nenhuma regra nesta situação.</p>}
      {data && data.items.length > 0 && (
        <ul class="mg-list" aria-label="Regras">
          {data.items.map((r) => (
            <li key={r.id}>
              <article class="mg-card rule-card">
                <div class="mg-row">
                  <strong>{r.descricao}</strong>
                  <strong>{pct(r.percent)}</strong>
                </div>
                <div class="mg-row">
                  <span class={`mg-chip ${CHIP[r.situacao]}`}>{SITUACAO[r.situacao]}</span>
                  <span class="mg-muted">
                    {day(r.vigenciaInicio)} a {day(r.vigenciaFim)} · {r.promocao ? 'Promoção' : 'Condição especial'}
                  </span>
                </div>
                <p class="mg-muted">{ruleScope(r, lookups)}</p>
                <div class="rule-actions">
                  <a class="mg-button small-btn" href={`/regras/${r.id}/editar`}>
                    Editar<span class="visually-hidden"> a regra {r.descricao}</span>
                  </a>
                  <a class="mg-button secondary small-btn" href={`/regras/nova?copiar=${r.id}`}>
                    Duplicar<span class="visually-hidden"> a regra {r.descricao}</span>
                  </a>
                  <button type="button" class="secondary outline small-btn" onClick={() => void remove(r)}>
                    Excluir<span class="visually-hidden"> a regra {r.descricao}</span>
                  </button>
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}
      {data && <Pager page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} />}
      <CeilingPreviewPanel />
    </section>
  );
}
