// The API reference runs on the app's origin, beside the session token: nothing of it may come
// from elsewhere, and its policy must say so to the browser.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';

const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
const app = createApp({ pool, config: { jwtSecret: 'x'.repeat(40), tokenTtlHours: 1, devLogin: false } });
afterAll(() => pool.end());

describe('/api/docs', () => {
  it('serves a page whose every script and style is a local asset, under a strict CSP', async () => {
    const res = await app.request('/api/docs');
    expect(res.status).toBe(200);
    const html = await res.text();
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/https?:|\*|unsafe-eval/);
    expect(csp.match(/script-src[^;]*/)?.[0]).not.toContain('unsafe-inline');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    // No external origin anywhere in the page, and no inline script.
    expect(html).not.toMatch(/\/\/[a-z0-9.-]+\.[a-z]{2,}/i);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(refs.length).toBeGreaterThanOrEqual(3);
    for (const ref of refs) {
      expect(ref).toMatch(/^\/api\/docs\/assets\/[\w.-]+$/);
      const asset = await app.request(ref);
      expect(asset.status, ref).toBe(200);
      expect(asset.headers.get('content-type'), ref).toMatch(ref.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
      expect((await asset.text()).length, ref).toBeGreaterThan(100);
    }
  });

  it('serves the pinned Swagger UI bundle and the start-up script that points it at this server without a validator', async () => {
    const bundle = await app.request('/api/docs/assets/swagger-ui-bundle.js');
    expect(bundle.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await bundle.text()).toContain('SwaggerUIBundle');
    const init = await (await app.request('/api/docs/assets/init.js')).text();
    expect(init).toContain('"/api/v1/openapi.json"');
    expect(init).toContain('validatorUrl: null');
  });

  it('serves no other file', async () => {
    for (const path of [
      '/api/docs/assets/package.json',
      '/api/docs/assets/index.html',
      '/api/docs/assets/..%2Fpackage.json',
      '/api/docs/assets/swagger-ui-bundle.js.map',
    ]) {
      expect((await app.request(path)).status, path).toBe(404);
    }
  });
});
