import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { CONTENT_SECURITY_POLICY, contentSecurityPolicy, tileSource } from './routes.ts';

// A stand-in for client/dist; the real build is served in test/browser.
const root = mkdtempSync(join(tmpdir(), 'campo-web-'));
mkdirSync(join(root, 'assets'));
writeFileSync(join(root, 'index.html'), '<!doctype html><title>Campo</title>');
writeFileSync(join(root, 'sw.js'), 'self.addEventListener("fetch", () => {});');
writeFileSync(join(root, 'assets', 'index-abc123.js'), `export const x = ${'1'.repeat(4000)};`);
writeFileSync(join(root, 'manifest.webmanifest'), '{"name":"Campo"}');

// No route under test reaches the database, so the pool never connects.
const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:9/none' });
const app = createApp({
  pool,
  webRoot: root,
  config: { jwtSecret: 'x'.repeat(40), tokenTtlHours: 1, devLogin: false },
});

afterAll(async () => {
  await pool.end();
  rmSync(root, { recursive: true, force: true });
});

describe('the web app routes', () => {
  it('serves index.html for / and for any app path, revalidated every time, with the CSP', async () => {
    for (const path of ['/', '/regras', '/pedidos/4321']) {
      const res = await app.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(await res.text()).toContain('<title>Campo</title>');
    }
  });

  it('keeps hashed assets forever and the service worker never', async () => {
    const asset = await app.request('/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const sw = await app.request('/sw.js');
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    expect(sw.headers.get('service-worker-allowed')).toBe('/');
    expect((await app.request('/manifest.webmanifest')).headers.get('content-type')).toContain(
      'application/manifest+json',
    );
  });

  it('gzips what the browser accepts and answers 304 to a known ETag', async () => {
    const gz = await app.request('/assets/index-abc123.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    const etag = gz.headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    const again = await app.request('/assets/index-abc123.js', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  it('answers 404 for a missing file, never the page in its place', async () => {
    const res = await app.request('/assets/index-old999.js');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });

  it('never swallows the API: unknown API paths keep their 404 problem, without a token', async () => {
    for (const path of ['/api', '/api/v1/nada', '/api/v1/nada/mais']) {
      const res = await app.request(path);
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { code: string }).code).toBe('ROUTE_NOT_FOUND');
    }
    expect((await app.request('/api/v1/auth/me')).status).toBe(401);
  });

  it('does not leave its folder', async () => {
    for (const path of ['/../package.json', '/%2e%2e/%2e%2e/etc/passwd', '/assets/..%2f..%2fetc%2fpasswd']) {
      const res = await app.request(path);
      expect(await res.text(), path).not.toContain('root:');
    }
  });

  it('allows the map tiles of a configured tile server as images, and nothing else from there', async () => {
    const tiled = createApp({
      pool,
      webRoot: root,
      config: {
        jwtSecret: 'x'.repeat(40),
        tokenTtlHours: 1,
        devLogin: false,
        mapTileUrl: 'https://{s}.Tiles.example.com/{z}/{x}/{y}.png',
      },
    });
    const csp = (await tiled.request('/visitas')).headers.get('content-security-policy') ?? '';
    expect(csp).toContain("img-src 'self' data: blob: https://*.tiles.example.com;");
    expect(csp.split('; ').filter((d) => d.includes('tiles.example.com'))).toEqual([
      "img-src 'self' data: blob: https://*.tiles.example.com",
    ]);
    expect(contentSecurityPolicy(null)).toBe(CONTENT_SECURITY_POLICY);
    expect(tileSource('https://tiles.example.com:8443/{z}/{x}/{y}.png')).toBe('https://tiles.example.com:8443');
    expect(tileSource('https://{a}.example.com/{z}/{x}/{y}.png')).toBe('https:');
  });
});
