// Which screens each role may open: the bottom nav and the route guard both read this table,
// so a screen hidden from a role is also refused to it when typed in the address bar. The
// server enforces the same roles on the API; this only keeps people out of dead ends.
import type { Role } from '@campo/shared';

export interface ScreenRoute {
  path: string;
  label: string;
  roles: readonly Role[];
  /** False for a screen reached from elsewhere (the sync strip, the header), not the nav bar. */
  nav?: boolean;
}

export const ROUTES: readonly ScreenRoute[] = [
  { path: '/', label: 'Início', roles: ['representative', 'supervisor', 'manager'] },
  { path: '/clientes', label: 'Clientes', roles: ['representative'] },
  { path: '/catalogo', label: 'Catálogo', roles: ['representative'] },
  { path: '/pedidos', label: 'Pedidos', roles: ['representative'] },
  { path: '/funil', label: 'Funil', roles: ['representative'] },
  { path: '/aprovacoes', label: 'Aprovações', roles: ['supervisor'] },
  { path: '/equipe', label: 'Equipe', roles: ['supervisor'] },
  { path: '/visitas', label: 'Visitas', roles: ['supervisor', 'manager'] },
  { path: '/regras', label: 'Regras', roles: ['manager'] },
  { path: '/metas', label: 'Metas', roles: ['manager'] },
  { path: '/empresa', label: 'Empresa', roles: ['manager'] },
  { path: '/sac', label: 'SAC', roles: ['representative', 'manager'] },
  { path: '/usuarios', label: 'Usuários', roles: ['admin'] },
  // Every role with a local store; reached from the sync strip and the header, so the six
  // tabs of a representative's phone stay six.
  { path: '/sincronizacao', label: 'Sincronização', roles: ['representative', 'supervisor', 'manager'], nav: false },
  // Reached from Início (the representative's balance card, the others' link).
  { path: '/flex', label: 'Saldo flex', roles: ['representative', 'supervisor', 'manager'], nav: false },
];

/** The bottom nav of a role, in the order the table lists the screens. */
export function navFor(role: Role): ScreenRoute[] {
  return ROUTES.filter((r) => r.roles.includes(role) && r.nav !== false);
}

/** Where a role lands after login and on "/": its first screen. */
export function homeFor(role: Role): string {
  return navFor(role)[0]?.path ?? '/';
}

/**
 * The screen a path belongs to, by its first segment, so deep links such as /pedidos/4321
 * (from a push notification) fall under /pedidos and its roles.
 */
export function routeOf(path: string): ScreenRoute | undefined {
  const first = `/${path.split('/')[1] ?? ''}`;
  return ROUTES.find((r) => r.path === first);
}

export type Access = { kind: 'allowed'; route: ScreenRoute } | { kind: 'forbidden' } | { kind: 'unknown' };

export function accessTo(path: string, role: Role): Access {
  const route = routeOf(path);
  if (!route) return { kind: 'unknown' };
  return route.roles.includes(role) ? { kind: 'allowed', route } : { kind: 'forbidden' };
}
