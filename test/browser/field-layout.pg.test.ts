// The field-experience layout in real Chromium (issue #19): a representative's phone at 360 px
// (the first download named as such, the tab bar with icons and room between its labels, order
// lines as cards, the cart's total stuck to the screen while products are added, the print view
// within the screen, everything still on the phone counted by the sync strip, a ticket not sent
// yet said so, push unavailable explained) and a supervisor's desk at 1280 px (a side bar, no
// tab bar, the screen using the width).
import { randomUUID } from 'node:crypto';
import { businessDate } from '@campo/shared';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addToCart,
  createProspectCard,
  logIn,
  logOut,
  WAIT,
  type WebServer,
  waitForServiceWorker,
} from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import { orderableSale } from '../support/erp.ts';

const PASSWORD = 'senha-do-campo-19';
const REP = 'rep.campo19@campo.test';
const SUP = 'sup.campo19@campo.test';
const MANAGER = 'ger.campo19@campo.test';

let sale: { idCliente: number; idProduto: number; code: string; description: string; grupo: number };
/** Holds the first products pull, so the first download can be seen on screen. */
let releaseProducts: () => void = () => undefined;
const productsHeld = new Promise<void>((resolve) => {
  releaseProducts = resolve;
});

const suite = useBrowserSuite({
  password: PASSWORD,
  users: [
    { login: REP, name: 'Rosa Campo', role: 'representative' },
    { login: SUP, name: 'Saulo Mesa', role: 'supervisor' },
    { login: MANAGER, name: 'Marta Promo', role: 'manager' },
  ],
  setUp: async ({ db, rep }) => {
    sale = await orderableSale(db.pool, rep);
  },
  server: {
    wrap: (app) => async (req) => {
      if (new URL(req.url).pathname === '/api/v1/sync/produtos/pull') await productsHeld;
      return app(req);
    },
  },
});
const db = suite.db;
let server: WebServer;
let page: Page;

beforeAll(async () => {
  ({ server, page } = suite);
  // An order the server already holds, so the representative has order lines to read.
  const token = await suite.token(REP);
  const order = await fetch(`${server.url}/api/v1/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': randomUUID() },
    body: JSON.stringify({
      idCliente: sale.idCliente,
      itens: [{ idProduto: sale.idProduto, quantidade: 12, descontoPercent: 0 }],
    }),
  });
  expect(order.status, await order.clone().text()).toBe(201);
  // A promotion on the product's group, for the catalog's price after it.
  const rule = await fetch(`${server.url}/api/v1/politicas/regras`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await suite.token(MANAGER)}` },
    body: JSON.stringify({
      descricao: 'Promoção de campo',
      grupo: sale.grupo,
      percent: 10,
      vigenciaInicio: businessDate(),
      vigenciaFim: '2099-12-31',
      promocao: true,
    }),
  });
  expect(rule.status, await rule.clone().text()).toBe(201);
});

// A pull still held would keep the server from closing.
afterAll(() => releaseProducts());

const nav = () => page.getByRole('navigation', { name: 'Navegação principal' });
const strip = () => page.getByRole('status', { name: 'Sincronização' });

async function box(locator: ReturnType<Page['locator']>) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not on screen');
  return b;
}

