// The interactive API reference at /api/docs. It runs on the app's own origin, where the PWA
// keeps its session token, so every byte of it comes from this server: Swagger UI from the
// pinned swagger-ui-dist package (server/package.json), a start-up script of ours, and a
// Content-Security-Policy that lets nothing else run or be fetched. It used to load an
// unpinned script from a CDN, which could have read the token (issue #17).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { API_BASE } from '@campo/shared';
import { Hono } from 'hono';
import type { AppEnv } from './env.ts';

const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/**
 * Scripts and connections from this origin only. Styles also inline: Swagger UI (React) sets
 * `style` attributes, and styles cannot run code. `data:` images are its inline SVG icons.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Campo API</title>
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/assets/init.js"></script>
</body>
</html>
`;

// A file, not an inline script, so the policy needs no 'unsafe-inline' for scripts. No validator
// (Swagger UI would load a badge from its public validator), no URL box to load other documents.
const INIT = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(`${API_BASE}/openapi.json`)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
});
`;

/** The only files served: a fixed list, so no request can name another file of the package. */
const ASSETS: Record<string, { type: string; file?: string; text?: string }> = {
  'swagger-ui-bundle.js': { type: 'text/javascript; charset=utf-8', file: 'swagger-ui-bundle.js' },
  'swagger-ui.css': { type: 'text/css; charset=utf-8', file: 'swagger-ui.css' },
  'init.js': { type: 'text/javascript; charset=utf-8', text: INIT },
};

export function docsRoutes() {
  const cache = new Map<string, Buffer | string>();
  return new Hono<AppEnv>()
    .get('/', (c) => {
      c.header('Content-Security-Policy', DOCS_CONTENT_SECURITY_POLICY);
      c.header('Cache-Control', 'no-cache');
      return c.html(PAGE);
    })
    .get('/assets/:name', async (c) => {
      const asset = ASSETS[c.req.param('name')];
      if (!asset) return c.notFound();
      const name = c.req.param('name');
      let body = cache.get(name);
      if (body === undefined) {
        body = asset.text ?? (await readFile(join(swaggerDir, asset.file ?? name)));
        cache.set(name, body);
      }
      // The package version is pinned, so a day's caching cannot serve a mismatched pair for long.
      c.header('Cache-Control', 'public, max-age=86400');
      c.header('Content-Type', asset.type);
      return c.body(typeof body === 'string' ? body : new Uint8Array(body));
    });
}
