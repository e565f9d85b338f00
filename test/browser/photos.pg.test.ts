// Product photos on the representative's phone at 360 px (issue #41, section 3; docs/pwa.md,
// "Product photos"): "Baixar fotos para usar sem internet" fetches every active product's thumbnail
// with progress, is cancelled and resumes where it stopped; with the server stopped and the
// browser offline the photos show in the catalog and on the product page; a product with no
// image is never asked for and shows the placeholder, as does one the server has no photo for;
// lowering the budget evicts the least recently used photos and nothing else: the queued order
// and the catalog stay, and the order is sent once the server is back.
//
// The server serves the fixture's drawn photos (test/support/images.ts). The wrap below logs
// every request for the image route (and holds some, to see progress and the layout while a
// photo is on its way), then hands it to the server.
import { plural } from '@campo/shared/format';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { addToCart, logInAndSync, sendOrder, WAIT, type WebServer } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import { orderableSale } from '../support/erp.ts';

const REP = 'rep.fotos@campo.test';
const PASSWORD = 'senha-das-fotos-1';
const IMAGE_ROUTE = /^\/api\/v1\/catalog\/([^/]+)\/image$/;
/** Photos the route answers at once; the rest wait until the test releases them. */
const FIRST_BATCH = 6;

interface Product {
  id: string;
  code: string;
  description: string;
}

let withImage: Product[] = [];
let noImage: Product;
/** A product whose ERP image the server cannot serve: the route answers 404. */
let broken: Product;
let sale: Awaited<ReturnType<typeof orderableSale>>;

/** What the image route was asked: product id and size, with or without a bearer token. */
const asked: { id: string; size: string; bearer: boolean }[] = [];
const gate = { hold: false, holdFull: false, held: [] as (() => void)[] };
const PHONE = { width: 360, height: 740 };
const DESK = { width: 1280, height: 800 };

const suite = useBrowserSuite({
  password: PASSWORD,
  users: [{ login: REP, name: 'Fábia Fotos', role: 'representative' }],
  server: {
    productImages: true,
    wrap: (app) => async (req) => {
      const url = new URL(req.url);
      const route = IMAGE_ROUTE.exec(url.pathname);
      if (!route || req.method !== 'GET') return app(req);
      const id = decodeURIComponent(route[1] ?? '');
      const size = url.searchParams.get('size') ?? 'thumb';
      const bearer = /^Bearer \S+/.test(req.headers.get('authorization') ?? '');
      asked.push({ id, size, bearer });
      if ((gate.hold && asked.filter((a) => a.bearer).length > FIRST_BATCH) || (gate.holdFull && size === 'full')) {
        await new Promise<void>((resolve) => gate.held.push(resolve));
      }
      return app(req);
    },
  },
  setUp: async ({ db, rep }) => {
    sale = await orderableSale(db.pool, rep);
    const { rows } = await db.pool.query<Product & { image: string | null }>(
      `select id_produto::text as id, cod_produto as code, descricao as description, imagem as image
         from app.vw_produtos where id_empresa = $1 and ativo order by id_produto`,
      [rep.idEmpresa],
    );
    withImage = rows.filter((p) => p.image);
    const none = rows.find((p) => !p.image);
    const last = withImage.pop();
    if (!none || !last || withImage.length < FIRST_BATCH * 2)
      throw new Error('the fixture has products with and without an image');
    noImage = none;
    broken = last;
    withImage.push(broken);
  },
});
let server: WebServer;
let page: Page;

beforeAll(async () => {
  ({ server, page } = suite);
  // An image the ERP names but nobody can read: the server answers 404. Changed once the server
  // has drawn the fixture's photos, which would otherwise draw this one too.
  await suite.db.pool.query('update produtos set imagem = $1, dt_alteracao = now() where id_produto = $2', [
    `produtos/nao-existe-${broken.id}.jpg`,
    broken.id,
  ]);
});

const photos = () => page.getByRole('region', { name: 'Fotos dos produtos' });
const progress = () => photos().getByRole('status', { name: 'Progresso das fotos' });

/** Whether the photo box shows a decoded picture (not the placeholder, not a broken image). */
function decoded(box: ReturnType<Page['locator']>): Promise<boolean> {
  return box
    .locator('img')
    .evaluate((img) => (img as unknown as { complete: boolean; naturalWidth: number }).naturalWidth > 0);
}

