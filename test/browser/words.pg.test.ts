// What a Brazilian representative reads on a 360 px phone (issue #50, item 8): every tab label
// and the header's name whole (no "Catálo…"), one name for a client on every screen (the trade
// name first: "Depósito de Bebidas Conquista", never its legal name on one screen and its trade
// name on another), a CNPJ and a CEP masked and never broken across lines, a count with its noun
// in the right number, and "sem internet" where the app speaks of working offline.
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { logInAndSync, WAIT, type WebServer } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import { orderableSale } from '../support/erp.ts';
import { auditScreen } from '../support/screen-audit.ts';

const PASSWORD = 'senha-das-palavras-50';
// A long name, as ERP names are: it must be read whole in the header.
const REP = { login: 'rep.palavras@campo.test', name: 'Maria Aparecida dos Santos Figueiredo' };
const TRADE = 'Depósito de Bebidas Conquista';
const LEGAL = 'Maria Jordão de Jesus';
const CNPJ = '11222333000181';

let sale: { idCliente: number; idProduto: number; code: string; description: string };

const suite = useBrowserSuite({
  password: PASSWORD,
  users: [{ ...REP, role: 'representative' }],
  setUp: async ({ db, rep }) => {
    sale = await orderableSale(db.pool, rep);
    // The client as the ERP keeps a shop run by a person: a trade name, a legal name that is
    // the owner's, a CNPJ and a CEP stored as bare digits.
    await db.pool.query(
      `update public.corrent set nome_fantasia = $2, razao_social = $3, cnpj_cpf = $4, cep = '24260761',
              endereco = 'Rua Mário Viana', numero = '120', cidade = 'Niterói', uf = 'RJ'
        where id_corrent = $1`,
      [sale.idCliente, TRADE, LEGAL, CNPJ],
    );
  },
});
let server: WebServer;
let page: Page;
let orderNumber: number;
/** The client's name as the server copied it into the order. */
let storedName: string;

beforeAll(async () => {
  ({ server, page } = suite);
  const res = await fetch(`${server.url}/api/v1/orders`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${await suite.token(REP.login)}`,
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify({
      idCliente: sale.idCliente,
      itens: [{ idProduto: sale.idProduto, quantidade: 2, descontoPercent: 0 }],
    }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const order = (await res.json()) as { numPedSar: number; nomeCliente: string };
  orderNumber = order.numPedSar;
  storedName = order.nomeCliente;
});

const nav = () => page.getByRole('navigation', { name: 'Navegação principal' });

/** Nothing on the screen cut with an ellipsis, nothing past its edge. */
async function readable(name: string) {
  const found = await auditScreen(page);
  expect(found.truncated, name).toEqual([]);
  expect(found.overflow, name).toEqual([]);
}

describe('what the representative reads at 360 px', () => {
  it('reads every tab and the header whole, whichever tab is active', async () => {
    await logInAndSync(page, server.url, REP.login, PASSWORD);
    expect(page.viewportSize()?.width).toBe(360);
    for (const tab of ['Início', 'Clientes', 'Catálogo', 'Pedidos', 'Funil', 'SAC']) {
      await nav().getByRole('link', { name: tab, exact: true }).click();
      await expect.poll(() => nav().locator('a[aria-current="page"]').textContent(), WAIT).toBe(tab);
      await page.locator('main h1').first().waitFor(WAIT);
      await readable(tab);
    }
    await page.locator('.app-header .who').getByText(REP.name, { exact: true }).waitFor(WAIT);
  });

  it('names the client by its trade name on Clientes, Pedidos, the order page and in the order the server stored', async () => {
    // The server's copy (listings, the PDF, push messages) names it by the same rule.
    expect(storedName).toBe(TRADE);
    await page.goto(`${server.url}/clientes`);
    await page.getByLabel('Buscar cliente').fill('Conquista');
    await page
      .getByRole('link', { name: new RegExp(TRADE) })
      .first()
      .waitFor(WAIT);

    await page.goto(`${server.url}/pedidos`);
    const card = page
      .locator('.order-card')
      .filter({ has: page.getByRole('heading', { name: `Pedido nº ${orderNumber}`, exact: true }) });
    await card.getByText(TRADE, { exact: true }).waitFor(WAIT);
    expect(await card.getByText(LEGAL).count()).toBe(0);
    expect(await card.textContent()).toContain('1 item');

    await card.getByRole('link').first().click();
    const facts = page.locator('dl.order-facts');
    await facts.getByText(TRADE, { exact: false }).waitFor(WAIT);
    expect(await facts.textContent()).not.toContain(LEGAL);
    // The CNPJ masked and on one line; the CEP masked.
    const cnpj = facts.locator('.nowrap', { hasText: '11.222.333/0001-81' });
    await cnpj.waitFor(WAIT);
    const lines = await cnpj.evaluate((el) => el.getClientRects().length);
    expect(lines).toBe(1);
    const delivery = await facts.textContent();
    expect(delivery).toContain('CEP 24260-761');
    expect(delivery).not.toContain('CEP 24260761');
    await readable('pedido');
  });

  it('says "sem internet", never "offline", where photos are kept for use without signal', async () => {
    await page.goto(`${server.url}/sincronizacao`);
    await page.getByRole('button', { name: 'Baixar fotos para usar sem internet' }).waitFor(WAIT);
    expect(await page.locator('main').textContent()).not.toMatch(/offline/i);
  });
});
