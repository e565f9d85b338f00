// The catalog's first download in a real browser (docs/sync.md, "First download in the
// browser"), the representative at 360 px: the products and clients come down once, written in
// bulk outside RxDB's replication, and RxDB's replication carries on from their checkpoint
// (no second download from the start); a product changed in the ERP afterwards reaches the
// open catalog through the live pull and its search (the in-memory index, client/src/data/product-search.ts);
// after a reload with the network cut the search still answers from the store.
import { beforeAll, describe, expect, it } from 'vitest';
import { logInAndSync, WAIT } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';

const REP = 'rep.catalogo@campo.test';
const MANAGER = 'ger.catalogo@campo.test';
const PASSWORD = 'senha-do-catalogo-1';

interface Product {
  id: number;
  code: string;
  description: string;
}

let product: Product;

const suite = useBrowserSuite({
  password: PASSWORD,
  // The change announced on the stream is what makes the open app pull.
  server: { changeStream: true },
  users: [
    { login: REP, name: 'Carla Catálogo', role: 'representative' },
    { login: MANAGER, name: 'Gustavo Catálogo', role: 'manager' },
  ],
  setUp: async ({ db, rep }) => {
    const { rows } = await db.pool.query<Product>(
      `select id_produto as id, cod_produto as code, descricao as description from app.vw_produtos
        where id_empresa = $1 and ativo order by id_produto desc limit 1`,
      [rep.idEmpresa],
    );
    if (!rows[0]) throw new Error('the fixture has no active product');
    product = rows[0];
  },
});

/** Pulls of a collection, from the start (no checkpoint) and from a checkpoint, as the page sent them. */
const pulls = new Map<string, { fromStart: number; fromCheckpoint: number }>();

beforeAll(() => {
  suite.page.on('request', (req) => {
    const url = new URL(req.url());
    const match = /\/api\/v1\/sync\/([a-z]+)\/pull$/.exec(url.pathname);
    if (!match?.[1]) return;
    const seen = pulls.get(match[1]) ?? { fromStart: 0, fromCheckpoint: 0 };
    if (url.searchParams.has('checkpoint')) seen.fromCheckpoint++;
    else seen.fromStart++;
    pulls.set(match[1], seen);
  });
});

describe('catalog first download', () => {
  it('downloads the catalog and the portfolio from the start once; the replication goes on from their checkpoint', async () => {
    const { page, server } = suite;
    await logInAndSync(page, server.url, REP, PASSWORD);
    for (const collection of ['produtos', 'clientes']) {
      expect(pulls.get(collection)?.fromStart, collection).toBe(1);
      // RxDB's replication, started after the first download, asked from the handed checkpoint.
      expect(pulls.get(collection)?.fromCheckpoint, collection).toBeGreaterThanOrEqual(1);
    }
    await page.goto(`${server.url}/catalogo`);
    const list = page.getByRole('list', { name: 'Produtos' });
    // The words of the description in another order, and in capitals: each is searched on its own.
    const words = product.description.split(/\s+/).filter(Boolean).reverse().join(' ').toUpperCase();
    await page.getByLabel('Buscar produto').fill(words);
    await list.getByRole('listitem').filter({ hasText: product.code }).first().waitFor(WAIT);
  });

  it('a product renamed in the ERP reaches the open catalog by the live pull, and a reload offline still finds it', async () => {
    const { page, server, db } = suite;
    const renamed = `Zabumba ${product.id}`;
    const list = page.getByRole('list', { name: 'Produtos' });
    // Searched before the change: the open search must re-run when the product changes in the store.
    await page.getByLabel('Buscar produto').fill('zabumba');
    await page.getByText('Nenhum produto encontrado com essa busca.').waitFor(WAIT);
    await db.pool.query('update produtos set descricao = $1, dt_alteracao = now() where id_produto = $2', [
      renamed,
      product.id,
    ]);
    const manager = await suite.token(MANAGER);
    const res = await fetch(`${server.url}/api/v1/catalog/sync`, {
      method: 'POST',
      headers: { authorization: `Bearer ${manager}` },
    });
    expect(res.status, await res.text()).toBe(200);
    const fromStartBefore = pulls.get('produtos')?.fromStart;
    await list.getByRole('listitem').filter({ hasText: renamed }).waitFor(WAIT);
    // Incremental: the catalog was not downloaded again.
    expect(pulls.get('produtos')?.fromStart).toBe(fromStartBefore);

    await suite.goOffline();
    await page.reload();
    await page.getByLabel('Buscar produto').fill(`zabumba ${product.code}`);
    await list.getByRole('listitem').filter({ hasText: renamed }).waitFor(WAIT);
    expect(await list.getByRole('listitem').count()).toBe(1);
  });
});
