// Names, not codes (issues #19, #41): people see the ERP's names wherever a person, a list or
// a group is named. The representative (360 px) sees the client's pauta by name on the client's
// page, the catalog's filter line, a product's ceiling and the cart, and themself by name in the
// order's history; the supervisor sees the representative's ERP name in the approval queue and
// the review, and their own name in "aprovado por"; the manager sees the representative's name
// in the company SAC and the names of groups, subgroups, pautas and representatives in the rules
// list.
import { addDays, businessDate } from '@campo/shared';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { addToCart, logIn, sendOrder, WAIT, type WebServer } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import { orderableClient } from '../support/erp.ts';

const REP = { login: 'rep.nomes@campo.test', name: 'Rita Nomes' };
const SUP = { login: 'sup.nomes@campo.test', name: 'Sérgio Nomes' };
const MAN = { login: 'ger.nomes@campo.test', name: 'Gabi Gerente' };
const PASSWORD = 'senha-dos-nomes-1';

let codVendedor: number;
/** The representative's name in the ERP (vw_vendedores), what other people know them by. */
let repErpName: string;
let sale: { idCliente: number; code: string; description: string; pauta: string; idPauta: number };
let group: { cod: number; name: string; subCod: number; subName: string };
let order: { id: number; numPedSar: number };

const suite = useBrowserSuite({
  password: PASSWORD,
  users: [
    { ...REP, role: 'representative' },
    { ...SUP, role: 'supervisor' },
    { ...MAN, role: 'manager' },
  ],
  setUp: async ({ db, rep }) => {
    codVendedor = rep.codVendedor;
    repErpName = (
      await db.pool.query<{ nome: string }>(
        'select nome from app.vw_vendedores where id_empresa = $1 and cod_vendedor = $2',
        [rep.idEmpresa, rep.codVendedor],
      )
    ).rows[0]?.nome as string;
    expect(repErpName).toBeTruthy();

    const orderable = await orderableClient(db.pool, rep);
    const product = await db.pool.query<{
      cod_produto: string;
      descricao: string;
      cod_grupo: number;
      cod_subgrupo: number;
      pauta: string;
      id_pauta: number;
    }>(
      `select p.cod_produto, p.descricao, p.cod_grupo, p.cod_subgrupo, pa.descricao as pauta, pa.id_pauta
         from app.vw_produtos p
         join app.vw_clientes c on c.id_cliente = $3
         join app.vw_pautas pa on pa.id_pauta = c.id_pauta and pa.id_empresa = c.id_empresa
        where p.id_produto = $1 and p.id_empresa = $2`,
      [orderable.idProduto, rep.idEmpresa, orderable.idCliente],
    );
    const p = product.rows[0];
    if (!p) throw new Error('no product');
    sale = {
      idCliente: orderable.idCliente,
      code: p.cod_produto,
      description: p.descricao,
      pauta: p.pauta,
      idPauta: p.id_pauta,
    };
    const names = await db.pool.query<{ grupo: string; subgrupo: string }>(
      `select descricao_grupo as grupo, descricao as subgrupo from app.vw_subgrupos_produto
        where id_empresa = $1 and cod_grupo = $2 and cod_subgrupo = $3`,
      [rep.idEmpresa, p.cod_grupo, p.cod_subgrupo],
    );
    group = {
      cod: p.cod_grupo,
      name: names.rows[0]?.grupo as string,
      subCod: p.cod_subgrupo,
      subName: names.rows[0]?.subgrupo as string,
    };
  },
  // The representative's, the supervisor's and the manager's browser, each its own profile.
  browsers: 3,
});
const db = suite.db;
let server: WebServer;

/** The person's own browser, logged in. */
async function open(index: number, login: string): Promise<Page> {
  const page = suite.pageOf(index);
  await logIn(page, server.url, login, PASSWORD);
  return page;
}

