// Serves the built PWA (client/dist) from the API's own origin, so the app, its service worker
// and the API share one origin: no CORS, and the service worker's scope covers the whole app.
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import type { AppEnv } from '../http/env.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * No inline script or style and nothing from another origin: a token in the page's storage is
 * only as safe as the scripts allowed to run beside it (docs/pwa.md). `data:` images are
 * Pico's form icons.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Where the map tiles of the visits screen come from, as a CSP source: the origin of the
 * MAP_TILE_URL template, a `{s}` subdomain as `*.`; any other placeholder in the host leaves
 * only the scheme (the operator chose the server, so its images are allowed, nothing else).
 */
export function tileSource(template: string): string | null {
  const m = /^(https?:)\/\/([^/?#]+)/i.exec(template);
  if (!m) return null;
  const [, scheme, host] = m as unknown as [string, string, string];
  const wild = host.replace(/^\{s\}\./, '*.');
  return /[{}]/.test(wild) ? scheme.toLowerCase() : `${scheme.toLowerCase()}//${wild.toLowerCase()}`;
}

/** The app's CSP; with a tile server configured, its images are allowed too (docs/visits.md). */
export function contentSecurityPolicy(mapTileUrl?: string | null): string {
  const tiles = mapTileUrl ? tileSource(mapTileUrl) : null;
  return tiles
    ? CONTENT_SECURITY_POLICY.replace("img-src 'self' data: blob:", `img-src 'self' data: blob: ${tiles}`)
    : CONTENT_SECURITY_POLICY;
}

const WEB_PATH = '/:path{(?!api(?:/|$)).*}';
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Stored but checked every time (a cheap 304): the entry points must never be stale. */
const REVALIDATE = 'no-cache';

/** The folder when it holds a built app (its index.html), else null. */
export function builtWebRoot(dir: string): string | null {
  return existsSync(join(dir, 'index.html')) ? resolve(dir) : null;
}

/** The built client next to this checkout, or null when `pnpm -F @campo/client build` was not run. */
export function defaultWebRoot(): string | null {
  return builtWebRoot(fileURLToPath(new URL('../../../client/dist/', import.meta.url)));
}

interface Found {
  file: string;
  size: number;
  mtimeMs: number;
}

async function findFile(root: string, path: string): Promise<Found | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const file = resolve(root, `.${decoded}`);
  // `..` in the path must not leave the folder.
  if (file !== root && !file.startsWith(root + sep)) return null;
  try {
    const s = await stat(file);
    return s.isFile() ? { file, size: s.size, mtimeMs: s.mtimeMs } : null;
  } catch {
    return null;
  }
}

/**
 * GET and HEAD of every path outside /api: the file when it exists, else index.html for app
 * paths (/pedidos/4321) so a deep link or reload opens the app. A missing file with an
 * extension (/assets/old-hash.js after a deploy) is a 404, not HTML that the browser would
 * try to run as a script.
 */
export function webRoutes(webRoot: string, options: { mapTileUrl?: string | null } = {}) {
  const root = resolve(webRoot);
  const csp = contentSecurityPolicy(options.mapTileUrl);
  const app = new Hono<AppEnv>();
  // Pico's stylesheet alone is 87 kB raw and 12 kB gzipped, on a phone's mobile data.
  app.use(WEB_PATH, compress());
  // The lookahead keeps /api and /api/... out, so an unknown API path still gets the API's
  // 404 problem and the auth middleware never sees a page route.
  app.get(WEB_PATH, async (c, next) => {
    const path = c.req.path;
    let found = path.endsWith('/') ? null : await findFile(root, path);
    if (!found && !extname(path)) found = await findFile(root, '/index.html');
    if (!found) return next();

    const etag = `W/"${found.size.toString(16)}-${Math.floor(found.mtimeMs).toString(16)}"`;
    const hashed = path.startsWith('/assets/');
    c.header('Cache-Control', hashed ? IMMUTABLE : REVALIDATE);
    c.header('ETag', etag);
    c.header('Content-Security-Policy', csp);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('X-Frame-Options', 'DENY');
    // The service worker's own script: its scope is the whole origin.
    if (path === '/sw.js') c.header('Service-Worker-Allowed', '/');
    const type = TYPES[extname(found.file)] ?? 'application/octet-stream';
    c.header('Content-Type', type);
    if (c.req.header('if-none-match') === etag) return c.body(null, 304);
    return c.body(await readFile(found.file), 200);
  });
  return app;
}