describe("the representative's phone (360 px)", () => {
  it('names the first download "Baixando dados para o aparelho" until every collection arrived', async () => {
    await logIn(page, server.url, REP, PASSWORD);
    await strip()
      .filter({ hasText: /Baixando dados para o aparelho: \d+ de \d+/ })
      .waitFor(WAIT);
    releaseProducts();
    await strip()
      .filter({ hasText: /Sincronizado às \d\d:\d\d/ })
      .waitFor(WAIT);
    await waitForServiceWorker(page);
  });

  it('says why notifications cannot be turned on when the server sends none', async () => {
    // The test server has no VAPID keys: the switch explains instead of vanishing.
    await page
      .getByText('Notificações indisponíveis: o servidor do Campo desta empresa não está configurado')
      .waitFor(WAIT);
    expect(await page.getByRole('button', { name: 'Ativar notificações' }).count()).toBe(0);
  });

  it('has a tab bar at the bottom with an icon on every tab and room between the labels', async () => {
    const viewport = page.viewportSize() ?? { width: 0, height: 0 };
    const bar = await box(nav());
    expect(Math.round(bar.y + bar.height)).toBe(viewport.height);
    expect(bar.width).toBe(viewport.width);
    const links = nav().getByRole('link');
    expect(await links.count()).toBe(6);
    expect(await nav().locator('a svg').count()).toBe(6);
    const labels = await nav()
      .locator('a span')
      .evaluateAll((spans) =>
        spans.map((s) => {
          const r = (
            s as unknown as { getBoundingClientRect(): { left: number; right: number } }
          ).getBoundingClientRect();
          const el = s as unknown as { scrollWidth: number; clientWidth: number };
          return { left: r.left, right: r.right, cut: el.scrollWidth > el.clientWidth };
        }),
      );
    for (let i = 1; i < labels.length; i++) {
      expect((labels[i]?.left ?? 0) - (labels[i - 1]?.right ?? 0)).toBeGreaterThanOrEqual(6);
    }
    expect(labels.filter((l) => l.cut)).toEqual([]);
  });

  it('opens the catalog on the products, filters one tap away, with the price after a promotion', async () => {
    await nav().getByRole('link', { name: 'Catálogo' }).click();
    const list = page.getByRole('list', { name: 'Produtos' });
    await list.waitFor(WAIT);
    // The first products are on the first screen, under the search; pauta and group fold away.
    const first = await box(list.getByRole('listitem').first());
    expect(first.y + first.height).toBeLessThan((page.viewportSize()?.height ?? 0) - 60);
    expect(await page.getByLabel('Grupo').isVisible()).toBe(false);
    await page.locator('.catalog-filters summary').click();
    expect(await page.getByLabel('Grupo').isVisible()).toBe(true);
    await page.getByLabel('Buscar produto').fill(sale.code);
    const row = list.getByRole('listitem').filter({ hasText: sale.description });
    await row.getByText('Promoção', { exact: true }).waitFor(WAIT);
    const before = await row.locator('.price-promo s').textContent();
    const after = await row.locator('.price-promo > span').textContent();
    const value = (t: string | null) => Number((t ?? '').replace(/[^\d,]/g, '').replace(',', '.'));
    expect(value(after)).toBeCloseTo(value(before) * 0.9, 2);
    expect(after).toContain('com 10%');
  });

  it("shows an order's lines as cards, nothing scrolling sideways", async () => {
    await nav().getByRole('link', { name: 'Pedidos' }).click();
    const link = page.locator('.order-card a[href^="/pedidos/"]').first();
    await link.waitFor(WAIT);
    await link.click();
    const table = page.getByRole('table', { name: 'Itens do pedido' });
    await table.waitFor(WAIT);
    const layout = await table.evaluate((t) => {
      const el = t as unknown as {
        parentElement: { scrollWidth: number; clientWidth: number };
        querySelector(s: string): unknown;
      };
      const style = (e: unknown) =>
        (globalThis as unknown as { getComputedStyle(e: unknown): { display: string } }).getComputedStyle(e);
      return {
        scrolls: el.parentElement.scrollWidth > el.parentElement.clientWidth,
        row: style(el.querySelector('tbody tr')).display,
        head: (el.querySelector('thead') as { getBoundingClientRect(): { height: number } }).getBoundingClientRect()
          .height,
      };
    });
    expect(layout).toEqual({ scrolls: false, row: 'block', head: 1 });
    // Each figure is named on its card.
    const card = table.locator('tbody tr').first();
    expect(await card.locator('td[data-label="Qtd."]').textContent()).toBe('12');
    await card.locator('td[data-label="Total"]').waitFor();
  });

  it('keeps the letterhead and the order within the screen in the print view', async () => {
    await page.goto(`${page.url()}/imprimir`);
    await page.locator('.letterhead').waitFor(WAIT);
    const width = page.viewportSize()?.width ?? 0;
    const right = await page.locator('.print-view').evaluate((v) => {
      const all = (v as unknown as { querySelectorAll(s: string): ArrayLike<unknown> }).querySelectorAll('*');
      return Math.max(
        ...Array.from(all).map(
          (e) => (e as { getBoundingClientRect(): { right: number } }).getBoundingClientRect().right,
        ),
      );
    });
    expect(right).toBeLessThanOrEqual(width);
  });

  it("keeps the cart's line count and total on screen while products are added", async () => {
    await page.goto(`${server.url}/pedidos/novo?cliente=${sale.idCliente}`);
    await page.getByRole('heading', { name: 'Novo pedido' }).waitFor(WAIT);
    const summary = page.getByRole('status', { name: 'Resumo do pedido' });
    expect(await summary.textContent()).toContain('0 produtos');
    const line = await addToCart(page, sale);
    await line.getByLabel('Quantidade').fill('2');
    await expect.poll(() => summary.textContent()).toMatch(/^1 produtoR\$\s[\d.,]+$/);
    expect(await summary.textContent()).not.toContain('R$ 0,00');
    // Scrolled back to the product search, the total is still on screen, above the tab bar.
    await page.getByLabel('Buscar produto').scrollIntoViewIfNeeded();
    await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
    const bar = await box(nav());
    const total = await box(summary);
    expect(total.y).toBeGreaterThan(0);
    expect(total.y + total.height).toBeLessThanOrEqual(bar.y + 1);
    await page.getByRole('button', { name: 'Enviar pedido' }).waitFor();
  });

  it('counts everything waiting to leave the phone, and a ticket not sent yet says so', async () => {
    await page.goto(`${server.url}/`);
    await strip()
      .filter({ hasText: /Sincronizado às/ })
      .waitFor(WAIT);
    await suite.goOffline();
    await createProspectCard(page, 'Quitanda Sem Sinal');
    // The card's stage picker shows its whole prompt on a 360 px phone.
    const picker = page.getByRole('article', { name: 'Quitanda Sem Sinal' }).getByLabel('Mover para');
    const fits = await picker.evaluate((el) => {
      const select = el as unknown as { clientWidth: number; options: { text: string }[]; selectedIndex: number };
      const g = globalThis as unknown as {
        getComputedStyle(e: unknown): { font: string; paddingLeft: string; paddingRight: string };
        document: {
          createElement(t: string): {
            getContext(c: string): { font: string; measureText(t: string): { width: number } };
          };
        };
      };
      const style = g.getComputedStyle(el);
      const ctx = g.document.createElement('canvas').getContext('2d');
      ctx.font = style.font;
      const text = ctx.measureText(select.options[select.selectedIndex]?.text ?? '').width;
      return text <= select.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
    });
    expect(fits).toBe(true);
    await expect.poll(() => strip().textContent(), WAIT).toContain('Aguardando envio: 1 alteração no funil');
    await page.goto(`${server.url}/sac/novo`).catch(() => undefined);
    await page.getByRole('heading', { name: 'Novo chamado' }).waitFor(WAIT);
    await page.locator('select[name="idPedido"]').selectOption({ index: 1 });
    await page.getByLabel('Assunto').fill('Caixa amassada');
    await page.getByLabel('Mensagem').fill('Duas caixas chegaram amassadas.');
    await page.getByRole('button', { name: 'Abrir chamado' }).click();
    await page.getByRole('heading', { name: 'Caixa amassada' }).waitFor(WAIT);
    await page.getByText('Ainda não enviado: este chamado está só neste aparelho').waitFor(WAIT);
    await expect.poll(() => strip().textContent(), WAIT).toContain('Aguardando envio: 1 alteração no funil, 1 chamado');
    await page.getByRole('link', { name: '← Chamados' }).click();
    await page.getByText('Ainda não enviado', { exact: true }).waitFor(WAIT);
    // Back online, both leave and the strip has nothing waiting.
    await suite.context.setOffline(false);
    await server.restart();
    await expect.poll(() => strip().textContent(), { timeout: 60_000 }).not.toContain('Aguardando envio');
    const { rows } = await db.pool.query<{ n: number }>(
      "select count(*)::int as n from app.chamados where assunto = 'Caixa amassada'",
    );
    expect(rows[0]?.n).toBe(1);
  });
});

describe("the supervisor's desk (1280 px)", () => {
  it('has a side bar instead of the tab bar, and the screen uses the width', async () => {
    await logOut(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await logIn(page, server.url, SUP, PASSWORD);
    const side = await box(nav());
    expect(side.x).toBe(0);
    expect(side.width).toBeLessThan(260);
    expect(side.height).toBeGreaterThan(side.width);
    expect(side.y).toBeLessThan(120);
    const main = await box(page.locator('main'));
    expect(main.x).toBeGreaterThanOrEqual(side.x + side.width);
    expect(main.width).toBeGreaterThan(1000);
    // Back on a phone, the same person gets the tab bar.
    await page.setViewportSize({ width: 360, height: 740 });
    const bar = await box(nav());
    expect(Math.round(bar.y + bar.height)).toBe(740);
  });
});
