// Stock where the ERP keeps it (issue #19), the representative at 360 px: the catalog shows a
// product's stock and nothing for a product whose stock the ERP does not keep (unknown, not
// zero); the cart warns when a quantity exceeds the stock, and the order is still sent.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { addToCart, type CartProduct, sendOrder, WAIT, type WebServer } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import { orderableClient } from '../support/erp.ts';

const LOGIN = 'rep.estoque@campo.test';
const PASSWORD = 'senha-do-estoque-1';

interface Product extends CartProduct {
  id: number;
  unit: string;
  stock: number | null;
}

let idCliente: number;
let stocked: Product;
let unknown: Product;

const suite = useBrowserSuite({
  password: PASSWORD,
  logIn: LOGIN,
  users: [{ login: LOGIN, name: 'Estela Estoque', role: 'representative' }],
  setUp: async ({ db, rep }) => {
    ({ idCliente } = await orderableClient(db.pool, rep));
    const products = await db.pool.query<Product>(
      `select p.id_produto as id, p.cod_produto as code, p.descricao as description, p.unidade as unit,
              st.quantidade::float as stock
         from app.vw_produtos p
         join app.vw_clientes c on c.id_cliente = $2
         join app.vw_precos pr on pr.id_produto = p.id_produto and pr.id_pauta = c.id_pauta
         left join app.vw_estoque st on st.id_produto = p.id_produto and st.id_empresa = p.id_empresa
        where p.id_empresa = $1 and p.ativo
        order by p.id_produto`,
      [rep.idEmpresa, idCliente],
    );
    const withStock = products.rows.find((p) => p.stock !== null && p.stock > 0);
    const withoutStock = products.rows.find((p) => p.stock === null);
    if (!withStock || !withoutStock) throw new Error('the fixture has products with and without stock');
    stocked = withStock;
    unknown = withoutStock;
  },
});
const db = suite.db;
let server: WebServer;
let page: Page;

beforeAll(() => {
  ({ server, page } = suite);
});

const stockLabel = (p: Product) =>
  `Estoque ${p.stock?.toLocaleString('pt-BR', { maximumFractionDigits: 3 })} ${p.unit}`;

describe('stock', () => {
  it('shows the stock in the catalog, and nothing for a product whose stock the ERP does not keep', async () => {
    await page.goto(`${server.url}/catalogo`);
    const list = page.getByRole('list', { name: 'Produtos' });
    await page.getByLabel('Buscar produto').fill(stocked.code);
    const row = list.getByRole('listitem').filter({ hasText: stocked.description });
    await row.getByText(stockLabel(stocked), { exact: false }).waitFor(WAIT);
    await page.getByLabel('Buscar produto').fill(unknown.code);
    const other = list.getByRole('listitem').filter({ hasText: unknown.description });
    await other.first().waitFor(WAIT);
    expect(await other.getByText('Estoque', { exact: false }).count()).toBe(0);
  });

  it('warns in the cart when the quantity exceeds the stock, and sends the order all the same', async () => {
    await page.goto(`${server.url}/pedidos/novo?cliente=${idCliente}`);
    const line = await addToCart(page, stocked);
    await line.getByText(stockLabel(stocked), { exact: true }).waitFor(WAIT);
    const warning = line.getByText('Acima do estoque do ERP', { exact: false });
    await line.getByLabel('Quantidade').fill(String(stocked.stock));
    await line.getByLabel('Desconto (%)').fill('0');
    expect(await warning.count()).toBe(0);
    await line.getByLabel('Quantidade').fill(String((stocked.stock as number) + 1));
    await warning.waitFor(WAIT);
    const docId = await sendOrder(page);
    const { rows } = await db.pool.query<{ quantidade: string }>(
      `select i.quantidade from app.pedidos p join app.chaves_idempotencia k on k.id_pedido = p.id
         join app.pedido_itens i on i.id_pedido = p.id where k.chave = $1`,
      [docId],
    );
    expect(rows.map((r) => Number(r.quantidade))).toEqual([(stocked.stock as number) + 1]);
  });
});
