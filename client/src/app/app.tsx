import { useEffect } from 'preact/hooks';
import { ErrorBoundary, LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { startPush } from '../push/push.ts';
import { accessTo, homeFor } from '../routes.ts';
import { LoginScreen } from '../screens/login/login-screen.tsx';
import { NoAccessScreen } from '../screens/no-access/no-access-screen.tsx';
import { NotFoundScreen } from '../screens/not-found/not-found-screen.tsx';
import { currentRole, currentUser, refreshUser } from '../session/session.ts';
import { Layout } from './layout.tsx';
import { SCREENS } from './screens.ts';
import { UpdateBanner } from './update-banner.tsx';

/** Navigates once rendered: a render must not change the route it is drawing. */
function Redirect(props: { to: string }) {
  const { route } = useLocation();
  useEffect(() => {
    route(props.to, true);
  }, [props.to, route]);
  return null;
}

/** Every path but /login: the session guard, then the role guard, then the screen. */
function Guarded() {
  const { path } = useLocation();
  const role = currentRole.value;
  if (!role) return <Redirect to="/login" />;
  const home = homeFor(role);
  const access = accessTo(path, role);
  if (path === '/' && access.kind === 'forbidden') return <Redirect to={home} />;
  let screen = <NotFoundScreen home={home} />;
  if (access.kind === 'forbidden') screen = <NoAccessScreen home={home} />;
  if (access.kind === 'allowed') {
    const Screen = SCREENS[access.route.path];
    if (Screen) screen = <Screen />;
  }
  return (
    <Layout role={role}>
      <ErrorBoundary>{screen}</ErrorBoundary>
    </Layout>
  );
}

function LoginRoute() {
  const role = currentRole.value;
  return role ? <Redirect to={homeFor(role)} /> : <LoginScreen />;
}

export function App() {
  const loggedIn = currentUser.value !== null;
  // Once per session start: the role may have changed on the server since the last visit.
  useEffect(() => {
    if (!loggedIn) return;
    void refreshUser();
    void startPush();
  }, [loggedIn]);
  return (
    <LocationProvider>
      <UpdateBanner />
      <Router>
        <Route path="/login" component={LoginRoute} />
        <Route default component={Guarded} />
      </Router>
    </LocationProvider>
  );
}
