// ERP orders in the representative's app (issue #19), at 360 px: an order the ERP took for one
// of the rep's clients (telesales, counter) shows, marked "ERP", in Início's recent orders, in
// the Pedidos list and in the client's history; it opens with its lines, and "Repetir pedido"
// starts a cart with its products and quantities. Offline, an order never opened says its
// lines wait for a connection.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { logIn, type WebServer } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import { orderableClient } from '../support/erp.ts';

const LOGIN = 'rep.erp@campo.test';
const PASSWORD = 'senha-do-erp-1';
const WAIT = { timeout: 30_000 };

interface Line {
  id: number;
  description: string;
  quantity: number;
}

let idCliente = 0;
let erpId = 0;
let numPedido = 0;
let lines: Line[] = [];
/** Another ERP order of the same client, never opened on the device. */
let unopened = 0;

/** An order the ERP took for the client an hour ago, with the given lines at their list price. */
async function erpOrder(
  pool: import('pg').Pool,
  rep: { idEmpresa: number; codVendedor: number },
  items: Line[],
  idPauta: number,
): Promise<{ id: number; num: number }> {
  const company = (
    await pool.query<{ id: number }>(
      `select v.id_empresa as id from public.vendedores v join public.empresas e on e.id_empresa = v.id_empresa
        where coalesce(e.id_matriz, e.id_empresa) = $1 and v.cod_vendedor = $2 limit 1`,
      [rep.idEmpresa, rep.codVendedor],
    )
  ).rows[0]?.id;
  const order = await pool.query<{ id: number; num: number }>(
    `insert into public.pedidos_venda (id_empresa, num_pedido, id_corrent, cod_vendedor, dt_emissao, situacao, valor_total)
     values ($1, (select coalesce(max(num_pedido), 0) + 1 from public.pedidos_venda where id_empresa = $1),
             $2, $3, localtimestamp - interval '1 hour', 'A', 0)
     returning id_pedido as id, num_pedido as num`,
    [company, idCliente, rep.codVendedor],
  );
  const row = order.rows[0];
  if (!row) throw new Error('no ERP order');
  for (const [i, item] of items.entries()) {
    await pool.query(
      `insert into public.pedidos_venda_itens (id_pedido, seq, id_produto, quantidade, preco_tabela, preco_unitario, valor_total)
       select $1, $2, $3, $4, pr.preco, pr.preco, round(pr.preco * $4, 2)
         from app.vw_precos pr where pr.id_produto = $3 and pr.id_pauta = $5 limit 1`,
      [row.id, i + 1, item.id, item.quantity, idPauta],
    );
  }
  await pool.query(
    'update public.pedidos_venda set valor_total = (select sum(valor_total) from public.pedidos_venda_itens where id_pedido = $1) where id_pedido = $1',
    [row.id],
  );
  return row;
}

const suite = useBrowserSuite({
  password: PASSWORD,
  users: [{ login: LOGIN, name: 'Érica Televendas', role: 'representative' }],
  setUp: async ({ db, rep }) => {
    ({ idCliente } = await orderableClient(db.pool, rep));
    const idPauta = (await db.pool.query('select id_pauta from app.vw_clientes where id_cliente = $1', [idCliente]))
      .rows[0].id_pauta as number;
    const products = await db.pool.query<{ id: number; description: string }>(
      `select p.id_produto as id, p.descricao as description
         from app.vw_produtos p join app.vw_precos pr on pr.id_produto = p.id_produto and pr.id_pauta = $2
        where p.id_empresa = $1 and p.ativo order by p.id_produto limit 2`,
      [rep.idEmpresa, idPauta],
    );
    const [a, b] = products.rows;
    if (!a || !b) throw new Error('the fixture has fewer than two products on the pauta');
    lines = [
      { ...a, quantity: 4 },
      { ...b, quantity: 9 },
    ];
    const made = await erpOrder(db.pool, rep, lines, idPauta);
    erpId = made.id;
    numPedido = made.num;
    unopened = (await erpOrder(db.pool, rep, [{ ...a, quantity: 1 }], idPauta)).id;
  },
});

let server: WebServer;
let page: Page;

beforeAll(() => {
  ({ server, page } = suite);
});

describe('ERP orders of the portfolio', () => {
  it('shows the ERP order, marked ERP, in Início and in the Pedidos list', async () => {
    await logIn(page, server.url, LOGIN, PASSWORD);
    const recent = page.getByRole('article', { name: 'Pedidos recentes' });
    const row = recent.getByRole('listitem').filter({ hasText: `Pedido ${numPedido} ·` });
    await row.waitFor(WAIT);
    expect(await row.getByText('ERP', { exact: true }).count()).toBe(1);
    // Início no longer says the rep has no orders while the ERP sold to their clients.
    expect(await recent.getByText('Nenhum pedido neste aparelho').count()).toBe(0);

    await page.goto(`${server.url}/pedidos`);
    const erpList = page.getByRole('region', { name: 'Pedidos feitos no ERP (últimos 7 dias)' });
    const card = erpList.getByRole('article', { name: `Pedido nº ${numPedido}` });
    await card.waitFor(WAIT);
    expect(await card.getByText('ERP', { exact: true }).count()).toBe(1);
  });

  it("lists it in the client's history, opens it with its lines, and repeats it", async () => {
    await page.goto(`${server.url}/clientes/${idCliente}`);
    const history = page.locator('.order-list li').filter({ hasText: `Pedido ${numPedido}` });
    await history.waitFor(WAIT);
    expect(await history.getByText('ERP', { exact: true }).count()).toBe(1);
    await history.getByRole('link', { name: `Pedido ${numPedido}` }).click();
    await page.waitForURL(new RegExp(`/clientes/${idCliente}/pedidos-erp/${erpId}$`), WAIT);
    await page.getByRole('heading', { name: `Pedido ${numPedido} ERP` }).waitFor(WAIT);
    for (const l of lines) await page.getByText(l.description, { exact: true }).waitFor(WAIT);

    await page.getByRole('link', { name: 'Repetir pedido' }).click();
    await page.waitForURL(/\/pedidos\/novo\?cliente=\d+&repetir=erp-\d+$/, WAIT);
    await page.getByRole('heading', { name: 'Novo pedido' }).waitFor(WAIT);
    for (const l of lines) {
      const line = page.getByRole('article', { name: l.description, exact: true });
      await line.waitFor(WAIT);
      expect(await line.getByLabel('Quantidade').inputValue()).toBe(String(l.quantity));
    }
  });

  it('offline, an ERP order never opened says its lines wait for a connection; one opened still shows', async () => {
    await page.goto(`${server.url}/clientes/${idCliente}`);
    await page.getByRole('heading', { name: 'Últimos pedidos' }).waitFor(WAIT);
    await suite.goOffline();
    await page.goto(`${server.url}/clientes/${idCliente}/pedidos-erp/${unopened}`);
    await page.getByText('ficam disponíveis quando houver conexão').waitFor(WAIT);
    await page.goto(`${server.url}/clientes/${idCliente}/pedidos-erp/${erpId}`);
    await page.getByText('Cópia guardada neste aparelho.').waitFor(WAIT);
    for (const l of lines) await page.getByText(l.description, { exact: true }).waitFor(WAIT);
  });
});
