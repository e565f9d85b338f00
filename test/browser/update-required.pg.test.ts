// An app too old for the server, in a real browser at 360 px: a representative moves a funnel
// card offline; meanwhile the server starts requiring a newer sync protocol. Back online the
// app hears 426, stops syncing, says "Atualize o app" and keeps the move on the phone (the
// server still has the old stage). Then a new build is deployed (here: the same app with a
// service worker that differs by one line, `newBuild` below) and the server accepts the app
// again; "Atualizar agora" installs the new worker, activates it, reloads, and the move reaches
// the server. The 426 comes from test/support/version-gate.ts in front of the app, the
// server's check as docs/sync.md specifies it.
import { SYNC_PROTOCOL_VERSION } from '@campo/shared';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProspectCard, logInAndSync, type WebServer } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import { versionGate } from '../support/version-gate.ts';

const LOGIN = 'rep.versao@campo.test';
const PASSWORD = 'senha-da-versao-1';
const PROSPECT = 'Armazém Boa Vista';
const WAIT = { timeout: 30_000 };
const gate = versionGate(1);
/** Set to serve a new build's service worker: /sw.js with one more line, so it is a new version. */
let deployed = false;

/**
 * The new build's /sw.js. The request goes without its validators and encodings so the body
 * can be read and changed, and the answer without its ETag, so no 304 hides the change.
 */
function newBuild(fetchApp: (req: Request) => Response | Promise<Response>) {
  return async (req: Request): Promise<Response> => {
    if (!deployed || new URL(req.url).pathname !== '/sw.js') return fetchApp(req);
    const headers = new Headers(req.headers);
    headers.delete('if-none-match');
    headers.delete('if-modified-since');
    headers.delete('accept-encoding');
    const res = await fetchApp(new Request(req.url, { method: req.method, headers }));
    const out = new Headers(res.headers);
    for (const h of ['etag', 'content-length', 'content-encoding', 'last-modified']) out.delete(h);
    // The new worker says which build it is when the page asks (the test's only addition).
    const body = `${await res.text()}\nself.addEventListener('message', (e) => { if (e.data === 'campo-build?') e.ports[0]?.postMessage('N+1'); });\n`;
    return new Response(body, { status: res.status, headers: out });
  };
}
let opportunityId = '';

const suite = useBrowserSuite({
  password: PASSWORD,
  users: [{ login: LOGIN, name: 'Vera Versão', role: 'representative' }],
  server: { wrap: (app) => newBuild(gate.wrap(app)) },
});
const db = suite.db;
let server: WebServer;
let page: Page;

beforeAll(() => {
  ({ server, page } = suite);
});

const syncStatus = () => page.getByRole('status', { name: 'Sincronização' });
const card = () => page.getByRole('article', { name: PROSPECT });

async function stageOnServer(id: string): Promise<string | null> {
  const r = await db.pool.query<{ estagio: string }>('select estagio from app.oportunidades where id = $1', [id]);
  return r.rows[0]?.estagio ?? null;
}

describe('an app older than the server accepts', () => {
  it('syncs a card while the server accepts its version', async () => {
    await logInAndSync(page, server.url, LOGIN, PASSWORD);
    opportunityId = await createProspectCard(page, PROSPECT);
    await expect.poll(() => stageOnServer(opportunityId), WAIT).toBe('lead');
    expect(new Set(gate.seen)).toEqual(new Set([SYNC_PROTOCOL_VERSION]));
  });

  it('shows "Atualize o app" on 426 and keeps the move made offline on the phone', async () => {
    const context = suite.context;
    await server.stop();
    await context.setOffline(true);
    await card().getByLabel('Mover para').selectOption({ label: 'Proposta' });
    await page.locator('section[data-stage="proposta"]').getByRole('article', { name: PROSPECT }).waitFor(WAIT);

    // The server is redeployed requiring a newer protocol than this app speaks.
    gate.minVersion = SYNC_PROTOCOL_VERSION + 1;
    await server.restart();
    await context.setOffline(false);
    const banner = page.getByRole('alert').filter({ hasText: 'Atualize o app' });
    await banner.waitFor(WAIT);
    expect(await banner.getByRole('button', { name: 'Atualizar agora' }).isVisible()).toBe(true);
    await expect.poll(() => syncStatus().textContent(), WAIT).toContain('Atualize o app para continuar sincronizando.');
    expect(gate.refused).toBeGreaterThan(0);
    // The banner fits the 360 px screen: no sideways scroll.
    const overflow = await page.evaluate(() => {
      const doc = (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document;
      return doc.documentElement.scrollWidth;
    });
    expect(overflow).toBeLessThanOrEqual(360);
    // Nothing left the phone, and nothing was wiped: the move is still there.
    expect(await stageOnServer(opportunityId)).toBe('lead');
    await page.locator('section[data-stage="proposta"]').getByRole('article', { name: PROSPECT }).waitFor(WAIT);
  });

  it('"Atualizar agora" installs the new build\'s worker, reloads, resumes syncing and pushes the move', async () => {
    // The new build is deployed, and the server serves the app's protocol again.
    deployed = true;
    gate.minVersion = 1;
    await Promise.all([page.waitForEvent('load', WAIT), page.getByRole('button', { name: 'Atualizar agora' }).click()]);
    // The page is controlled by the new build's worker: asked, it answers, where the old
    // build's worker never would.
    const controller = () =>
      page.evaluate(
        () =>
          new Promise<string | null>((resolve) => {
            const g = globalThis as unknown as {
              navigator: { serviceWorker: { controller: { postMessage(m: unknown, t: unknown[]): void } | null } };
              MessageChannel: new () => {
                port1: { onmessage: ((e: { data: string }) => void) | null };
                port2: unknown;
              };
            };
            const sw = g.navigator.serviceWorker.controller;
            if (!sw) return resolve(null);
            const channel = new g.MessageChannel();
            channel.port1.onmessage = (e) => resolve(e.data);
            sw.postMessage('campo-build?', [channel.port2]);
            setTimeout(() => resolve('old build'), 1000);
          }),
      );
    await expect.poll(controller, WAIT).toBe('N+1');
    await expect.poll(() => stageOnServer(opportunityId), WAIT).toBe('proposta');
    await expect.poll(() => syncStatus().textContent(), WAIT).toMatch(/Sincronizado às \d\d:\d\d/);
    expect(await page.getByText('Atualize o app').count()).toBe(0);
  });
});
