// Browser tests: the built PWA served by the real server over HTTP on a test database, driven
// in Debian's Chromium through playwright-core (no browser download). The network can be cut
// for real: the server stops (its port is kept for the restart) and the page goes offline.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { serve } from '@hono/node-server';
import type pg from 'pg';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterEach, onTestFinished } from 'vitest';
import { type ChangeHub, createChangeHub } from '../../server/src/sync/stream.ts';
import { testApp } from './app.ts';
import { fixtureImages } from './images.ts';
import { asServerRole } from './pg.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** How long a browser test waits for a screen to show something. */
export const WAIT = { timeout: 30_000 };

export const CLIENT_DIST = join(REPO_ROOT, 'client', 'dist');
/** The upgrade test's "next release" (buildNextStoreFixture), never deployed. */
export const CLIENT_DIST_NEXT = join(REPO_ROOT, 'client', 'dist-next');
const SCREENSHOTS = join(REPO_ROOT, 'test-results', 'screenshots');
const _CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Fails with what to do, rather than with a blank page, when the app was not built. */
export function requireClientBuild(): string {
  if (!existsSync(join(CLIENT_DIST, 'index.html')) || !existsSync(join(CLIENT_DIST, 'sw.js'))) {
    throw new Error(
      `the client is not built (${CLIENT_DIST} has no index.html or sw.js): run \`pnpm -F @campo/client build\` (\`pnpm test\` does it first)`,
    );
  }
  return CLIENT_DIST;
}

/**
 * Builds the app as its next release would be, with the local store one version ahead
 * (CAMPO_FIXTURE_NEXT_STORE in client/vite.config.ts), into client/dist-next; a few seconds.
 * Built from the current source every time, so it never lags behind client/dist.
 */
export async function buildNextStoreFixture(): Promise<string> {
  const vite = join(REPO_ROOT, 'client', 'node_modules', 'vite', 'bin', 'vite.js');
  await promisify(execFile)(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: join(REPO_ROOT, 'client'),
    env: { ...process.env, CAMPO_FIXTURE_NEXT_STORE: '1' },
  });
  if (!existsSync(join(CLIENT_DIST_NEXT, 'sw.js')))
    throw new Error(`the fixture build wrote no ${CLIENT_DIST_NEXT}/sw.js`);
  return CLIENT_DIST_NEXT;
}

export interface WebServer {
  /** http://127.0.0.1:<port>, the same across restarts so the service worker's origin holds. */
  readonly url: string;
  stop(): Promise<void>;
  /** Stops for good: the server and its change hub (the LISTEN connection). */
  close(): Promise<void>;
  /** Listens again; with `webRoot`, serving that build from now on (a deploy while stopped). */
  restart(options?: { webRoot?: string }): Promise<void>;
}

type FetchApp = (req: Request) => Response | Promise<Response>;

function listen(fetch: FetchApp, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port, hostname: '127.0.0.1' }) as Server;
    server.once('listening', () => resolve(server));
    server.once('error', reject);
  });
}

/**
 * The API and the built app on a real HTTP port (chosen by the OS), as `campo serve` runs them;
 * `wrap` puts something in front of the app (test/support/version-gate.ts).
 */
export async function startWebServer(
  pool: pg.Pool,
  options: {
    wrap?: (fetchApp: FetchApp) => FetchApp;
    /** GET /sync/stream announces changes (a LISTEN hub); without it the app polls. */
    changeStream?: boolean;
    /** Draws the reference ERP's product photos (fixtureImages) and serves them; without it every product has none. */
    productImages?: boolean;
    /** MAP_TILE_URL: the Visitas screen draws its map from these tiles (and the CSP allows them). */
    mapTileUrl?: string;
    /** MAP_TILE_ATTRIBUTION: the tile server's credit, shown on the map. */
    mapTileAttribution?: string;
  } = {},
): Promise<WebServer> {
  const url = pool.options.connectionString;
  const hub: ChangeHub | undefined =
    options.changeStream && url
      ? createChangeHub({
          connectionString: asServerRole(url),
          log: { info: () => undefined, warn: () => undefined },
          retryBaseMs: 50,
        })
      : undefined;
  const appOptions = (webRoot: string) => ({ webRoot, ...(hub ? { hub } : {}) });
  const images = options.productImages ? await fixtureImages(pool) : undefined;
  const config = {
    ...(images ? { productImages: { dir: images.dir } } : {}),
    ...(options.mapTileUrl ? { mapTileUrl: options.mapTileUrl } : {}),
    ...(options.mapTileAttribution ? { mapTileAttribution: options.mapTileAttribution } : {}),
  };
  let app = testApp(pool, config, appOptions(requireClientBuild()));
  const fetchApp: FetchApp = options.wrap ? options.wrap((req) => app.fetch(req)) : (req) => app.fetch(req);
  let server: Server | null = await listen(fetchApp, 0);
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the test server has no port');
  const port = address.port;
  const web: WebServer = {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      const s = server;
      if (!s) return;
      server = null;
      // Kept-alive sockets would otherwise keep answering the page after "stop".
      s.closeAllConnections();
      await new Promise<void>((resolve, reject) => s.close((err) => (err ? reject(err) : resolve())));
    },
    async close() {
      await hub?.close();
      await web.stop();
      await images?.remove();
    },
    async restart(next = {}) {
      if (next.webRoot) app = testApp(pool, config, appOptions(next.webRoot));
      if (!server) server = await listen(fetchApp, port);
    },
  };
  return web;
}

export { type Browser, launchBrowser } from './chromium.ts';

