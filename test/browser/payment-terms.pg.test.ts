// Payment terms in a real browser (issue #19), the representative at 360 px: the cart offers
// the ERP's active terms with the client's default selected, and only the ones the credit
// department allows for a restricted client; the chosen term shows on the order, on the
// supervisor's review and in the PDF, and approval writes it into the ERP's order row.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { addToCart, logIn, sendOrder, WAIT, type WebServer } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import { orderableSale } from '../support/erp.ts';

const REP = 'rep.condicoes@campo.test';
const SUP = 'sup.condicoes@campo.test';
const PASSWORD = 'senha-das-condicoes-1';

let sale: { idCliente: number; code: string; description: string };
let restrictedClient: number;
let terms: { id: number; descricao: string }[];
let order: { id: number; numPedSar: number; docId: string };
const term = (id: number) => terms.find((t) => t.id === id)?.descricao ?? '';

const suite = useBrowserSuite({
  password: PASSWORD,
  users: [
    { login: REP, name: 'Rita Condições', role: 'representative' },
    { login: SUP, name: 'Sérgio Supervisor', role: 'supervisor' },
  ],
  setUp: async ({ db, rep }) => {
    terms = (
      await db.pool.query<{ id: number; descricao: string }>(
        `select id_condicao as id, descricao from app.vw_condicoes_pagamento
          where id_empresa = $1 and ativo order by id_condicao`,
        [rep.idEmpresa],
      )
    ).rows;
    expect(terms.length).toBeGreaterThan(2);
    sale = await orderableSale(db.pool, rep);
    // The sale's client may use every term, its default the third; another client of the rep is
    // restricted to the first two, its default the first.
    await db.pool.query('delete from corrent_condicoes where id_corrent = $1', [sale.idCliente]);
    await db.pool.query('update corrent set id_condicao = $2 where id_corrent = $1', [sale.idCliente, terms[2]?.id]);
    const other = await db.pool.query<{ id: number }>(
      `select id_cliente as id from app.vw_clientes
        where id_empresa = $1 and cod_vendedor = $2 and id_cliente <> $3 and status_financeiro <> 'blocked'
          and id_pauta is not null order by id_cliente limit 1`,
      [rep.idEmpresa, rep.codVendedor, sale.idCliente],
    );
    restrictedClient = other.rows[0]?.id as number;
    await db.pool.query('delete from corrent_condicoes where id_corrent = $1', [restrictedClient]);
    for (const t of terms.slice(0, 2)) {
      await db.pool.query('insert into corrent_condicoes (id_corrent, id_empresa, id_condicao) values ($1, $2, $3)', [
        restrictedClient,
        rep.idEmpresa,
        t.id,
      ]);
    }
    await db.pool.query('update corrent set id_condicao = $2 where id_corrent = $1', [restrictedClient, terms[0]?.id]);
  },
  // The representative's phone and the supervisor's.
  browsers: 2,
});
const db = suite.db;
let server: WebServer;

beforeAll(() => {
  server = suite.server;
});

describe('payment terms', () => {
  it("offers only a restricted client's terms, its default selected", async () => {
    const page = suite.pageOf(0);
    await logIn(page, server.url, REP, PASSWORD);
    await page.goto(`${server.url}/pedidos/novo?cliente=${restrictedClient}`);
    const picker = page.getByLabel('Condição de pagamento');
    await picker.waitFor(WAIT);
    await expect
      .poll(() => picker.locator('option').allTextContents(), WAIT)
      .toEqual([`${term(terms[0]?.id as number)} (padrão do cliente)`, term(terms[1]?.id as number)]);
    expect(await picker.inputValue()).toBe(String(terms[0]?.id));
    await page.getByText('O financeiro liberou só estas condições para este cliente.').waitFor(WAIT);
  });

  it("queues an order on a term other than the client's default, and shows it on the order", async () => {
    const page = suite.pageOf(0);
    await page.goto(`${server.url}/pedidos/novo?cliente=${sale.idCliente}`);
    const picker = page.getByLabel('Condição de pagamento');
    await picker.waitFor(WAIT);
    // Every active term, the default marked and selected.
    await expect.poll(() => picker.locator('option').count(), WAIT).toBe(terms.length);
    expect(await picker.inputValue()).toBe(String(terms[2]?.id));
    await picker.locator('option', { hasText: '(padrão do cliente)' }).waitFor({ state: 'attached' });
    await picker.selectOption(String(terms[1]?.id));

    await addToCart(page, sale, '2');
    const docId = await sendOrder(page);
    const facts = page.locator('dl.order-facts');
    await facts.getByText('Pagamento', { exact: true }).waitFor(WAIT);
    await facts.getByText(term(terms[1]?.id as number), { exact: true }).waitFor(WAIT);

    const { rows } = await db.pool.query<{ id: number; num_ped_sar: number; id_condicao: number }>(
      `select p.id, p.num_ped_sar, p.id_condicao from app.pedidos p
         join app.chaves_idempotencia k on k.id_pedido = p.id where k.chave = $1`,
      [docId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.id_condicao).toBe(terms[1]?.id);
    order = { id: rows[0]?.id as number, numPedSar: rows[0]?.num_ped_sar as number, docId };
  });

  it("shows the term on the supervisor's review, and approval writes it into the ERP order", async () => {
    const page = suite.pageOf(1);
    await logIn(page, server.url, SUP, PASSWORD);
    await page.goto(`${server.url}/aprovacoes`);
    const queue = page.getByRole('list', { name: 'Pedidos aguardando aprovação' });
    await queue.getByRole('link', { name: new RegExp(`Pedido nº ${order.numPedSar}\\b`) }).click();
    await page.getByRole('heading', { name: `Pedido nº ${order.numPedSar}` }).waitFor(WAIT);
    await page.getByText('Pagamento', { exact: true }).waitFor(WAIT);
    await page.getByText(term(terms[1]?.id as number), { exact: true }).waitFor(WAIT);
    await page.getByRole('button', { name: 'Aprovar' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Pedido aprovado' }).count(), WAIT).toBe(1);
    const erp = await db.pool.query<{ id_condicao: number }>(
      'select pv.id_condicao from app.pedidos p join pedidos_venda pv on pv.id_pedido = p.erp_id_pedido where p.id = $1',
      [order.id],
    );
    expect(erp.rows).toEqual([{ id_condicao: terms[1]?.id }]);
  });

  it('prints the term in the PDF of the approved order', async () => {
    const page = suite.pageOf(0);
    await page.goto(`${server.url}/pedidos/${order.docId}`);
    await page.getByText('Aprovado', { exact: true }).first().waitFor(WAIT);
    const download = page.waitForEvent('download', WAIT);
    await page.getByRole('button', { name: 'Compartilhar' }).click();
    const pdf = readFileSync(await (await download).path(), 'latin1');
    expect(pdf.startsWith('%PDF-')).toBe(true);
    expect(pdf).toContain('Pagamento:');
    expect(pdf).toContain(term(terms[1]?.id as number));
  });
});
