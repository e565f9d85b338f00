// Visitas (supervisors and managers, issue #42, docs/visits.md "The supervisor's screens"): the
// team's day in the field, the representatives' visit days (Roteiros), the positions first
// check-ins proposed, and, for managers, the reasons for no sale. Online screens: every figure
// comes from the API, which keeps a supervisor to their team.
import { useLocation } from 'preact-iso';
import '../../kit/kit.css';
import { currentUser } from '../../session/session.ts';
import { DayView } from './day.tsx';
import { PlansView } from './plans.tsx';
import { PositionsView } from './positions.tsx';
import { ReasonsView } from './reasons.tsx';
import './visitas.css';

const TABS = [
  { path: '/visitas', label: 'Dia', view: DayView, managerOnly: false },
  { path: '/visitas/roteiros', label: 'Roteiros', view: PlansView, managerOnly: false },
  { path: '/visitas/posicoes', label: 'Posições a confirmar', view: PositionsView, managerOnly: false },
  { path: '/visitas/motivos', label: 'Motivos de não venda', view: ReasonsView, managerOnly: true },
] as const;

export default function VisitsScreen() {
  const { path, query } = useLocation();
  const user = currentUser.value;
  if (!user) return null;
  const tabs = TABS.filter((t) => !t.managerOnly || user.role === 'manager');
  const tab = tabs.find((t) => t.path === path.replace(/\/$/, '')) ?? tabs[0];
  if (!tab) return null;
  const View = tab.view;
  // The representative chosen stays chosen from tab to tab.
  const keep = query.rep ? `?rep=${encodeURIComponent(query.rep)}` : '';
  return (
    <section class="visitas-screen" aria-labelledby="visitas-titulo">
      <h1 id="visitas-titulo">Visitas</h1>
      <nav class="mg-tabs" aria-label="Partes de Visitas">
        {tabs.map((t) => (
          <a key={t.path} href={`${t.path}${t.managerOnly ? '' : keep}`} aria-current={t === tab ? 'page' : undefined}>
            {t.label}
          </a>
        ))}
      </nav>
      <View />
    </section>
  );
}