async function catalogRow(code: string) {
  await page.getByLabel('Buscar produto').fill(code);
  return page
    .getByRole('list', { name: 'Produtos' })
    .getByRole('listitem')
    .filter({ hasText: new RegExp(`Cód\\. ${code}( ·|$)`) });
}

describe('product photos on the phone', () => {
  it('downloads the photos with progress, cancels, resumes where it stopped, and never asks for a product with no image', async () => {
    await logInAndSync(page, server.url, REP, PASSWORD);
    await page.goto(`${server.url}/sincronizacao`);
    await photos().waitFor(WAIT);
    // Chromium on a desktop does not tell Wi-Fi from mobile data, and the screen says so.
    await photos()
      .getByText('Este navegador não informa se a conexão é Wi-Fi ou dados móveis', { exact: false })
      .waitFor(WAIT);
    expect(await photos().getByLabel('Só no Wi-Fi').isDisabled()).toBe(true);

    const total = withImage.length;
    gate.hold = true;
    await photos().getByRole('button', { name: 'Baixar fotos para usar sem internet' }).click();
    await progress()
      .getByText(new RegExp(`^${FIRST_BATCH} de ${total} fotos, \\d+(,\\d)? [KM]B$`))
      .waitFor(WAIT);
    expect(await photos().getByRole('progressbar', { name: 'Fotos baixadas' }).getAttribute('value')).toBe(
      String(FIRST_BATCH),
    );
    await photos().getByRole('button', { name: 'Cancelar' }).click();
    await photos()
      .getByText(`Download interrompido: faltam ${plural(total - FIRST_BATCH, 'foto', 'fotos')}.`, { exact: false })
      .waitFor(WAIT);
    // The first batch was kept; the requests held behind it were cut by the cancel.
    const fetchedBefore = new Set(
      asked
        .filter((a) => a.bearer)
        .slice(0, FIRST_BATCH)
        .map((a) => a.id),
    );

    gate.hold = false;
    for (const release of gate.held.splice(0)) release();
    const before = asked.length;
    await photos().getByRole('button', { name: 'Continuar' }).click();
    await photos().getByText('Fotos prontas para usar sem internet.', { exact: false }).waitFor(WAIT);
    await progress()
      .getByText(new RegExp(`^${total} de ${total} fotos, `))
      .waitFor(WAIT);
    await photos().getByText('1 produto não tem foto no servidor.', { exact: false }).waitFor(WAIT);

    const resumed = asked.slice(before);
    // What the first run kept is not fetched again; every photo went with the session's token.
    const photosBefore = [...fetchedBefore].filter((id) => id !== broken.id);
    expect(resumed.filter((a) => photosBefore.includes(a.id))).toEqual([]);
    expect(new Set(resumed.map((a) => a.id)).size).toBe(total - photosBefore.length);
    expect(asked.every((a) => a.bearer && a.size === 'thumb')).toBe(true);
    expect(asked.some((a) => a.id === noImage.id)).toBe(false);
    await photos()
      .getByText(/^Neste aparelho: \d+ fotos, .* reservados para fotos\.$/)
      .waitFor(WAIT);
  });

  it('shows the placeholder for a product with no image (never asked) and one the server has no photo for', async () => {
    await page.goto(`${server.url}/catalogo/${noImage.id}`);
    await page.getByRole('heading', { name: noImage.description, level: 1 }).waitFor(WAIT);
    await page.getByRole('img', { name: 'Sem foto' }).waitFor(WAIT);
    await page.goto(`${server.url}/catalogo/${broken.id}`);
    await page.getByRole('heading', { name: broken.description, level: 1 }).waitFor(WAIT);
    await page.getByRole('img', { name: 'Sem foto' }).waitFor(WAIT);
    expect(asked.some((a) => a.id === noImage.id)).toBe(false);
    expect(asked.filter((a) => a.id === broken.id && a.size === 'full').length).toBe(1);
  });

  it('moves nothing on the product page when its photo arrives, at 360 and 1280 px', async () => {
    const cases = [
      [PHONE, withImage[3]],
      [DESK, withImage[4]],
    ] as const;
    for (const [viewport, product] of cases) {
      if (!product) throw new Error('products with an image');
      await page.setViewportSize(viewport);
      gate.holdFull = true;
      await page.goto(`${server.url}/catalogo/${product.id}`);
      const below = page.getByRole('heading', { name: 'Seu desconto' });
      await below.waitFor(WAIT);
      await page.locator('.product-photo[data-photo="loading"]').waitFor(WAIT);
      await expect.poll(() => gate.held.length, WAIT).toBeGreaterThan(0);
      const before = await below.boundingBox();
      gate.holdFull = false;
      for (const release of gate.held.splice(0)) release();
      await page.getByRole('img', { name: `Foto de ${product.description}` }).waitFor(WAIT);
      expect(await below.boundingBox(), `${viewport.width} px`).toEqual(before);
    }
    await page.setViewportSize(PHONE);
  });

  it('shows the photos in the catalog and on the product page with the server stopped and the browser offline', async () => {
    await suite.goOffline();
    const [first, second] = withImage;
    if (!first || !second) throw new Error('two products with an image');
    await page.goto(`${server.url}/catalogo`);
    await page.getByRole('heading', { name: 'Catálogo' }).waitFor(WAIT);
    const row = await catalogRow(first.code);
    const box = row.locator('.product-photo[data-photo="loaded"]');
    await box.waitFor(WAIT);
    expect(await decoded(box)).toBe(true);
    const none = await catalogRow(noImage.code);
    await none.locator('.product-photo[data-photo="none"]').waitFor(WAIT);

    // The product page's large photo was not downloaded: the kept thumbnail stands in.
    await page.goto(`${server.url}/catalogo/${second.id}`);
    const photo = page.getByRole('img', { name: `Foto de ${second.description}` });
    await photo.waitFor(WAIT);
    expect(await photo.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth > 0)).toBe(true);
  });

  it('evicts the least recently used photos when the budget is lowered, and the queued order and the catalog stay', async () => {
    await suite.goOffline();
    const seen = withImage[1];
    const other = withImage.find((p) => p !== seen && p !== broken && p.id !== String(sale.idProduto));
    if (!seen || !other) throw new Error('two products with an image');
    await page.goto(`${server.url}/pedidos/novo?cliente=${sale.idCliente}`);
    await page.getByRole('heading', { name: 'Novo pedido' }).waitFor(WAIT);
    const line = await addToCart(page, sale, '1');
    // The cart line shows the product's thumbnail (or the placeholder when it has no image).
    await line.locator('.product-photo[data-photo="loaded"], .product-photo[data-photo="none"]').waitFor(WAIT);
    await sendOrder(page, 'Na fila');

    // The last photo shown is the most recently used: it stays when the others give way.
    await page.goto(`${server.url}/catalogo/${seen.id}`);
    await page.getByRole('img', { name: `Foto de ${seen.description}` }).waitFor(WAIT);
    // A limit for two photos and a half of this one's size (the screen offers 50 MB and up; the
    // rule is the same).
    await page.evaluate(async (id) => {
      // The test project has no DOM types: what this needs of them.
      const g = globalThis as unknown as {
        localStorage: { getItem(k: string): string | null; setItem(k: string, v: string): void };
        location: { origin: string };
        caches: {
          open(n: string): Promise<{ match(u: string): Promise<{ blob(): Promise<{ size: number }> } | undefined> }>;
        };
      };
      const cache = await g.caches.open('campo-fotos');
      const kept = await cache.match(`${g.location.origin}/api/v1/catalog/${id}/image?size=thumb`);
      const bytes = (await kept?.blob())?.size ?? 0;
      const user = (JSON.parse(g.localStorage.getItem('campo.session') ?? '{}') as { user?: { id?: number } }).user?.id;
      g.localStorage.setItem(`campo.local.u${user}.fotos-config`, JSON.stringify({ limitMb: (bytes * 2.5) / 2 ** 20 }));
    }, seen.id);
    await page.getByRole('status', { name: 'Sincronização' }).getByRole('link').first().click();
    await photos()
      .getByText(/^Neste aparelho: [12] fotos?, /)
      .waitFor(WAIT);

    const waiting = page.getByRole('region', { name: 'Aguardando envio' });
    await waiting.getByText('1 item aguardando envio', { exact: false }).waitFor(WAIT);

    await page.goto(`${server.url}/catalogo`);
    const kept = await catalogRow(seen.code);
    await kept.locator('.product-photo[data-photo="loaded"]').waitFor(WAIT);
    const gone = await catalogRow(other.code);
    await gone.locator('.product-photo[data-photo="none"]').waitFor(WAIT);

    // Back online, the order queued before the eviction reaches the server.
    await suite.context.setOffline(false);
    await server.restart();
    await expect
      .poll(async () => (await suite.db.pool.query('select count(*)::int as n from app.pedidos')).rows[0].n, WAIT)
      .toBe(1);
  });
});
