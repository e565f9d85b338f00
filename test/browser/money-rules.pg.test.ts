// The manager's "Crédito e flex" on /empresa in real Chromium (issue #40): the defaults shown,
// a share above 100 refused on the spot with nothing saved, then the policy and both flex
// settings saved, found in app.config_empresa as the API stored them and shown again after a
// reload; on a 360 px phone and a 1280 px desk, without sideways scroll.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { scrollsSideways, WAIT, type WebServer } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';

const MANAGER = 'gerente.credito@campo.test';

const suite = useBrowserSuite({
  password: 'senha-do-gerente-1',
  users: [{ login: MANAGER, name: 'Gabriela Gerente', role: 'manager' }],
  logIn: MANAGER,
});
const db = suite.db;
let server: WebServer;
let page: Page;
let idEmpresa: number;

beforeAll(() => {
  ({ server, page } = suite);
  idEmpresa = suite.rep.idEmpresa;
});

const stored = async () =>
  (
    await db.pool.query(
      `select politica_credito, flex_percentual_credito::text as share, flex_maximo_pontos::text as points
         from app.config_empresa where id_empresa = $1`,
      [idEmpresa],
    )
  ).rows[0] ?? null;

const share = () => page.getByLabel('% do valor acima da tabela que vai para o saldo flex');
const points = () => page.getByLabel('Desconto máximo além do teto (pontos percentuais)');
const policy = (name: string) => page.getByRole('radio', { name });
const save = () => page.getByRole('button', { name: 'Salvar regras de crédito e flex' });
const sidewaysScroll = () => scrollsSideways(page);

describe("the manager's credit and flex settings", () => {
  it('shows the defaults, refuses a share above 100 on the spot, saves nothing', async () => {
    await page.goto(`${server.url}/empresa`);
    await page.getByRole('heading', { name: 'Crédito e flex' }).waitFor(WAIT);
    expect(await policy('Sinalizar para o aprovador').isChecked()).toBe(true);
    expect(await share().inputValue()).toBe('0');
    expect(await points().inputValue()).toBe('0');

    await share().fill('150');
    await points().fill('1,005');
    await save().click();
    await page.getByText('Informe um percentual de 0 a 100.').waitFor(WAIT);
    await page.getByText('Use no máximo duas casas decimais.').waitFor(WAIT);
    expect(await share().getAttribute('aria-invalid')).toBe('true');
    expect(await share().inputValue()).toBe('150');
    expect(await stored()).toBeNull();
    expect(await sidewaysScroll()).toBe(false);
  });

  it('saves the policy and the flex settings, and shows them again after a reload', async () => {
    await policy('Bloquear o pedido').check();
    await share().fill('50');
    await points().fill('2,5');
    await save().click();
    await page.getByText('Regras de crédito e flex salvas.').waitFor(WAIT);
    expect(await share().getAttribute('aria-invalid')).toBeNull();
    expect(await stored()).toEqual({ politica_credito: 'block', share: '50.00', points: '2.50' });

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.reload();
    await page.getByRole('heading', { name: 'Crédito e flex' }).waitFor(WAIT);
    await expect.poll(() => share().inputValue(), WAIT).toBe('50');
    expect(await points().inputValue()).toBe('2,5');
    expect(await policy('Bloquear o pedido').isChecked()).toBe(true);
    expect(await policy('Sinalizar para o aprovador').isChecked()).toBe(false);
    expect(await sidewaysScroll()).toBe(false);
  });
});
