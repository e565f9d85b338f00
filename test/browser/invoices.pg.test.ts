// After approval, on the representative's phone at 360 px (issue #41): an order the ERP invoiced
// in part shows its invoices (a cancelled one marked) and what is still open, and its client
// the open titles, from the synced documents, so with the server stopped too.
import { beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../server/src/db/kysely.ts';
import { refreshCollection } from '../../server/src/sync/service.ts';
import { callApi, logInAndSync, scrollsSideways, WAIT, type WebServer } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import { orderableSale, owesOverdueBoleto, partlyInvoiced } from '../support/erp.ts';

const REP = 'rep.notas@campo.test';
const SUP = 'sup.notas@campo.test';
const PASSWORD = 'senha-das-notas-1';

let sale: { idCliente: number; idProduto: number; description: string };
const suite = useBrowserSuite({
  password: PASSWORD,
  users: [
    { login: REP, name: 'Nina Notas', role: 'representative' },
    { login: SUP, name: 'Saulo Supervisor', role: 'supervisor' },
  ],
  setUp: async ({ db, rep }) => {
    sale = await orderableSale(db.pool, rep);
  },
});
const db = suite.db;
let server: WebServer;
/** The order's page on the phone (its document id is the Idempotency-Key it was created with). */
let orderPath: string;

beforeAll(async () => {
  server = suite.server;
  // An order of 3 units, approved: it is in the ERP.
  const created = await callApi(server, await suite.token(REP), 'POST', '/orders', {
    idCliente: sale.idCliente,
    itens: [{ idProduto: sale.idProduto, quantidade: 3 }],
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  const approved = await callApi(server, await suite.token(SUP), 'POST', `/orders/${id}/approve`, {});
  expect(approved.status, await approved.clone().text()).toBe(200);
  const key = await db.pool.query<{ chave: string }>('select chave from app.chaves_idempotencia where id_pedido = $1', [
    id,
  ]);
  orderPath = `/pedidos/${encodeURIComponent(key.rows[0]?.chave ?? '')}`;

  // The ERP invoices 1 of the 3 units, after a first invoice it cancelled,
  // and the client owes a boleto 12 days overdue.
  await partlyInvoiced(db.pool, id, 880002);
  await owesOverdueBoleto(db.pool, sale.idCliente, 'BOLETO-NF-12');
  // The scheduled refresh: the ERP changed, the order's status did not.
  for (const c of ['pedidos', 'clientes'] as const) await refreshCollection(createDb(db.pool), suite.rep.idEmpresa, c);
});

describe("the ERP's invoices and the client's titles on the representative's phone", () => {
  it('shows the invoices, what is still open and the open titles at 360 px, online and with the server stopped', async () => {
    const page = suite.page;
    await page.setViewportSize({ width: 360, height: 740 });
    await logInAndSync(page, server.url, REP, PASSWORD);

    const check = async () => {
      await page.goto(`${server.url}${orderPath}`);
      const panel = page.getByRole('article', { name: 'Notas fiscais' });
      await panel.waitFor(WAIT);
      await panel.getByText('NF 880002 série 1 · 20/11/2026').waitFor(WAIT);
      expect(await panel.getByText('Cancelada').count()).toBe(1);
      await panel.getByText(`${sale.description}: 2 de 3`).waitFor(WAIT);
      expect(await scrollsSideways(page)).toBe(false);

      await page.goto(`${server.url}/clientes/${sale.idCliente}`);
      const titles = page.getByRole('region', { name: 'Títulos em aberto' });
      await titles.getByText(/BOLETO-NF-12 · R\$\s321,50 · vencido há 12 dias \(\d\d\/\d\d\/\d{4}\)/).waitFor(WAIT);
      expect(await scrollsSideways(page)).toBe(false);
    };
    await check();
    await suite.goOffline();
    await check();
  });
});
