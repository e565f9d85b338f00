// Repeat an order (issue #19), the representative at 360 px: from a past order, "Repetir
// pedido" starts a cart with its products and quantities at today's prices (a price the ERP
// changed since), and leaves out, by name, a product the ERP has deactivated since.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../support/app.ts';
import { addToCart, type CartProduct, sendOrder, WAIT, type WebServer } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import { orderableClient } from '../support/erp.ts';
import { logInAs } from '../support/session.ts';

const LOGIN = 'rep.repetir@campo.test';
const PASSWORD = 'senha-do-repetir-1';

interface Product extends CartProduct {
  id: number;
}

let idCliente: number;
let idPauta: number;
let kept: Product;
let dropped: Product;
let managerToken: string;
let api: ReturnType<typeof testApp>;

const suite = useBrowserSuite({
  password: PASSWORD,
  logIn: LOGIN,
  users: [{ login: LOGIN, name: 'Renata Repete', role: 'representative' }],
  setUp: async ({ db, rep }) => {
    ({ idCliente } = await orderableClient(db.pool, rep));
    idPauta = (await db.pool.query('select id_pauta from app.vw_clientes where id_cliente = $1', [idCliente])).rows[0]
      .id_pauta;
    const products = await db.pool.query<Product>(
      `select p.id_produto as id, p.cod_produto as code, p.descricao as description
         from app.vw_produtos p join app.vw_precos pr on pr.id_produto = p.id_produto and pr.id_pauta = $2
        where p.id_empresa = $1 and p.ativo order by p.id_produto limit 2`,
      [rep.idEmpresa, idPauta],
    );
    [kept, dropped] = products.rows as [Product, Product];
    api = testApp(db.pool);
    managerToken = await logInAs(api, db.pool, {
      login: 'ger.repetir@campo.test',
      role: 'manager',
      idEmpresa: rep.idEmpresa,
    });
  },
});
const db = suite.db;
let server: WebServer;
let page: Page;

beforeAll(() => {
  ({ server, page } = suite);
});

describe('repeat an order', () => {
  it("starts a cart with the past order's products and quantities, at today's prices, leaving out what is no longer sold", async () => {
    await page.goto(`${server.url}/pedidos/novo?cliente=${idCliente}`);
    await addToCart(page, kept, '7');
    await addToCart(page, dropped, '2');
    await sendOrder(page);
    const orderUrl = page.url();

    // Since then the ERP raised a price and deactivated a product.
    await db.pool.query('update pautas_precos set preco = 123.45 where id_produto = $1 and id_pauta = $2', [
      kept.id,
      idPauta,
    ]);
    await db.pool.query("update produtos set ativo = 'N' where id_produto = $1", [dropped.id]);
    // The change log learns of it, as the schedule would.
    const refreshed = await api.request('/api/v1/catalog/sync', {
      method: 'POST',
      headers: { authorization: `Bearer ${managerToken}` },
    });
    expect(refreshed.status).toBe(200);
    // A fresh start pulls every collection from its checkpoint; the product's page says when
    // the deactivation has reached the device.
    await page.goto(`${server.url}/catalogo/${dropped.id}`);
    await page.getByText('Produto inativo no ERP', { exact: false }).waitFor(WAIT);
    await page.goto(orderUrl);
    await page.getByRole('link', { name: 'Repetir pedido' }).click();
    await page.waitForURL(/\/pedidos\/novo\?cliente=\d+&repetir=/, WAIT);
    await page.getByRole('heading', { name: 'Novo pedido' }).waitFor(WAIT);
    const line = page.getByRole('article', { name: kept.description, exact: true });
    await line.waitFor(WAIT);
    expect(await line.getByLabel('Quantidade').inputValue()).toBe('7');
    await line.getByText(/Preço de tabela R\$\s123,45/).waitFor(WAIT);
    expect(await page.getByRole('article', { name: dropped.description, exact: true }).count()).toBe(0);
    const note = page.locator('p.notice', { hasText: 'Não vieram do pedido repetido' });
    await note.waitFor(WAIT);
    expect(await note.textContent()).toContain(dropped.description);
  });
});