beforeAll(async () => {
  server = suite.server;
  // A rule naming a group, a subgroup, the representative and the client's pauta.
  const manager = await suite.token(MAN.login);
  const today = businessDate();
  const rule = await fetch(`${server.url}/api/v1/politicas/regras`, {
    method: 'POST',
    headers: { authorization: `Bearer ${manager}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      descricao: 'Regra com nomes',
      grupo: group.cod,
      subgrupo: group.subCod,
      representante: suite.rep.codVendedor,
      idPautas: [sale.idPauta],
      percent: 6,
      vigenciaInicio: today,
      vigenciaFim: addDays(today, 10),
      promocao: false,
    }),
  });
  expect(rule.status, await rule.clone().text()).toBe(201);
});

describe('names, not codes', () => {
  it("shows the representative the client's pauta by name, and themself by name in the order's history", async () => {
    const page = await open(0, REP.login);
    // The client's page and the catalog's filter line (once "Filtros: pauta 3", issue #41).
    await page.goto(`${server.url}/clientes/${sale.idCliente}`);
    await page.locator('dl.facts dd', { hasText: sale.pauta }).waitFor(WAIT);
    await page.goto(`${server.url}/catalogo?cliente=${sale.idCliente}`);
    const filters = page.locator('.catalog-filters summary');
    await filters.filter({ hasText: `Filtros: ${sale.pauta}` }).waitFor(WAIT);
    expect(await filters.textContent()).not.toContain(`pauta ${sale.idPauta}`);
    await page.getByLabel('Buscar produto').fill(sale.code);
    await page.getByRole('link', { name: sale.description }).first().click();
    await page.getByText(`Hoje, na pauta ${sale.pauta}:`, { exact: false }).waitFor(WAIT);
    await page.goto(`${server.url}/pedidos/novo?cliente=${sale.idCliente}`);
    const chosen = page.locator('.chosen-client');
    await chosen.getByText(sale.pauta, { exact: true }).waitFor(WAIT);
    expect(await chosen.getByText(`Pauta ${sale.idPauta}`, { exact: true }).count()).toBe(0);
    await addToCart(page, sale, '1');
    const docId = await sendOrder(page);
    const history = page.locator('ol.history');
    await history.getByText(REP.name, { exact: false }).waitFor(WAIT);
    expect(await history.getByText(REP.login, { exact: false }).count()).toBe(0);
    const { rows } = await db.pool.query<{ id: number; num_ped_sar: number }>(
      'select p.id, p.num_ped_sar from app.pedidos p join app.chaves_idempotencia k on k.id_pedido = p.id where k.chave = $1',
      [docId],
    );
    order = { id: rows[0]?.id as number, numPedSar: rows[0]?.num_ped_sar as number };
    // A ticket about it, for the company SAC below.
    const res = await fetch(`${server.url}/api/v1/chamados`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await suite.token(REP.login)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ idPedido: order.id, assunto: 'Prazo de entrega', mensagem: 'Quando chega?' }),
    });
    expect(res.status).toBe(201);
  });

  it("names the representative in the supervisor's queue and review, and the supervisor in 'aprovado por'", async () => {
    const page = await open(1, SUP.login);
    await page.goto(`${server.url}/aprovacoes`);
    const queue = page.getByRole('list', { name: 'Pedidos aguardando aprovação' });
    const card = queue.getByRole('link', { name: new RegExp(`Pedido nº ${order.numPedSar}\\b`) });
    await card.getByText(repErpName, { exact: false }).waitFor(WAIT);
    expect(await card.getByText(`Vendedor ${codVendedor}`).count()).toBe(0);
    await card.click();
    await page.getByRole('heading', { name: `Pedido nº ${order.numPedSar}` }).waitFor(WAIT);
    await page.getByText(`${repErpName} · enviado em`, { exact: false }).waitFor(WAIT);
    await page.getByRole('button', { name: 'Aprovar' }).click();
    const status = page.getByRole('status').filter({ hasText: 'Pedido aprovado' });
    await expect.poll(() => status.count(), WAIT).toBe(1);
    expect(await status.textContent()).toContain(`por ${SUP.name}`);
    expect(await status.textContent()).not.toContain(SUP.login);
  });

  it('names the representative in the company SAC, and groups, subgroups, pautas and reps in the rules list', async () => {
    const page = await open(2, MAN.login);
    await page.goto(`${server.url}/sac`);
    const tickets = page.getByRole('list', { name: 'Chamados' });
    await tickets.getByText(repErpName, { exact: false }).waitFor(WAIT);
    expect(await tickets.getByText(`vendedor ${codVendedor}`).count()).toBe(0);

    await page.goto(`${server.url}/regras`);
    const rule = page
      .getByRole('list', { name: 'Regras' })
      .getByRole('listitem')
      .filter({ hasText: 'Regra com nomes' });
    await rule.getByText(`${group.name} › ${group.subName} · ${repErpName} · ${sale.pauta}`).waitFor(WAIT);
  });
});
