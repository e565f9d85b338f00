// The catalog's first download in a real browser (docs/sync.md, "First download in the
// browser"), the representative at 360 px: the products and clients come down once, written in
// bulk outside RxDB's replication, and RxDB's replication carries on from their checkpoint
// (no second download from the start); a product changed in the ERP afterwards reaches the
// open catalog through the live pull and its search (the in-memory index, client/src/data/product-search.ts);
// after a reload with the network cut the search still answers from the store.
import { beforeAll, describe, expect, it } from 'vitest';
import { productSearchKey } from '../../client/src/db/schemas.ts';
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

  it('lists the catalog without words in key order, and a group chosen by name lists only its products', async () => {
    const { page, db, rep } = suite;
    const { rows } = await db.pool.query<{ id: number; code: string; description: string; grupo: number | null }>(
      `select id_produto as id, cod_produto as code, descricao as description, cod_grupo as grupo
         from app.vw_produtos where id_empresa = $1 and ativo`,
      [rep.idEmpresa],
    );
    // The order of the key the device derives (code and description, folded), then the id.
    const keyed = rows
      .map((r) => ({ ...r, key: productSearchKey(r), sid: String(r.id) }))
      .sort((a, b) => (a.key !== b.key ? (a.key < b.key ? -1 : 1) : a.sid < b.sid ? -1 : 1));
    const list = page.getByRole('list', { name: 'Produtos' });
    await page.getByLabel('Buscar produto').fill('');
    await expect.poll(() => list.getByRole('listitem').count(), WAIT).toBe(Math.min(50, keyed.length));
    const firstShown = await list.getByRole('listitem').first().textContent();
    expect(firstShown).toContain(keyed[0]?.description);
    // The smallest group with active products, by the name the ERP gives it.
    const { rows: groups } = await db.pool.query<{ cod: number; nome: string; n: number }>(
      `select cod_grupo as cod, descricao_grupo as nome, count(*)::int as n from app.vw_produtos
        where id_empresa = $1 and ativo and cod_grupo is not null and descricao_grupo is not null
        group by 1, 2 order by 3, 1 limit 1`,
      [rep.idEmpresa],
    );
    const group = groups[0];
    if (!group) throw new Error('the fixture has no product group');
    await page.getByText(/^Filtros:/).click();
    await page.getByLabel('Grupo').selectOption({ label: group.nome });
    const inGroup = keyed.filter((r) => r.grupo === group.cod);
    await expect.poll(() => list.getByRole('listitem').count(), WAIT).toBe(Math.min(50, inGroup.length));
    expect(await list.getByRole('listitem').first().textContent()).toContain(inGroup[0]?.description);
    await page.getByLabel('Grupo').selectOption({ label: 'Todos os grupos' });
    await page.getByText(/^Filtros:/).click();
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
