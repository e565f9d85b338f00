// Equipe (supervisors): the dashboard of their own team.
import '../../kit/kit.css';
import '../../kit/bar-chart.css';
import { TeamDashboard } from '../../kit/team-dashboard.tsx';

export default function TeamScreen() {
  return <TeamDashboard title="Equipe" />;
}
