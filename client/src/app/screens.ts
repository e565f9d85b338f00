// Each screen is its own folder under screens/, with an index.tsx whose default export draws
// it for every path under its route (/pedidos, /pedidos/novo, /pedidos/<id>...). They load
// on first visit, so the login screen's JavaScript stays small; the service worker precaches
// every chunk, so they open offline too.
import type { ComponentType } from 'preact';
import { lazy } from 'preact-iso';
import { HomeScreen } from '../screens/home/home-screen.tsx';

export const SCREENS: Record<string, ComponentType> = {
  '/': HomeScreen,
  '/clientes': lazy(() => import('../screens/clientes/index.tsx')),
  '/catalogo': lazy(() => import('../screens/catalogo/index.tsx')),
  '/pedidos': lazy(() => import('../screens/pedidos/index.tsx')),
  '/funil': lazy(() => import('../screens/funil/index.tsx')),
  '/sac': lazy(() => import('../screens/sac/index.tsx')),
  '/aprovacoes': lazy(() => import('../screens/aprovacoes/index.tsx')),
  '/equipe': lazy(() => import('../screens/equipe/index.tsx')),
  '/visitas': lazy(() => import('../screens/visitas/index.tsx')),
  '/regras': lazy(() => import('../screens/regras/index.tsx')),
  '/metas': lazy(() => import('../screens/metas/index.tsx')),
  '/empresa': lazy(() => import('../screens/empresa/index.tsx')),
  '/usuarios': lazy(() => import('../screens/usuarios/index.tsx')),
  '/sincronizacao': lazy(() => import('../screens/sincronizacao/index.tsx')),
  '/flex': lazy(() => import('../screens/flex/index.tsx')),
};
