import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

// The theme colour is Pico's jade 600 (the primary of the stylesheet we load), so the
// browser chrome and the app read as one.
const THEME_COLOR = '#00815f';

// CAMPO_FIXTURE_NEXT_STORE=1 builds the upgrade test's "next release" (test/browser/
// upgrade.pg.test.ts): the same app with its local store one version ahead (STORE_VERSION and
// MIGRATIONS in src/db/schemas.ts), into dist-next so it never replaces the real build.
const FIXTURE_NEXT_STORE = process.env.CAMPO_FIXTURE_NEXT_STORE === '1';

// The app's version, reported with its errors (src/error-reporting.ts).
const APP_VERSION: string = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')).version;

// The product photos' default byte budget on a device, in MB (src/data/photos.ts; docs/pwa.md,
// "Product photos"): CAMPO_FOTOS_MB when building, else 150. Each person can change theirs on
// the sync screen.
const PHOTO_BUDGET_MB = Number(process.env.CAMPO_FOTOS_MB) > 0 ? Number(process.env.CAMPO_FOTOS_MB) : 150;

export default defineConfig({
  plugins: [
    preact(),
    VitePWA({
      // Our own service worker (src/sw.ts): it will grow push and sync handling that a
      // generated one cannot hold. Registration is done by src/pwa.ts with workbox-window,
      // so nothing is injected into index.html (the CSP forbids inline scripts anyway).
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      injectRegister: false,
      manifest: {
        name: 'Campo',
        short_name: 'Campo',
        description: 'Pedidos de venda em campo, com ou sem sinal.',
        lang: 'pt-BR',
        dir: 'ltr',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        theme_color: THEME_COLOR,
        background_color: '#ffffff',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        // The whole shell, icons included, so the app opens with no network after one visit.
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
      },
    }),
  ],
  resolve: {
    alias: Object.fromEntries(
      ['html2canvas', 'dompurify', 'canvg'].map((name) => [
        name,
        fileURLToPath(new URL('./src/pdf/unused-optional.ts', import.meta.url)),
      ]),
    ),
  },
  define: {
    __CAMPO_NEXT_STORE__: JSON.stringify(FIXTURE_NEXT_STORE),
    __APP_VERSION__: JSON.stringify(APP_VERSION),
    __PHOTO_BUDGET_MB__: JSON.stringify(PHOTO_BUDGET_MB),
  },
  build: { target: 'es2022', sourcemap: false, ...(FIXTURE_NEXT_STORE ? { outDir: 'dist-next' } : {}) },
  server: {
    // `pnpm -F @campo/client dev` next to `pnpm demo`: the API stays on the demo server.
    proxy: { '/api': 'http://localhost:8080' },
  },
});
