import type { Role } from '@campo/shared';
import { useSignal } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import { navFor, routeOf } from '../routes.ts';
import { PendingBadge } from '../screens/aprovacoes/pending-badge.tsx';
import { currentUser, logout } from '../session/session.ts';
import { NavIcon } from './nav-icons.tsx';
import { hasStore, SyncStatus } from './sync-status.tsx';

export function Layout(props: { role: Role; children: ComponentChildren }) {
  const { path } = useLocation();
  const leaving = useSignal(false);
  const items = navFor(props.role);
  const active = routeOf(path)?.path;

  const onLogout = async () => {
    leaving.value = true;
    await logout();
  };

  return (
    <div class="shell">
      <a class="skip-link" href="#conteudo">
        Ir para o conteúdo
      </a>
      <header class="app-header">
        <strong class="brand">Campo</strong>
        <span class="who">{currentUser.value?.name}</span>
        {props.role === 'supervisor' && <PendingBadge />}
        {hasStore(props.role) && (
          <a
            class="header-sync"
            href="/sincronizacao"
            aria-label="Sincronização"
            title="Sincronização"
            aria-current={active === '/sincronizacao' ? 'page' : undefined}
          >
            <NavIcon path="/sincronizacao" />
          </a>
        )}
        <button
          type="button"
          class="outline secondary logout"
          onClick={onLogout}
          aria-busy={leaving.value ? 'true' : undefined}
        >
          Sair
        </button>
        <SyncStatus role={props.role} />
      </header>
      <main id="conteudo" class="container app-main" tabIndex={-1}>
        {props.children}
      </main>
      {/* A tab bar at the bottom of a phone, a side bar from 1024 px (app.css). */}
      <nav class="app-nav" aria-label="Navegação principal">
        <ul>
          {items.map((item) => (
            <li key={item.path}>
              <a href={item.path} aria-current={item.path === active ? 'page' : undefined}>
                <NavIcon path={item.path} />
                <span>{item.label}</span>
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
