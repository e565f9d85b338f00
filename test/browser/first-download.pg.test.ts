// Screens opened during the first download follow the data as it arrives (issue 50, item 2), on
// a phone at 360 px with its CPU slowed 4× (DevTools' Emulation.setCPUThrottlingRate, as
// test/bench/cheap-phone.ts does). The server holds the catalog's, the portfolio's, the orders'
// and the funnel's pulls until the test lets them go, so "during the first download" is a
// fact, not a race: Início says the route is still downloading (not "Nenhum cliente no roteiro
// de hoje."), Pedidos and Funil that they are downloading (not that there is nothing), and the
// catalog opened meanwhile prices every product on the representative's pauta once the sync
// says it is done, its filters naming that pauta. Reopened offline, complete, neither the
// catalog nor the portfolio says it is still downloading.
import { isoWeekday } from '@campo/shared/visits';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { logIn, WAIT, waitForServiceWorker } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';

const REP = 'rep.primeira@campo.test';
const PASSWORD = 'senha-da-primeira-1';

type FetchApp = (req: Request) => Response | Promise<Response>;

/** The first download's big pulls wait here until the test releases them. */
let release: () => void = () => undefined;
const held = new Promise<void>((resolve) => {
  release = resolve;
});
let heldPulls = 0;
const holdDownload =
  (app: FetchApp): FetchApp =>
  async (req) => {
    if (/\/api\/v1\/sync\/(produtos|clientes|pedidos|funil)\/pull$/.test(new URL(req.url).pathname)) {
      heldPulls++;
      await held;
    }
    return app(req);
  };

let pauta: { id: number; name: string };
let route: { id: number; name: string }[] = [];

const suite = useBrowserSuite({
  password: PASSWORD,
  users: [{ login: REP, name: 'Priscila Primeira', role: 'representative' }],
  server: { wrap: holdDownload },
  setUp: async ({ db, rep }) => {
    // Every client of the representative on one pauta: the catalog's default is "the rep's pauta".
    const { rows: pautas } = await db.pool.query<{ id: number; name: string }>(
      `select id_pauta as id, descricao as name from app.vw_pautas
        where id_empresa = $1 and descricao is not null order by id_pauta desc limit 1`,
      [rep.idEmpresa],
    );
    if (!pautas[0]) throw new Error('the fixture has no named pauta');
    pauta = pautas[0];
    await db.pool.query(
      `update public.corrent set id_pauta = $3 where id_corrent in
         (select id_cliente from app.vw_clientes where id_empresa = $1 and cod_vendedor = $2)`,
      [rep.idEmpresa, rep.codVendedor, pauta.id],
    );
    // Today's route: two clients of the portfolio by the ERP's visit days, no other.
    const { rows } = await db.pool.query<{ id: number; name: string }>(
      `select id_cliente as id, coalesce(nullif(nome_fantasia, ''), razao_social) as name from app.vw_clientes
        where id_empresa = $1 and cod_vendedor = $2 and cadastro_ativo order by id_cliente limit 2`,
      [rep.idEmpresa, rep.codVendedor],
    );
    route = rows;
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    await db.pool.query(
      `delete from public.corrent_visitas where id_corrent in
         (select id_cliente from app.vw_clientes where id_empresa = $1 and cod_vendedor = $2)`,
      [rep.idEmpresa, rep.codVendedor],
    );
    await db.pool.query(
      'insert into public.corrent_visitas (id_corrent, dia_semana) select unnest($1::integer[]), $2',
      [rows.map((r) => r.id), isoWeekday(today)],
    );
  },
});

let page: Page;
beforeAll(async () => {
  page = suite.page;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
});

const strip = () => page.getByRole('status', { name: 'Sincronização' });
const nav = (name: string) =>
  page.getByRole('navigation', { name: 'Navegação principal' }).getByRole('link', { name }).click();
const routeCard = () => page.getByRole('article', { name: 'Roteiro de hoje' });
const products = () => page.getByRole('list', { name: 'Produtos' });

describe('screens opened during the first download', () => {
  it('Início says the route is downloading while the portfolio has not arrived', async () => {
    await logIn(page, suite.server.url, REP, PASSWORD);
    await expect.poll(() => heldPulls, WAIT).toBeGreaterThan(0);
    await routeCard().getByText('Baixando os clientes do roteiro…').waitFor(WAIT);
    expect(await routeCard().getByText('Nenhum cliente no roteiro de hoje.').count()).toBe(0);
  });

  it('Pedidos and Funil say they are downloading, not that there is nothing', async () => {
    await nav('Pedidos');
    await page.getByText(/Baixando os pedidos para usar sem internet/).waitFor(WAIT);
    expect(await page.getByText('Nenhum pedido nesta situação.').count()).toBe(0);
    await nav('Funil');
    await page.getByText(/Baixando as oportunidades para usar sem internet/).waitFor(WAIT);
    expect(await page.getByText(/Nenhuma oportunidade ainda/).count()).toBe(0);
  });

  it('the catalog opened meanwhile shows every price on the pauta of the portfolio once synced', async () => {
    await nav('Catálogo');
    await page.getByText(/Baixando o catálogo para usar sem internet/).waitFor(WAIT);
    release();
    await strip()
      .filter({ hasText: /Sincronizado às \d\d:\d\d/ })
      .waitFor({ timeout: 120_000 });
    await products().getByRole('listitem').first().waitFor(WAIT);
    await expect
      .poll(() => page.getByText(/^Filtros:/).textContent(), WAIT)
      .toBe(`Filtros: ${pauta.name} · todos os grupos`);
    expect(await products().getByText('Sem preço').count()).toBe(0);
    expect(await products().locator('.price').first().textContent()).toMatch(/R\$/);
    expect(await page.getByText(/Baixando o catálogo/).count()).toBe(0);
  });

  it("Início, once the portfolio arrived, lists today's route", async () => {
    await nav('Início');
    await routeCard().getByText('Roteiro de hoje: 0 de 2 visitados, 0 com pedido').waitFor(WAIT);
    for (const c of route) await routeCard().getByRole('link', { name: c.name }).waitFor(WAIT);
  });

  it('reopened offline, complete, no screen says it is still downloading', async () => {
    await waitForServiceWorker(page);
    await suite.goOffline();
    await page.reload();
    await routeCard().getByText('Roteiro de hoje: 0 de 2 visitados, 0 com pedido').waitFor(WAIT);
    await strip().getByText('Sem conexão com o servidor.').waitFor(WAIT);

    await nav('Catálogo');
    await products().getByRole('listitem').first().waitFor(WAIT);
    await expect
      .poll(() => page.getByText(/^Filtros:/).textContent(), WAIT)
      .toBe(`Filtros: ${pauta.name} · todos os grupos`);
    expect(await page.getByText(/Baixando o catálogo/).count()).toBe(0);
    expect(await products().getByText('Sem preço').count()).toBe(0);

    await nav('Clientes');
    await page.getByRole('list', { name: 'Clientes da carteira' }).getByRole('listitem').first().waitFor(WAIT);
    expect(await page.getByText(/Baixando a carteira/).count()).toBe(0);
  });
});
