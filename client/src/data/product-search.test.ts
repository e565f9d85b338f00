// The in-memory product search (product-search.ts) against a real RxDB store on Dexie
// (fake-indexeddb): it indexes what the store already holds, follows inserts, updates and
// removals written afterwards, and answers as the RxDB query it replaces did (every word a
// substring of the key, a code also when typed with a mask, active products only, `busca` order).
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { firstValueFrom } from 'rxjs';
import { filter } from 'rxjs/operators';
import { afterEach, describe, expect, it } from 'vitest';
import { productDoc } from '../../../test/fixtures/product-doc.ts';
import { type CampoDatabase, collectionOf, openCampoDb } from '../db/database.ts';
import { createProductSearchIndex, loadQuery, type ProductSearchIndex } from './product-search.ts';

const user = { id: 3, idEmpresa: 2, role: 'representative' as const };

const product = (id: string, code: string, description: string, grupo: number | null, active = true) =>
  productDoc(id, code, description, { grupo, active });

let db: CampoDatabase | undefined;
let index: ProductSearchIndex | undefined;

afterEach(async () => {
  index?.close();
  await db?.remove();
  db = undefined;
  index = undefined;
});

async function open(): Promise<CampoDatabase> {
  db = await openCampoDb({ user, indexedDb: { indexedDB: new IDBFactory(), IDBKeyRange }, multiInstance: false });
  return db;
}

/** Resolves once the index has seen `n` more changes than now. */
function changes(i: ProductSearchIndex, n: number): Promise<number> {
  let seen = -1;
  let base = 0;
  return firstValueFrom(
    i.version$.pipe(
      filter((v) => {
        if (seen < 0) base = v;
        seen = v;
        return v - base >= n;
      }),
    ),
  );
}

describe('catalog search index', () => {
  it('indexes the products already stored, more than one chunk of them, in the order of the busca index', async () => {
    const d = await open();
    const many = Array.from({ length: 345 }, (_, i) =>
      product(String(i + 1), `C${String(i + 1).padStart(5, '0')}`, `Parafuso ${i % 2 ? 'inox' : 'zincado'} ${i}`, 1),
    );
    await collectionOf(d, 'produtos').bulkInsert(many);
    // Chunks of 100: the load reads four.
    index = createProductSearchIndex(collectionOf(d, 'produtos'), 100);
    await index.ready;
    const inox = many.filter((p) => p.description?.includes('inox'));
    const expected = [...inox].sort((a, b) => (a.busca < b.busca ? -1 : 1)).map((p) => p.id);
    expect(index.search('inox parafuso', { limit: 10_000 })).toEqual(expected);
    expect(index.search('inox', { limit: 3 })).toEqual(expected.slice(0, 3));
    // The last product of the store (the last chunk) is there.
    expect(index.search('c00345', { limit: 10 })).toEqual(['345']);
  });

  it('loads in chunks read along the (_deleted, id) index, each stopping at its limit', async () => {
    const d = await open();
    // A plan that does not give the id order reads every product after the last one in each chunk.
    const { queryPlan } = loadQuery(collectionOf(d, 'produtos'), '42', 1000);
    expect(queryPlan.index).toEqual(['_deleted', 'id']);
    expect(queryPlan.sortSatisfiedByIndex).toBe(true);
    expect(queryPlan.selectorSatisfiedByIndex).toBe(true);
  });

  it('follows inserts, updates and removals; leaves out inactive products; filters by group; a code matches with a mask typed', async () => {
    const d = await open();
    const produtos = collectionOf(d, 'produtos');
    await produtos.bulkInsert([product('1', '12345', 'Arroz agulhinha', 7), product('2', 'F-200', 'Feijão preto', 8)]);
    index = createProductSearchIndex(produtos);
    await index.ready;
    expect(index.search('feijao', { limit: 10 })).toEqual(['2']);
    // A code typed with a mask finds the bare one; accents and case are folded.
    expect(index.search('12.345', { limit: 10 })).toEqual(['1']);
    expect(index.search('FEIJÃO', { grupo: 8, limit: 10 })).toEqual(['2']);
    expect(index.search('feijao', { grupo: 7, limit: 10 })).toEqual([]);

    let next = changes(index, 1);
    await produtos.insert(product('3', 'F-300', 'Feijão carioca', 8));
    await next;
    expect(index.search('feijao', { limit: 10 })).toEqual(['2', '3']);

    next = changes(index, 1);
    await produtos.upsert(product('2', 'F-200', 'Lentilha', 8));
    await next;
    expect(index.search('feijao', { limit: 10 })).toEqual(['3']);
    expect(index.search('lentilha', { limit: 10 })).toEqual(['2']);

    next = changes(index, 1);
    await produtos.upsert(product('3', 'F-300', 'Feijão carioca', 8, false));
    await next;
    expect(index.search('feijao', { limit: 10 })).toEqual([]);
    // The cart lists it all the same, to say it is inactive.
    expect(index.search('feijao', { limit: 10, includeInactive: true })).toEqual(['3']);

    next = changes(index, 1);
    await (await produtos.findOne('1').exec())?.remove();
    await next;
    expect(index.search('arroz', { limit: 10 })).toEqual([]);
  });

  it('lists every active product without words, in key order, and gives each group its first product', async () => {
    const d = await open();
    const produtos = collectionOf(d, 'produtos');
    await produtos.bulkInsert([
      product('1', 'B1', 'Feijão', 8),
      product('2', 'A2', 'Arroz', 7),
      product('3', 'A1', 'Arroz integral', 7),
      product('4', 'C1', 'Café', null),
      product('5', 'A0', 'Açúcar', 9, false),
    ]);
    index = createProductSearchIndex(produtos);
    await index.ready;
    expect(index.search('', { limit: 10 })).toEqual(['3', '2', '1', '4']);
    expect(index.search('  ', { grupo: 7, limit: 1 })).toEqual(['3']);
    // A group whose products are all inactive still has them (the cart shows them); none for -1.
    expect(index.groups()).toEqual(
      new Map([
        [9, '5'],
        [7, '3'],
        [8, '1'],
      ]),
    );
  });
});
