// The approver sees the client's credit (issue #40, docs/credit-and-flex.md) in real Chromium:
// a manager sets a client's limit, the policy stays 'flag', the representative's order beyond
// it is accepted and marked; the supervisor's queue shows the mark with the amount beyond, and
// the review the figures the server judged the order by; an order for a client without a
// limit says no check was made. On a 360 px phone and a 1280 px desk, without sideways scroll.
import type { Order } from '@campo/shared';
import { formatBrl } from '@campo/shared/format';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callApi, logIn, scrollsSideways, WAIT, type WebServer } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import { clearForOrders } from '../support/erp.ts';

const REP = 'rep.credito@campo.test';
const SUP = 'sup.credito@campo.test';
const MANAGER = 'gerente.credito@campo.test';
const PASSWORD = 'senha-do-credito-1';
const LIMIT = 10;

/** Two clients of the representative that can receive orders, each with a priced product. */
let sales: { idCliente: number; idProduto: number }[] = [];
const suite = useBrowserSuite({
  password: PASSWORD,
  users: [
    { login: REP, name: 'Rita Crédito', role: 'representative' },
    { login: SUP, name: 'Sérgio Supervisor', role: 'supervisor' },
    { login: MANAGER, name: 'Gabriela Gerente', role: 'manager' },
  ],
  setUp: async ({ db, rep }) => {
    const { rows } = await db.pool.query<{ id_cliente: number; id_produto: number }>(
      `select distinct on (c.id_cliente) c.id_cliente, p.id_produto
         from app.vw_clientes c
         join app.vw_precos pr on pr.id_pauta = c.id_pauta and pr.id_empresa = c.id_empresa
         join app.vw_produtos p on p.id_produto = pr.id_produto and p.id_empresa = c.id_empresa and p.ativo
        where c.id_empresa = $1 and c.cod_vendedor = $2
        order by c.id_cliente, p.id_produto limit 2`,
      [rep.idEmpresa, rep.codVendedor],
    );
    if (rows.length < 2) throw new Error('the fixture has fewer than two orderable clients');
    for (const r of rows) await clearForOrders(db.pool, r.id_cliente);
    sales = rows.map((r) => ({ idCliente: r.id_cliente, idProduto: r.id_produto }));
  },
});
const db = suite.db;
let server: WebServer;
let page: Page;
let beyond: Order;
let unchecked: Order;

const brl = (n: number) => formatBrl(n).replace(/\u00a0/g, ' ');
/** The page's text as people read it (Intl's no-break spaces as spaces). */
const said = async (where: ReturnType<Page['getByRole']>) =>
  ((await where.textContent()) ?? '').replace(/\u00a0/g, ' ');
const sidewaysScroll = () => scrollsSideways(page);

const call = async (login: string, method: string, path: string, body: unknown) =>
  callApi(server, await suite.token(login), method, path, body);

async function placeOrder(sale: { idCliente: number; idProduto: number }): Promise<Order> {
  const res = await call(REP, 'POST', '/orders', {
    idCliente: sale.idCliente,
    itens: [{ idProduto: sale.idProduto, quantidade: 3, descontoPercent: 0 }],
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Order;
}

beforeAll(async () => {
  ({ server, page } = suite);
  const [limited, free] = sales as [(typeof sales)[number], (typeof sales)[number]];
  const set = await call(MANAGER, 'PUT', `/clients/${limited.idCliente}/credit-limit`, { creditLimit: LIMIT });
  expect(set.status, await set.clone().text()).toBe(200);
  beyond = await placeOrder(limited);
  unchecked = await placeOrder(free);
  // Accepted under the default policy, and marked.
  const policy = await db.pool.query('select politica_credito from app.config_empresa where id_empresa = $1', [
    suite.rep.idEmpresa,
  ]);
  expect(policy.rows[0]?.politica_credito ?? 'flag').toBe('flag');
  expect(beyond.valorTotal).toBeGreaterThan(LIMIT);
  expect(beyond.credit).toEqual({ limit: LIMIT, open: 0, available: LIMIT, exceeded: true });
  expect(unchecked.credit).toBeNull();
  await logIn(page, server.url, SUP, PASSWORD);
});

const card = (o: Order) =>
  page
    .getByRole('list', { name: 'Pedidos aguardando aprovação' })
    .getByRole('listitem')
    .filter({ has: page.getByText(`Pedido nº ${o.numPedSar}`, { exact: true }) });

describe.each([
  { width: 360, height: 740 },
  { width: 1280, height: 800 },
])("the approver sees the client's credit at $width px", (viewport) => {
  it('marks in the queue the order beyond the credit, with the amount, and only it', async () => {
    await page.setViewportSize(viewport);
    await page.goto(`${server.url}/aprovacoes`);
    await page.getByRole('heading', { name: 'Aprovações' }).waitFor(WAIT);
    await card(beyond).waitFor(WAIT);
    await expect
      .poll(() => said(card(beyond).getByText('Acima do crédito')), WAIT)
      .toBe(`Acima do crédito em ${brl(beyond.valorTotal - LIMIT)}`);
    await card(unchecked).waitFor(WAIT);
    expect(await card(unchecked).getByText('Acima do crédito').count()).toBe(0);
    expect(await sidewaysScroll()).toBe(false);
  });

  it('shows in the review the limit, the open amount, this order and what is left, negative', async () => {
    await card(beyond).getByRole('link').click();
    await page.getByRole('heading', { name: `Pedido nº ${beyond.numPedSar}` }).waitFor(WAIT);
    const block = page.getByRole('region', { name: 'Crédito do cliente' });
    await block.waitFor(WAIT);
    const after = beyond.valorTotal - LIMIT;
    expect(await said(block)).toBe(
      [
        'Crédito do cliente',
        `Este pedido passa ${brl(after)} do crédito disponível do cliente.`,
        `Limite${brl(LIMIT)}`,
        `Em aberto (títulos + pedidos)${brl(0)}`,
        `Este pedido${brl(beyond.valorTotal)}`,
        `Disponível após este pedido${brl(-after)} (negativo)`,
      ].join(''),
    );
    expect(await sidewaysScroll()).toBe(false);
  });

  it('says no check was made for a client without a limit', async () => {
    await page.goto(`${server.url}/aprovacoes/${unchecked.id}`);
    await page.getByRole('heading', { name: `Pedido nº ${unchecked.numPedSar}` }).waitFor(WAIT);
    const block = page.getByRole('region', { name: 'Crédito do cliente' });
    await expect.poll(() => said(block), WAIT).toBe('Crédito do clienteCliente sem limite de crédito definido.');
    expect(await sidewaysScroll()).toBe(false);
  });
});
