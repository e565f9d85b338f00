import { beforeAll, describe, expect, it } from 'vitest';
import { addToCart, logIn, sendOrder, WAIT, type WebServer } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import { orderableSale, owesOverdueBoleto, partlyInvoiced } from '../support/erp.ts';
import { mentionsNumber } from '../support/mentions.ts';

const REP = 'rep.aprovacao@campo.test';
const SUP = 'sup.aprovacao@campo.test';
const PASSWORD = 'senha-da-aprovacao-1';

let order: { id: number; numPedSar: number };
let sale: { idCliente: number; code: string; description: string };
const suite = useBrowserSuite({
  password: PASSWORD,
  users: [
    { login: REP, name: 'Rita Aprovação', role: 'representative' },
    { login: SUP, name: 'Sérgio Supervisor', role: 'supervisor' },
  ],
  setUp: async ({ db, rep }) => {
    // A client of the rep that can receive orders, and a product with a price on its pauta.
    sale = await orderableSale(db.pool, rep);
  },
  // The representative's phone and the supervisor's.
  browsers: 2,
});
const db = suite.db;
let server: WebServer;

beforeAll(() => {
  server = suite.server;
});

describe('order approval across two browsers', () => {
  it('takes the order in the representative’s cart and shows it awaiting approval', async () => {
    const page = suite.pageOf(0);
    await logIn(page, server.url, REP, PASSWORD);
    await page.goto(`${server.url}/pedidos/novo?cliente=${sale.idCliente}`);
    await page.getByRole('heading', { name: 'Novo pedido' }).waitFor(WAIT);
    await expect.poll(() => page.getByText('ainda não chegaram').count(), WAIT).toBe(0);
    await addToCart(page, sale, '3');
    const docId = await sendOrder(page);
    const { rows } = await db.pool.query<{ id: number; num_ped_sar: number }>(
      `select p.id, p.num_ped_sar from app.pedidos p join app.chaves_idempotencia k on k.id_pedido = p.id
        where k.chave = $1`,
      [docId],
    );
    expect(rows).toHaveLength(1);
    order = { id: rows[0]?.id as number, numPedSar: rows[0]?.num_ped_sar as number };
    await page.goto(`${server.url}/pedidos`);
    await page.getByText(`Pedido nº ${order.numPedSar}`).first().waitFor(WAIT);
  });

  it('lets the supervisor find it in the queue, with the badge, and approve it', async () => {
    const page = suite.pageOf(1);
    await logIn(page, server.url, SUP, PASSWORD);
    // The header's badge counts the pending order and leads to the queue.
    const badge = page.getByRole('link', { name: '1 pedido aguardando aprovação' });
    await badge.waitFor(WAIT);
    await badge.click();
    await page.getByRole('heading', { name: 'Aprovações' }).waitFor(WAIT);
    const queue = page.getByRole('list', { name: 'Pedidos aguardando aprovação' });
    await queue.getByRole('link', { name: new RegExp(`Pedido nº ${order.numPedSar}\\b`) }).click();
    await page.getByRole('heading', { name: `Pedido nº ${order.numPedSar}` }).waitFor(WAIT);
    // The review shows the lines against their ceilings and the client's financial position.
    await page.getByRole('columnheader', { name: 'Teto' }).waitFor(WAIT);
    await page.getByText('Situação financeira').waitFor(WAIT);
    await page.getByRole('button', { name: 'Aprovar' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Pedido aprovado' }).count(), WAIT).toBe(1);
    await expect.poll(() => page.getByRole('link', { name: '0 pedidos aguardando aprovação' }).count(), WAIT).toBe(1);
    // The ERP's own order number (the one its screens and SAC use), never its internal key.
    const erp = await db.pool.query<{ num_pedido: number; id_pedido: number }>(
      'select pv.num_pedido, pv.id_pedido from app.pedidos p join pedidos_venda pv on pv.id_pedido = p.erp_id_pedido where p.id = $1',
      [order.id],
    );
    const { num_pedido: numPedido, id_pedido: idPedido } = erp.rows[0] ?? { num_pedido: -1, id_pedido: -1 };
    expect(numPedido).not.toBe(idPedido);
    const said = (await page.getByRole('status').filter({ hasText: 'Pedido aprovado' }).textContent()) ?? '';
    expect(said).toContain(`Pedido no ERP: ${numPedido}.`);
    expect(mentionsNumber(said, idPedido)).toBe(false);
  });

  it('wrote the approved order into the ERP tables', async () => {
    const { rows } = await db.pool.query<{ situa: number; erp: number; num_ped_sar: number; itens: number }>(
      `select p.situa, p.erp_id_pedido as erp, pv.num_ped_sar,
              (select count(*)::int from pedidos_venda_itens i where i.id_pedido = pv.id_pedido) as itens
         from app.pedidos p join pedidos_venda pv on pv.id_pedido = p.erp_id_pedido
        where p.id = $1`,
      [order.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.situa).toBe(2);
    expect(rows[0]?.num_ped_sar).toBe(order.numPedSar);
    expect(rows[0]?.itens).toBe(1);
  });

  it('shows the representative the order approved', async () => {
    const page = suite.pageOf(0);
    // A fresh start pulls at once (the test server runs without the change stream).
    await page.reload();
    const card = page.getByRole('listitem').filter({ hasText: `Pedido nº ${order.numPedSar}` });
    await expect.poll(() => card.filter({ hasText: 'Aprovado' }).count(), WAIT).toBeGreaterThan(0);
    const erp = await db.pool.query<{ num_pedido: number }>(
      'select pv.num_pedido from app.pedidos p join pedidos_venda pv on pv.id_pedido = p.erp_id_pedido where p.id = $1',
      [order.id],
    );
    await card.first().getByRole('link').first().click();
    await page.getByText('Pedido no ERP', { exact: true }).waitFor(WAIT);
    await page.getByText(String(erp.rows[0]?.num_pedido), { exact: true }).waitFor(WAIT);
  });
});

describe("the ERP's invoices and the client's titles in the supervisor's review", () => {
  it('lists the invoices, a cancelled one marked, what is still to invoice and the open titles, at 360 px', async () => {
    // The ERP invoices 1 of the 3 units, after a first invoice it cancelled,
    // and the client owes a boleto 12 days overdue.
    await partlyInvoiced(db.pool, order.id, 990002);
    await owesOverdueBoleto(db.pool, sale.idCliente, 'BOLETO-12');
    const page = suite.pageOf(1);
    await page.setViewportSize({ width: 360, height: 740 });
    await page.reload();
    const panel = page.getByRole('article', { name: 'Notas fiscais' });
    await panel.waitFor(WAIT);
    await panel.getByText('NF 990001 série 1 · 20/11/2026').waitFor(WAIT);
    expect(await panel.getByText('Cancelada').count()).toBe(1);
    await panel.getByText(`${sale.description}: 2 de 3`).waitFor(WAIT);
    const titles = page.getByRole('region', { name: 'Títulos do cliente' });
    await titles.getByText(/^BOLETO-12 · R\$\s321,50 · vencido há 12 dias \(\d\d\/\d\d\/\d{4}\)$/).waitFor(WAIT);
    // Nothing runs off the screen at 360 px.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
  });
});
