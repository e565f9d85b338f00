// The app shell in a real browser: log in, the role's nav, the route guard, the shell opening
// with no network at all after one visit (service worker), and logout.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../server/src/db/kysely.ts';
import { addUser, setUserActive } from '../../server/src/users/service.ts';
import { type WebServer, waitForServiceWorker } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';

const LOGIN = 'rep.navegador@campo.test';
const PASSWORD = 'senha-do-navegador-1';
// The same login and password in two companies: the login screen asks which one.
const SHARED = 'dupla.navegador@campo.test';
const suite = useBrowserSuite({
  password: PASSWORD,
  users: [{ login: LOGIN, name: 'Rita Navegadora', role: 'representative' }],
  setUp: async ({ db, erp }) => {
    for (const idEmpresa of erp.tenants.slice(0, 2)) {
      await addUser(createDb(db.pool), {
        login: SHARED,
        name: 'Dupla',
        role: 'manager',
        idEmpresa,
        password: PASSWORD,
      });
    }
  },
});
const db = suite.db;
let server: WebServer;
let page: Page;

beforeAll(() => {
  ({ server, page } = suite);
});

const nav = () => page.getByRole('navigation', { name: 'Navegação principal' });

describe('the app shell', () => {
  it('refuses a wrong password in plain Portuguese', async () => {
    await page.goto(`${server.url}/`);
    // Not logged in: every path leads to the login screen.
    await page.waitForURL(`${server.url}/login`);
    await page.getByLabel('Login').fill(LOGIN);
    await page.getByLabel('Senha').fill('senha-errada');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Login ou senha incorretos');
  });

  it('logs a representative in and shows the representative nav', async () => {
    await page.getByLabel('Senha').fill(PASSWORD);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('heading', { name: 'Início' }).waitFor();
    expect(await nav().getByRole('link').allTextContents()).toEqual([
      'Início',
      'Clientes',
      'Catálogo',
      'Pedidos',
      'Funil',
      'SAC',
    ]);
    await nav().getByRole('link', { name: 'Pedidos' }).click();
    await page.waitForURL(`${server.url}/pedidos`);
    await page.getByRole('heading', { name: 'Pedidos', exact: true }).waitFor();
    expect(await nav().getByRole('link', { name: 'Pedidos' }).getAttribute('aria-current')).toBe('page');
  });

  it('opens the shell with the server down and no network, from the service worker', async () => {
    await waitForServiceWorker(page);
    await suite.goOffline();
    await expect(page.request.get(`${server.url}/`).then((r) => r.status())).rejects.toThrow();
    await page.reload();
    await page.getByRole('heading', { name: 'Pedidos', exact: true }).waitFor();
    expect(await nav().getByRole('link').count()).toBe(6);
    // A path never visited is the same shell, served by the navigation fallback.
    await page.goto(`${server.url}/clientes`);
    await page.getByRole('heading', { name: 'Clientes' }).waitFor();
  });

  it('turns a representative away from a manager screen typed in the address bar', async () => {
    await page.goto(`${server.url}/regras`);
    await page.getByRole('heading', { name: 'Sem acesso' }).waitFor();
    expect(await nav().getByRole('link', { name: 'Regras' }).count()).toBe(0);
  });

  it('logs out to the login screen and forgets the token', async () => {
    await page.goto(`${server.url}/`);
    await page.getByRole('button', { name: 'Sair' }).click();
    await page.waitForURL(`${server.url}/login`);
    await page.getByRole('button', { name: 'Entrar' }).waitFor();
    expect(await page.evaluate("localStorage.getItem('campo.session')")).toBeNull();
    await page.goto(`${server.url}/pedidos`);
    await page.waitForURL(`${server.url}/login`);
  });

  it('wipes the device and asks for a new login when the server revokes the token', async () => {
    await page.getByLabel('Login').fill(LOGIN);
    await page.getByLabel('Senha').fill(PASSWORD);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByRole('heading', { name: 'Início' }).waitFor();
    // Disabling a user revokes every token it holds; the app learns it at its next call.
    await setUserActive(createDb(db.pool), LOGIN, false);
    // The server caches the user row for 2 s (createAuthenticator); past that it sees the change.
    await page.waitForTimeout(2_100);
    await page.reload();
    await page.waitForURL(`${server.url}/login`);
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Sua sessão expirou ou foi encerrada');
    expect(await page.evaluate("localStorage.getItem('campo.session')")).toBeNull();
  });

  it('asks for the company code when the login is held in two, naming none, and enters the one typed', async () => {
    const second = suite.erp.tenants[1] as number;
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Login').fill(SHARED);
    await page.getByLabel('Senha').fill(PASSWORD);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('mais de uma empresa');
    // No company is named on the page (docs/security.md): the person types its code.
    expect(await page.locator('select, option').count()).toBe(0);
    await page.getByLabel('Código da empresa').fill(String(second));
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL((url) => url.pathname !== '/login');
    const stored = JSON.parse((await page.evaluate("localStorage.getItem('campo.session')")) as string);
    expect(stored.user.idEmpresa).toBe(second);
  });

  it('ran under the Content-Security-Policy without a violation', () => {
    expect(suite.cspViolations()).toEqual([]);
  });
});
