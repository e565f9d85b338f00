// The client's mix as a suggested order (issue #41), the representative at 360 px: the cart's
// "Sugestão" lists what the client buys, flags what it stopped buying, adds one product with a
// tap and the rest with "Adicionar todos" at their usual quantities, and the order sent carries
// them; the client's page shows the same mix and what is not bought this month; both from the
// synced clientes document, so with the server stopped too.
import { beforeAll, describe, expect, it } from 'vitest';
import { logInAndSync, scrollsSideways, sendOrder, WAIT, type WebServer } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import { anErpOrder, withoutRecentErpOrders } from '../support/builders.ts';
import { orderableClient } from '../support/erp.ts';

const REP = 'rep.mix@campo.test';
const PASSWORD = 'senha-do-mix-1';

interface Product {
  id: number;
  code: string;
  description: string;
  price: number;
}

let idCliente: number;
/** Bought every month until 45 days ago (stands out), every other month, once. */
let monthly: Product;
let bimonthly: Product;
let once: Product;

const suite = useBrowserSuite({
  password: PASSWORD,
  users: [{ login: REP, name: 'Mirela Mix', role: 'representative' }],
  setUp: async ({ db, rep }) => {
    ({ idCliente } = await orderableClient(db.pool, rep));
    const products = await db.pool.query<Product>(
      `select p.id_produto as id, p.cod_produto as code, p.descricao as description, pr.preco::float8 as price
         from app.vw_produtos p
         join app.vw_clientes c on c.id_cliente = $2
         join app.vw_precos pr on pr.id_produto = p.id_produto and pr.id_pauta = c.id_pauta
        where p.id_empresa = $1 and p.ativo order by p.id_produto limit 3`,
      [rep.idEmpresa, idCliente],
    );
    [monthly, bimonthly, once] = products.rows as [Product, Product, Product];
    await withoutRecentErpOrders(db.pool, [idCliente]);
    for (const daysAgo of [45, 75, 105, 135, 165]) {
      await anErpOrder(db.pool, rep, idCliente, {
        daysAgo,
        lines: [
          { product: monthly.id, quantity: 4, price: 10 },
          ...(daysAgo % 60 === 45 ? [{ product: bimonthly.id, quantity: 2, price: 5 }] : []),
        ],
      });
    }
    await anErpOrder(db.pool, rep, idCliente, { daysAgo: 20, lines: [{ product: once.id, quantity: 5, price: 3 }] });
  },
});
const db = suite.db;
let server: WebServer;

beforeAll(() => {
  server = suite.server;
});

describe("the client's mix on the representative's phone", () => {
  it('suggests what the client buys: one tap adds one, "Adicionar todos" the rest, and the order carries them', async () => {
    const page = suite.page;
    await page.setViewportSize({ width: 360, height: 740 });
    await logInAndSync(page, server.url, REP, PASSWORD);
    await page.goto(`${server.url}/pedidos/novo?cliente=${idCliente}`);
    const suggestion = page.getByRole('list', { name: 'Sugestão' });
    await suggestion.waitFor(WAIT);
    // The most bought first; the one not bought for 45 days, against its monthly rhythm, stands out.
    const entries = suggestion.getByRole('listitem');
    expect(await entries.count()).toBe(3);
    await entries.nth(0).getByText(monthly.description).waitFor(WAIT);
    await entries.nth(0).getByText('há 45 dias sem comprar').waitFor(WAIT);
    await entries
      .nth(0)
      .getByText(/em 5 pedidos · costuma levar 4/)
      .waitFor(WAIT);
    expect(await entries.nth(1).getByText('sem comprar').count()).toBe(0);
    expect(await scrollsSideways(page)).toBe(false);

    await page.getByRole('button', { name: `Adicionar ${monthly.description} da sugestão`, exact: true }).click();
    const first = page.getByRole('article', { name: monthly.description, exact: true });
    await first.waitFor(WAIT);
    expect(await first.getByLabel('Quantidade').inputValue()).toBe('4');
    await page.getByRole('button', { name: /^Adicionar todos \(2\)$/ }).click();
    for (const [p, q] of [
      [bimonthly, '2'],
      [once, '5'],
    ] as const) {
      const line = page.getByRole('article', { name: p.description, exact: true });
      await line.waitFor(WAIT);
      expect(await line.getByLabel('Quantidade').inputValue()).toBe(q);
      await line.getByLabel('Desconto (%)').fill('0');
    }
    await first.getByLabel('Desconto (%)').fill('0');
    expect(await page.getByRole('button', { name: /^Adicionar todos/ }).isDisabled()).toBe(true);
    expect(await scrollsSideways(page)).toBe(false);
    await sendOrder(page);

    // The order the server created holds the three products at their usual quantities, at today's prices.
    await expect
      .poll(
        async () =>
          (
            await db.pool.query<{ id_produto: number; quantidade: number; preco: number }>(
              `select i.id_produto, i.quantidade::float8 as quantidade, i.preco_unitario::float8 as preco
                 from app.pedido_itens i join app.pedidos p on p.id = i.id_pedido
                where p.id_cliente = $1 order by i.id_produto`,
              [idCliente],
            )
          ).rows,
        { timeout: 30_000 },
      )
      .toEqual(
        [
          { id_produto: monthly.id, quantidade: 4, preco: monthly.price },
          { id_produto: bimonthly.id, quantidade: 2, preco: bimonthly.price },
          { id_produto: once.id, quantidade: 5, preco: once.price },
        ].sort((a, b) => a.id_produto - b.id_produto),
      );
  });

  it("shows the mix and what is not bought this month on the client's page, and the suggestion, with the server stopped", async () => {
    const page = suite.page;
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`${server.url}/clientes/${idCliente}`);
    await page.getByRole('list', { name: 'Mix do cliente' }).waitFor(WAIT);
    await suite.goOffline();

    await page.goto(`${server.url}/clientes/${idCliente}`);
    const mix = page.getByRole('list', { name: 'Mix do cliente' });
    await mix.waitFor(WAIT);
    expect(await mix.getByRole('listitem').count()).toBe(3);
    // By name, not code: the product last bought 45 days ago is not bought this month, whatever the day.
    const month = page.getByRole('region', { name: /sem compra em|já foi comprado/ });
    await month.waitFor(WAIT);
    const text = (await month.textContent()) ?? '';
    expect(text).toContain(monthly.description);
    expect(await scrollsSideways(page)).toBe(false);

    await page.goto(`${server.url}/pedidos/novo?cliente=${idCliente}`);
    const suggestion = page.getByRole('list', { name: 'Sugestão' });
    await suggestion.waitFor(WAIT);
    await suggestion.getByText('há 45 dias sem comprar').waitFor(WAIT);
  });
});
