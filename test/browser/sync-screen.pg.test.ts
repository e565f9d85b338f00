// The sync screen in a real browser (docs/pwa.md, "Sincronização"): with the server stopped for
// real, an order and a funnel card wait on the phone and the screen names them with their age,
// tries and last error, at 360 and 1280 px; "Sincronizar agora" sends them once the server is
// back. The screen reports what navigator.storage.persisted() says and warns when the browser
// did not persist while work waits. A push whose request never ends is restarted by the
// watchdog and the order arrives. With the quota lowered through the DevTools protocol, a
// catalog download hits QuotaExceededError while an order is queued: the catalog gives way, the
// representative is told, and the order is sent. A supervisor sees the last sync and storage.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addToCart,
  createProspectCard,
  logIn,
  logInAndSync,
  logOut,
  sendOrder,
  WAIT,
  type WebServer,
} from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import { orderableSale } from '../support/erp.ts';
import { auditScreen } from '../support/screen-audit.ts';

const REP = 'rep.sincronia@campo.test';
const SUP = 'sup.sincronia@campo.test';
const MANAGER = 'ger.sincronia@campo.test';
const PASSWORD = 'senha-da-sincronia-1';
const PHONE = { width: 360, height: 740 };
const DESK = { width: 1280, height: 800 };
const PUSH_PEDIDOS = '/api/v1/sync/pedidos/push';
/** The second phone's quota: the app's cache takes 3.6 MB, the first sync under 1 MB. */
const QUOTA = 6 * 1024 * 1024;
/** Products the ERP gains while that phone is offline: several MB, more than is left. */
const ADDED = 12_000;

let sale: { idCliente: number; idProduto: number; code: string; description: string };
let clientName = '';

/** The next push of orders is held unanswered, as a connection that never ends (RxDB #7259). */
const stall = { next: false, held: 0, release: [] as (() => void)[] };

/** While set, every push of orders is answered 503, as a server whose database is away. */
const refusing = { pushes: false };

const suite = useBrowserSuite({
  password: PASSWORD,
  browsers: 2,
  users: [
    { login: REP, name: 'Sílvia Sincronia', role: 'representative' },
    { login: SUP, name: 'Saulo Sincronia', role: 'supervisor' },
    { login: MANAGER, name: 'Gerson Sincronia', role: 'manager' },
  ],
  server: {
    wrap: (app) => async (req) => {
      if (refusing.pushes && req.method === 'POST' && new URL(req.url).pathname === PUSH_PEDIDOS) {
        return Response.json(
          { type: 'about:blank', title: 'Banco de dados indisponível', status: 503, code: 'DATABASE_UNAVAILABLE' },
          { status: 503, headers: { 'retry-after': '5', 'content-type': 'application/problem+json' } },
        );
      }
      if (stall.next && req.method === 'POST' && new URL(req.url).pathname === PUSH_PEDIDOS) {
        stall.next = false;
        stall.held++;
        await new Promise<void>((resolve) => stall.release.push(resolve));
        return new Response(null, { status: 503 });
      }
      return app(req);
    },
  },
  setUp: async ({ db, rep }) => {
    sale = await orderableSale(db.pool, rep);
    const { rows } = await db.pool.query<{ nome: string }>(
      `select coalesce(nullif(nome_fantasia, ''), razao_social) as nome from app.vw_clientes
        where id_cliente = $1 and id_empresa = $2`,
      [sale.idCliente, rep.idEmpresa],
    );
    clientName = rows[0]?.nome ?? '';
  },
});
let server: WebServer;
let page: Page;

beforeAll(() => {
  ({ server, page } = suite);
});

const waitingList = () => page.getByRole('region', { name: 'Aguardando envio' });
const itemCard = (label: string) => page.getByRole('article', { name: label, exact: true });

async function serverOrders(): Promise<number> {
  const r = await suite.db.pool.query('select count(*)::int as n from app.pedidos');
  return r.rows[0].n as number;
}