/** Saves a screenshot of the page to test-results/screenshots/ when the test that runs it fails. */
export function screenshotOnFailure(page: () => Page | undefined): void {
  afterEach(async (ctx) => {
    const p = page();
    if (ctx.task.result?.state !== 'fail' || !p || p.isClosed()) return;
    mkdirSync(SCREENSHOTS, { recursive: true });
    const name = `${ctx.task.file?.name.split('/').pop() ?? 'browser'}-${ctx.task.name}`.replace(/[^\w.-]+/g, '_');
    const file = join(SCREENSHOTS, `${name}.png`);
    await p.screenshot({ path: file, fullPage: true }).catch(() => undefined);
    process.stderr.write(`screenshot of the failure: ${file}\n`);
  });
}

/** Waits until the page is controlled by the app's service worker (it claims on first install). */
export async function waitForServiceWorker(page: Page): Promise<void> {
  // A function, not a string: polling a string predicate is an eval, which the app's CSP
  // refuses. The cast stands in for the DOM types the test project does not load.
  await page.waitForFunction(
    () => {
      const sw = (globalThis as { navigator?: { serviceWorker?: { controller: unknown } } }).navigator?.serviceWorker;
      return !!sw && sw.controller !== null;
    },
    undefined,
    { timeout: 20_000 },
  );
}

/**
 * Logs in through the login screen at `baseUrl` and waits for the role's home screen (Início;
 * an admin lands on Usuários).
 */
export async function logIn(
  page: Page,
  baseUrl: string,
  login: string,
  password: string,
  home = 'Início',
): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Login').fill(login);
  await page.getByLabel('Senha').fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.getByRole('heading', { name: home }).waitFor({ timeout: 30_000 });
}

/** Whether the page scrolls sideways: a layout wider than the screen (a 360 px phone's test). */
export function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const root = (
      globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
    ).document.documentElement;
    return root.scrollWidth > root.clientWidth;
  });
}

/** A call to the running server's API with a user's bearer token and a fresh Idempotency-Key. */
export async function callApi(
  server: WebServer,
  token: string,
  method: string,
  path: string,
  body: unknown,
): Promise<Response> {
  return fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify(body),
  });
}

/** Leaves through the shell's "Sair" and waits for the login screen. */
export async function logOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sair' }).click();
  await page.waitForURL(/\/login$/, { timeout: 30_000 });
}

/**
 * A representative logs in at `baseUrl`, the app's worker takes the page, and the first sync
 * finishes ("Sincronizado às hh:mm" in the sync strip).
 */
export async function logInAndSync(page: Page, baseUrl: string, login: string, password: string): Promise<void> {
  const wait = { timeout: 30_000 };
  await logIn(page, baseUrl, login, password);
  await waitForServiceWorker(page);
  await page
    .getByRole('status', { name: 'Sincronização' })
    .filter({ hasText: /Sincronizado às \d\d:\d\d/ })
    .waitFor(wait);
}

/** A product as the cart finds it: by the code typed in the search, its line named by the description. */
export interface CartProduct {
  code: string;
  description: string;
}

/**
 * In an open cart, searches a product by code and adds it; returns its cart line once shown.
 * With `quantidade`, types it and a 0 % discount (what most orders of the tests carry).
 */
export async function addToCart(page: Page, product: CartProduct, quantidade?: string): Promise<Locator> {
  await page.getByLabel('Buscar produto').fill(product.code);
  await page.getByRole('button', { name: `Adicionar ${product.description}`, exact: true }).click();
  const line = page.getByRole('article', { name: product.description, exact: true });
  await line.waitFor({ timeout: 30_000 });
  if (quantidade !== undefined) {
    await line.getByLabel('Quantidade').fill(quantidade);
    await line.getByLabel('Desconto (%)').fill('0');
  }
  return line;
}

/**
 * Sends the open cart, waits for the order's page and for it to show `state` (null: nothing
 * more); returns the order's key, the document id in its URL (chaves_idempotencia.chave).
 */
export async function sendOrder(page: Page, state: string | null = 'Aguardando aprovação'): Promise<string> {
  await page.getByRole('button', { name: 'Enviar pedido' }).click();
  await page.waitForURL(/\/pedidos\/[0-9a-f-]{36}$/, WAIT);
  if (state !== null) await page.getByText(state, { exact: true }).first().waitFor(WAIT);
  return orderKeyOf(page);
}

/** The key of the order the page shows (its document id, the idempotency key it was sent with). */
export function orderKeyOf(page: Page): string {
  return decodeURIComponent(new URL(page.url()).pathname.split('/')[2] ?? '');
}

/** Creates a funnel card for a free prospect through the board; returns its id. */
export async function createProspectCard(page: Page, prospect: string): Promise<string> {
  const wait = { timeout: 30_000 };
  await page.getByRole('navigation', { name: 'Navegação principal' }).getByRole('link', { name: 'Funil' }).click();
  await page.getByRole('link', { name: 'Nova oportunidade' }).click();
  await page.getByLabel('Nome do prospect').fill(prospect);
  await page.getByRole('button', { name: 'Criar oportunidade' }).click();
  const card = page.getByRole('article', { name: prospect });
  await card.waitFor(wait);
  const href = await card.getByRole('link', { name: prospect }).getAttribute('href');
  return href?.split('/').pop() ?? '';
}

/** Cuts the network for real: the server stops and the browser goes offline; undone at test end. */
export async function goOffline(server: WebServer, context: BrowserContext): Promise<void> {
  await server.stop();
  await context.setOffline(true);
  onTestFinished(async () => {
    await context.setOffline(false);
    await server.restart();
  });
}
