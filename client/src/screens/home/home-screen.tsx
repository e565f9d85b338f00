import { lazy } from 'preact-iso';
import { PushButton } from '../../push/push-button.tsx';
import { currentUser } from '../../session/session.ts';
import './home.css';

// Loaded on demand: it reads the RxDB store, which must stay out of the initial JavaScript.
const RepDashboard = lazy(() => import('./rep-dashboard.tsx').then((m) => m.RepDashboard));
const TeamGlance = lazy(() => import('./team-glance.tsx').then((m) => m.TeamGlance));
const RouteCards = lazy(() => import('./team-glance.tsx').then((m) => m.RouteCards));

const ROLE_NAMES = {
  representative: 'Representante',
  supervisor: 'Supervisor',
  manager: 'Gerente',
  admin: 'Administrador',
} as const;

/**
 * Início: a representative's dashboard; a supervisor's team at a glance; managers get a
 * welcome (their dashboards live under their own screens). Both get today's route of each
 * representative, which opens Visitas. Supervisors and managers also get
 * the notifications switch, since approvals reach them by push.
 */
export function HomeScreen() {
  const user = currentUser.value;
  if (!user) return null;
  if (user.role === 'representative') return <RepDashboard name={user.name} />;
  return (
    <section class="dashboard">
      <h1>Início</h1>
      <p>
        Olá, <strong>{user.name}</strong>. Você entrou como {ROLE_NAMES[user.role].toLowerCase()}.
      </p>
      {user.role === 'supervisor' && <TeamGlance />}
      {(user.role === 'supervisor' || user.role === 'manager') && <RouteCards />}
      {(user.role === 'supervisor' || user.role === 'manager') && (
        <p>
          <a href="/flex">{user.role === 'supervisor' ? 'Saldo flex da equipe' : 'Saldo flex dos representantes'}</a>
        </p>
      )}
      <PushButton />
    </section>
  );
}