async function queueOrder(state: string | null, p = page): Promise<string> {
  const page = p;
  await page.goto(`${server.url}/pedidos/novo?cliente=${sale.idCliente}`);
  await page.getByRole('heading', { name: 'Novo pedido' }).waitFor(WAIT);
  await addToCart(page, sale, '1');
  return sendOrder(page, state);
}

async function noOverflow(name: string) {
  const found = await auditScreen(page);
  expect(found.overflow, name).toEqual([]);
  expect(found.contrast, name).toEqual([]);
}

describe('the sync screen', () => {
  it('names what waits with its age, tries and last error, at 360 and 1280 px, and sends it on "Sincronizar agora"', async () => {
    await logInAndSync(page, server.url, REP, PASSWORD);
    await suite.goOffline();
    await queueOrder('Na fila');
    const prospect = 'Quitanda Sincronia';
    await createProspectCard(page, prospect);

    // From the strip, as the representative would.
    await page
      .getByRole('status', { name: 'Sincronização' })
      .getByRole('link', { name: /Sincronizado/ })
      .click();
    await page.getByRole('heading', { name: 'Sincronização', level: 1 }).waitFor(WAIT);
    const order = itemCard(`Pedido para ${clientName}`);
    const card = itemCard(`Oportunidade ${prospect}`);
    await order.waitFor(WAIT);
    await card.waitFor(WAIT);
    // RxDB tries each push again every few seconds: the tries grow, each failing for want of a network.
    await order.getByText(/Na fila agora há pouco · [2-9]\d* tentativas/).waitFor(WAIT);
    await order.getByText('Último erro: Sem conexão com o servidor.').waitFor(WAIT);
    await card.getByText(/tentativa/).waitFor(WAIT);
    await card.getByText('Último erro: Sem conexão com o servidor.').waitFor(WAIT);

    // What the browser says of persistence is what the screen says, and the warning follows it.
    const persisted = await page.evaluate(() =>
      (
        globalThis as unknown as { navigator: { storage: { persisted(): Promise<boolean> } } }
      ).navigator.storage.persisted(),
    );
    const storage = page.getByRole('region', { name: 'Armazenamento' });
    await expect
      .poll(() => storage.locator('dd[data-persisted]').getAttribute('data-persisted'), WAIT)
      .toBe(String(persisted));
    expect(await storage.textContent()).toMatch(/Espaço usado\d+(,\d)? (bytes|KB|MB|GB) de \d+(,\d)? (MB|GB|TB)/);
    const warning = page.getByRole('alert').filter({ hasText: 'o navegador não garantiu guardar os dados' });
    if (persisted) expect(await warning.count()).toBe(0);
    else await warning.waitFor(WAIT);

    for (const viewport of [PHONE, DESK]) {
      await page.setViewportSize(viewport);
      await order.waitFor(WAIT);
      await noOverflow(`sync screen @${viewport.width}`);
    }
    await page.setViewportSize(PHONE);
    expect(await serverOrders()).toBe(0);

    // The network back; the representative does not wait for the next retry.
    await server.restart();
    await suite.context.setOffline(false);
    await page.getByRole('button', { name: 'Sincronizar agora' }).click();
    await waitingList().getByText('Nada aguardando envio').waitFor(WAIT);
    expect(await serverOrders()).toBe(1);
    const cards = await suite.db.pool.query('select 1 from app.oportunidades where nome_prospect = $1', [prospect]);
    expect(cards.rowCount).toBe(1);
    // Every collection has reached the server's state at least once, and says when.
    const table = page.getByRole('region', { name: 'Dados no aparelho' });
    await table.getByRole('row', { name: /Catálogo de produtos hoje às \d\d:\d\d/ }).waitFor(WAIT);
    expect(await table.getByText('ainda não').count()).toBe(0);
  });

  it('sends what waits on "Sincronizar agora", without waiting for the next retry', async () => {
    // RxDB's next try ten minutes away, and neither the server nor the browser offline (a
    // reconnection or the browser's "online" event would make RxDB try at once): the server
    // answers the push 503, then takes it again, and only the button can send the order before
    // the test's wait ends.
    const setRetry = (ms: string | null) =>
      page.evaluate((value) => {
        const storage = (globalThis as unknown as { localStorage: Storage }).localStorage;
        if (value === null) storage.removeItem('campo.sync.retryMs');
        else storage.setItem('campo.sync.retryMs', value);
      }, ms);
    await setRetry('600000');
    try {
      await page.reload();
      await page.getByRole('heading', { name: 'Sincronização', level: 1 }).waitFor(WAIT);
      const before = await serverOrders();
      refusing.pushes = true;
      await queueOrder(null);
      await page.goto(`${server.url}/sincronizacao`);
      await page.getByRole('heading', { name: 'Sincronização', level: 1 }).waitFor(WAIT);
      const order = itemCard(`Pedido para ${clientName}`);
      await order.getByText(/Último erro: .*indisponível/).waitFor(WAIT);
      refusing.pushes = false;
      await page.getByRole('button', { name: 'Sincronizar agora' }).click();
      await waitingList().getByText('Nada aguardando envio').waitFor(WAIT);
      expect(await serverOrders()).toBe(before + 1);
    } finally {
      refusing.pushes = false;
      await setRetry(null);
    }
  });

  it('restarts a push whose request never ends, and the order arrives', async () => {
    // A short watchdog for the test (the app's default is two minutes).
    await page.evaluate(() =>
      (globalThis as unknown as { localStorage: Storage }).localStorage.setItem('campo.sync.watchdogMs', '3000'),
    );
    await page.reload();
    await page.getByRole('heading', { name: 'Sincronização', level: 1 }).waitFor(WAIT);
    const before = await serverOrders();
    stall.next = true;
    await queueOrder(null);
    await expect.poll(() => stall.held, WAIT).toBe(1);
    // The held push never answers: only a restart sends the order again.
    await page.getByText('Aguardando aprovação', { exact: true }).first().waitFor(WAIT);
    expect(await serverOrders()).toBe(before + 1);
    expect(stall.held).toBe(1);
    for (const release of stall.release.splice(0)) release();
    await page.evaluate(() =>
      (globalThis as unknown as { localStorage: Storage }).localStorage.removeItem('campo.sync.watchdogMs'),
    );
  });

  it('gives the catalog up when the disk is full, keeps the queued order and sends it, and tells the representative', async () => {
    // A second phone whose quota is lowered before the app first touches its storage: Chromium
    // keeps what room a site has left for a while once it has asked, so a quota lowered later
    // is not enforced at once.
    const { db } = suite;
    const phone = suite.browsers[1];
    if (!phone) throw new Error('the suite has no second browser');
    const p = suite.pageOf(1);
    const origin = server.url;
    const cdp = await phone.context.newCDPSession(p);
    // Room for the app and the first sync (about 6 MB), not for a few thousand more products.
    await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: QUOTA });
    const catalogFinds = async (text: string) => {
      await p.goto(`${server.url}/catalogo`);
      await p.getByLabel('Buscar produto').fill(text);
      return p.getByRole('list', { name: 'Produtos' }).getByRole('listitem').filter({ hasText: text }).first();
    };
    await logInAndSync(p, server.url, REP, PASSWORD);
    await (await catalogFinds(sale.code)).waitFor(WAIT);
    const before = await serverOrders();

    await server.stop();
    await phone.context.setOffline(true);
    const id = await queueOrder('Na fila', p);
    await server.restart();
    // Meanwhile the ERP gains a few thousand products (the phone is still offline).
    const added = await db.pool.query(
      `insert into produtos (id_produto, id_empresa, cod_produto, descricao, unidade, categoria, cod_grupo,
                             cod_subgrupo, imagem, ativo)
       select 900000 + g, p.id_empresa, 'CARGA' || g,
              left('Produto de carga ' || g || ' ' || md5(g::text) || md5((g * 7)::text), 120),
              p.unidade, p.categoria, p.cod_grupo, p.cod_subgrupo,
              left('img/' || md5((g * 3)::text) || md5((g * 5)::text) || md5((g * 11)::text), 200), 'S'
         from produtos p, generate_series(1, $2::int) g where p.id_produto = $1`,
      [sale.idProduto, ADDED],
    );
    expect(added.rowCount).toBe(ADDED);
    const manager = await suite.token(MANAGER);
    const res = await fetch(`${server.url}/api/v1/catalog/sync`, {
      method: 'POST',
      headers: { authorization: `Bearer ${manager}` },
    });
    expect(res.status, await res.text()).toBe(200);

    // The network back, the app opened again: every collection pulls from its checkpoint.
    await phone.context.setOffline(false);
    await p.reload();
    const strip = p.getByRole('status', { name: 'Sincronização' });
    await strip.getByRole('link', { name: /Aparelho sem espaço/ }).waitFor(WAIT);
    await expect.poll(() => serverOrders(), WAIT).toBe(before + 1);
    const keys = await db.pool.query('select 1 from app.chaves_idempotencia where chave = $1', [id]);
    expect(keys.rowCount).toBe(1);
    await strip.getByRole('link', { name: /Aparelho sem espaço/ }).click();
    await p.getByRole('alert').filter({ hasText: 'O aparelho ficou sem espaço' }).waitFor(WAIT);
    expect(await p.getByRole('alert').filter({ hasText: 'nada da fila de envio se perdeu' }).count()).toBe(1);
    await p.getByRole('region', { name: 'Aguardando envio' }).getByText('Nada aguardando envio').waitFor(WAIT);
    // The catalog is what gave way: moving around in the app (no reload) it is empty; it comes
    // back once there is room ("Sincronizar agora" then opens the app afresh).
    const nav = p.getByRole('navigation', { name: 'Navegação principal' });
    const openCatalog = async (text: string) => {
      await nav.getByRole('link', { name: 'Catálogo' }).click();
      await p.getByLabel('Buscar produto').fill(text);
    };
    await openCatalog(sale.code);
    await p.getByText('Nenhum produto encontrado com essa busca.').waitFor(WAIT);
    await p.getByRole('link', { name: 'Sincronização' }).click();

    // Room again (the representative freed space): "Sincronizar agora" brings the catalog back.
    await cdp.send('Storage.overrideQuotaForOrigin', { origin });
    await p.getByRole('button', { name: 'Sincronizar agora' }).click();
    await expect.poll(() => p.getByRole('alert').filter({ hasText: 'sem espaço' }).count(), WAIT).toBe(0);
    await openCatalog(`CARGA${ADDED}`);
    await p
      .getByRole('list', { name: 'Produtos' })
      .getByRole('listitem')
      .filter({ hasText: `CARGA${ADDED}` })
      .waitFor(WAIT);
    suite.pageOf(0);
  });

  it('shows a supervisor the last sync and the storage, without an outbox', async () => {
    await logOut(page);
    await logIn(page, server.url, SUP, PASSWORD);
    await page.getByRole('link', { name: 'Sincronização' }).click();
    await page.getByRole('heading', { name: 'Sincronização', level: 1 }).waitFor(WAIT);
    await page.getByText(/Última sincronização completa: hoje às \d\d:\d\d/).waitFor(WAIT);
    await page.getByRole('region', { name: 'Armazenamento' }).getByText('Espaço usado').waitFor(WAIT);
    expect(await waitingList().count()).toBe(0);
    for (const viewport of [DESK, PHONE]) {
      await page.setViewportSize(viewport);
      await noOverflow(`supervisor's sync screen @${viewport.width}`);
    }
    await logOut(page);
  });
});
