// The navigation's icons, drawn inline (a few hundred bytes in all, no icon font or library
// to download or precache). Decorative: the label beside each one names the screen.
import type { JSX } from 'preact';

const PATHS: Record<string, JSX.Element> = {
  '/': (
    <>
      <path d="M3 10.5 12 3l9 7.5" />
      <path d="M5 9.5V21h14V9.5" />
      <path d="M10 21v-6h4v6" />
    </>
  ),
  '/clientes': (
    <>
      <circle cx="9" cy="8" r="4" />
      <path d="M2 21c0-4 3-6 7-6s7 2 7 6" />
      <path d="M16 4.2a4 4 0 0 1 0 7.6M18 15.3c2.4.7 4 2.6 4 5.7" />
    </>
  ),
  '/catalogo': (
    <>
      <path d="M3 7.5 12 3l9 4.5-9 4.5z" />
      <path d="M3 7.5v9L12 21l9-4.5v-9M12 12v9" />
    </>
  ),
  '/pedidos': (
    <>
      <rect x="5" y="3" width="14" height="18" rx="2" />
      <path d="M9 8h6M9 12h6M9 16h4" />
    </>
  ),
  '/funil': <path d="M3 4h18l-7 8.5V18l-4 2.5v-8z" />,
  '/sac': <path d="M4 4h16v12H9.5L4 20.5z" />,
  '/aprovacoes': (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="m8 12.5 3 3 5-6" />
    </>
  ),
  '/equipe': <path d="M3 21h18M6 21V11M11 21V5M16 21v-7M21 21V9" />,
  // A map pin: where the representatives were.
  '/visitas': (
    <>
      <path d="M12 21s-7-6.2-7-11.5a7 7 0 0 1 14 0C19 14.8 12 21 12 21z" />
      <circle cx="12" cy="9.5" r="2.5" />
    </>
  ),
  '/regras': (
    <>
      <circle cx="7" cy="7" r="2.5" />
      <circle cx="17" cy="17" r="2.5" />
      <path d="M19 5 5 19" />
    </>
  ),
  '/metas': (
    <>
      <circle cx="12" cy="12" r="9" />
      <circle cx="12" cy="12" r="5" />
      <circle cx="12" cy="12" r="1" />
    </>
  ),
  '/empresa': (
    <>
      <rect x="4" y="3" width="16" height="18" rx="1" />
      <path d="M8.5 7h2M13.5 7h2M8.5 11h2M13.5 11h2M8.5 15h2M13.5 15h2M10 21v-3h4v3" />
    </>
  ),
  '/sincronizacao': (
    <>
      <path d="M20 11a8 8 0 0 0-14.6-4.5M4 4v4h4" />
      <path d="M4 13a8 8 0 0 0 14.6 4.5M20 20v-4h-4" />
    </>
  ),
  '/usuarios': (
    <>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21c0-4 3.6-6 8-6s8 2 8 6" />
    </>
  ),
};

export function NavIcon(props: { path: string }) {
  const shape = PATHS[props.path];
  if (!shape) return null;
  return (
    <svg
      class="nav-icon"
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="none"
      stroke="currentColor"
      stroke-width="1.8"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {shape}
    </svg>
  );
}
