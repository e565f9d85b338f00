// The representative a tab of Visitas is about, by name, from the directory the caller may read
// (GET /vendedores: a supervisor's team, a manager's every representative). Kept in the URL
// (?rep) so the choice survives a reload and moves with the tabs.
import { useLocation } from 'preact-iso';
import { useApi } from '../../kit/use-api.ts';

export function RepPicker(props: { tab: string; onPick?: () => void; optional?: boolean }) {
  const { query, route } = useLocation();
  const reps = useApi('/vendedores');
  const active = (reps.data?.items ?? []).filter((r) => r.ativo || String(r.codVendedor) === query.rep);
  return (
    <label class="visit-filter">
      Representante
      <select
        value={query.rep ?? ''}
        onChange={(e) => {
          const v = e.currentTarget.value;
          props.onPick?.();
          route(`/visitas/${props.tab}${v ? `?rep=${v}` : ''}`);
        }}
      >
        <option value="">{props.optional ? 'Todos os representantes' : 'Escolha…'}</option>
        {active.map((r) => (
          <option key={r.codVendedor} value={String(r.codVendedor)}>
            {r.nome || `Vendedor ${r.codVendedor}`}
          </option>
        ))}
      </select>
      {reps.error && <small class="error">{reps.error}</small>}
    </label>
  );
}
