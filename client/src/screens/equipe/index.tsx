// Equipe (supervisors): the dashboard of their own team.
import '../../kit/kit.css';
import './equipe.css';
import { TeamDashboard } from './team-dashboard.tsx';

export default function TeamScreen() {
  return <TeamDashboard title="Equipe" />;
}
