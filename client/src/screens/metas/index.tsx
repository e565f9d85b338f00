// Metas (managers): the monthly billing target of each representative, team by team, and the
// team cards per supervisor with a drill-down to that team's dashboard.
import { useLocation } from 'preact-iso';
import '../../kit/kit.css';
import '../../kit/bar-chart.css';
import './metas.css';
import { TeamDashboard } from '../../kit/team-dashboard.tsx';
import { TargetsEditor } from './targets-editor.tsx';
import { TeamCards } from './team-cards.tsx';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

export default function TargetsScreen() {
  const { path, query } = useLocation();
  const mes = query.mes && MONTH.test(query.mes) ? query.mes : undefined;
  const drill = /^\/metas\/equipe\/(\d+)$/.exec(path);
  if (drill) {
    return (
      <>
        <p>
          <a href={`/metas${mes ? `?mes=${mes}` : ''}`}>← Metas e equipes</a>
        </p>
        <TeamDashboard codSupervisor={Number(drill[1])} {...(mes ? { mes } : {})} title="Painel da equipe" />
      </>
    );
  }
  return (
    <>
      <TargetsEditor {...(mes ? { mes } : {})} />
      <TeamCards {...(mes ? { mes } : {})} />
    </>
  );
}
