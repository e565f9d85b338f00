// The first download's direct writes (first-write.ts) against a real RxDB store on Dexie
// (fake-indexeddb): what they write is what RxDB's own write would have stored, the collection
// emits the change its live queries and the catalog's search follow (for every collection, one
// after the other, as the first download writes them), RxDB updates such a document later as
// any other, and the store reopens with it. Under another storage there is no writer.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createRxDatabase, type RxChangeEventBulk } from 'rxdb';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { filter, firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { productDoc } from '../../../test/fixtures/product-doc.ts';
import { createProductSearchIndex } from '../data/product-search.ts';
import { collectionOf, openCampoDb } from './database.ts';
import { clearStraight, firstWriter, type PlainDoc } from './first-write.ts';
import { type ProductDoc, SCHEMAS } from './schemas.ts';

const user = { id: 3, idEmpresa: 2, role: 'representative' as const };

const product = (id: string, code: string, description: string) =>
  productDoc(id, code, description, { grupo: 4, grupoName: 'Grãos', prices: [{ idPauta: 1, price: 12.5 }] });

const client = (id: string, name: string) => ({ id, name, busca: name.toLowerCase(), active: true }) as PlainDoc;

describe('first download writes', () => {
  it('stores documents as RxDB would, emits their insertion, and leaves them to RxDB afterwards', async () => {
    const indexedDb = { indexedDB: new IDBFactory(), IDBKeyRange };
    const db = await openCampoDb({ user, indexedDb, multiInstance: false });
    const produtos = collectionOf(db, 'produtos');
    const index = createProductSearchIndex(produtos);
    await index.ready;
    const write = await firstWriter(produtos as never, db.token);
    if (!write) throw new Error('no writer on the Dexie storage');
    const docs = [product('1', 'A1', 'Arroz'), product('2', 'F2', 'Feijão'), product('3', 'M3', 'Milho')];

    const emitted = firstValueFrom(produtos.eventBulks$) as Promise<RxChangeEventBulk<ProductDoc>>;
    await write(docs as never);
    const bulk = await emitted;
    expect(bulk.events.map((e) => [e.operation, e.documentId])).toEqual([
      ['INSERT', '1'],
      ['INSERT', '2'],
      ['INSERT', '3'],
    ]);
    expect(index.search('feijao', { limit: 10 })).toEqual(['2']);

    const stored = await produtos.storageInstance.findDocumentsById(['1', '2', '3'], true);
    for (const doc of stored) {
      expect(doc._deleted).toBe(false);
      expect(doc._rev).toBe(`1-${db.token}`);
      expect(doc._meta.lwt).toBeGreaterThan(0);
    }
    expect(await produtos.count().exec()).toBe(3);
    expect((await produtos.findOne('2').exec())?.toJSON()).toEqual(docs[1]);

    // A later change goes through RxDB, from the revision written here.
    await (await produtos.findOne('2').exec())?.incrementalPatch({ description: 'Feijão preto' });
    const [patched] = await produtos.storageInstance.findDocumentsById(['2'], false);
    expect(patched?._rev.startsWith('2-')).toBe(true);
    index.close();
    await db.close();

    const reopened = await openCampoDb({ user, indexedDb, multiInstance: false });
    try {
      const again = collectionOf(reopened, 'produtos');
      expect((await again.find().exec()).map((d) => d.toJSON())).toEqual([
        docs[0],
        { ...docs[1], description: 'Feijão preto' },
        docs[2],
      ]);
    } finally {
      await reopened.remove();
    }
  });

  it('a live query opened before the download sees the clients written after the products', async () => {
    const db = await openCampoDb({
      user,
      indexedDb: { indexedDB: new IDBFactory(), IDBKeyRange },
      multiInstance: false,
    });
    try {
      const clientes = collectionOf(db, 'clientes');
      // The portfolio's list: open, and empty, while the catalog downloads.
      const list = clientes.find({ selector: {}, sort: [{ busca: 'asc' }], limit: 51 });
      const listed = firstValueFrom(list.$.pipe(filter((docs) => docs.length === 2)));
      await firstValueFrom(list.$);
      const products = await firstWriter(collectionOf(db, 'produtos') as never, db.token);
      const clients = await firstWriter(clientes as never, db.token);
      await products?.([product('1', 'A1', 'Arroz')] as never);
      await clients?.([client('10', 'Zélia'), client('11', 'Ana')]);
      // RxDB drops an event bulk whose id it already emitted, whichever collection it was for.
      expect((await listed).map((d) => d.id)).toEqual(['11', '10']);
    } finally {
      await db.remove();
    }
  });

  it('empties a collection by deleting its database: queries and the search follow, the store goes on', async () => {
    const db = await openCampoDb({
      user,
      indexedDb: { indexedDB: new IDBFactory(), IDBKeyRange },
      multiInstance: false,
    });
    try {
      const produtos = collectionOf(db, 'produtos');
      const index = createProductSearchIndex(produtos);
      await index.ready;
      await (await firstWriter(produtos as never, db.token))?.([
        product('1', 'A1', 'Arroz'),
        product('2', 'F2', 'Feijão'),
      ] as never);
      // A queued order in another collection, which must not be touched.
      await collectionOf(db, 'pedidos').insert({
        id: 'o1',
        status: 'queued',
        draft: { idCliente: 1, itens: [{ idProduto: 1, quantidade: 1, descontoPercent: 0 }] },
        order: null,
        reasons: [],
        queuedAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      });
      const live = produtos.find();
      const emptied = firstValueFrom(live.$.pipe(filter((docs) => docs.length === 0)));
      expect((await firstValueFrom(live.$)).length).toBe(2);
      expect(await clearStraight(produtos as never, db.token)).toBe(2);
      await emptied;
      expect(await produtos.count().exec()).toBe(0);
      expect(index.search('feijao', { limit: 10 })).toEqual([]);
      // The database opens again, empty, for what comes next.
      await produtos.insert(product('3', 'M3', 'Milho') as never);
      expect((await produtos.find().exec()).map((d) => d.id)).toEqual(['3']);
      expect(index.search('milho', { limit: 10 })).toEqual(['3']);
      await (await firstWriter(produtos as never, db.token))?.([product('4', 'T4', 'Trigo')] as never);
      await produtos.bulkUpsert([product('5', 'S5', 'Soja')] as never);
      expect(index.search('trigo', { limit: 10 })).toEqual(['4']);
      expect(index.search('soja', { limit: 10 })).toEqual(['5']);
      expect(await collectionOf(db, 'pedidos').count().exec()).toBe(1);
      index.close();
    } finally {
      await db.remove();
    }
  });

  it('has no writer under another storage, whose writes then go through RxDB', async () => {
    const db = await createRxDatabase({ name: 'first_write_memory', storage: getRxStorageMemory() });
    try {
      const { produtos } = await db.addCollections({ produtos: { schema: SCHEMAS.produtos } });
      expect(await firstWriter(produtos as never, db.token)).toBeNull();
    } finally {
      await db.remove();
    }
  });
});
