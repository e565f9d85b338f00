// Opening a store written by the first release (store version 0) with the current schemas:
// every document comes over as it was, queued and unpushed local work included, with only
// what the new version adds (schemas.ts, "Versions"). No server: the replication's side of the
// upgrade is test/replication/versions.pg.test.ts.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { SCHEMAS_V0 } from '../../../test/fixtures/schemas-v0.ts';
import { SCHEMAS_V1 } from '../../../test/fixtures/schemas-v1.ts';
import { SCHEMAS_V2 } from '../../../test/fixtures/schemas-v2.ts';
import { collectionOf, openCampoDb } from './database.ts';
import { SCHEMAS, STORE_VERSION } from './schemas.ts';

const user = { id: 3, idEmpresa: 2, role: 'representative' as const };
const v0 = Object.fromEntries(Object.entries(SCHEMAS_V0).map(([c, schema]) => [c, { schema }]));
const v1 = Object.fromEntries(Object.entries(SCHEMAS_V1).map(([c, schema]) => [c, { schema }]));
const v2 = Object.fromEntries(Object.entries(SCHEMAS_V2).map(([c, schema]) => [c, { schema }]));

const order = {
  id: 'a0000000-0000-4000-8000-000000000001',
  status: 'queued',
  draft: { idCliente: 10, itens: [{ idProduto: 5, quantidade: 2, descontoPercent: 3 }] },
  order: null,
  reasons: [],
  queuedAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
};
const card = {
  id: 'b0000000-0000-4000-8000-000000000002',
  estagio: 'proposta',
  idCliente: null,
  nomeCliente: null,
  nomeProspect: 'Empório 🍞',
  empresaProspect: null,
  idPedido: null,
  valor: 1500,
  previsaoFechamento: null,
  observacoes: 'ligar segunda',
  motivoPerda: null,
  criadoEm: '2026-11-20T10:00:00.000Z',
  atualizadoEm: '2026-11-20T11:00:00.000Z',
};
const ticket = {
  id: 'c0000000-0000-4000-8000-000000000003',
  idChamado: 12,
  idPedido: 3,
  numPedSar: 44,
  numPedErp: null,
  idCliente: 10,
  nomeCliente: 'Açougue',
  assunto: 'Troca',
  status: 'aberto',
  mensagens: [
    {
      id: 'msg-1',
      autorTipo: 'representante',
      autorNome: 'Ana',
      texto: 'Veio errado',
      criadoEm: '2026-11-20T10:00:00.000Z',
    },
    {
      id: 'd0000000-0000-4000-8000-000000000004',
      autorTipo: 'representante',
      autorNome: 'Ana',
      texto: 'Ainda não chegou',
      criadoEm: '2026-11-21T10:00:00.000Z',
    },
  ],
  criadoEm: '2026-11-20T10:00:00.000Z',
  atualizadoEm: '2026-11-21T10:00:00.000Z',
};
const registration = {
  id: 'e0000000-0000-4000-8000-000000000005',
  status: 'queued',
  dados: { razaoSocial: 'Mercadinho Ltda', documento: '11222333000181' },
  idCliente: null,
  razaoSocial: 'Mercadinho Ltda',
  documento: '11222333000181',
  reasons: [],
  criadoEm: null,
};
const product = { id: '7', code: 'A1', description: 'Arroz', busca: 'a1 arroz', grupoCodigo: 2, prices: [] };

describe('store migration', () => {
  it('carries every v0 document over, outbox included, and adds recusa to cards and tickets', async () => {
    const indexedDb = { indexedDB: new IDBFactory(), IDBKeyRange };
    const old = await openCampoDb({ user, indexedDb, multiInstance: false, schemas: v0 });
    await collectionOf(old, 'pedidos').insert(order as never);
    const discarded = await collectionOf(old, 'pedidos').insert({
      ...order,
      id: 'discarded',
      status: 'refused',
    } as never);
    await discarded.remove();
    await collectionOf(old, 'funil').insert(card as never);
    await collectionOf(old, 'chamados').insert(ticket as never);
    await collectionOf(old, 'cadastros').insert(registration as never);
    await collectionOf(old, 'produtos').insert(product as never);
    await old.close();

    const db = await openCampoDb({ user, indexedDb, multiInstance: false });
    try {
      expect(SCHEMAS.funil.version).toBe(STORE_VERSION);
      const json = async (c: 'pedidos' | 'funil' | 'chamados' | 'cadastros' | 'produtos', id: string) =>
        (await collectionOf(db, c).findOne(id).exec())?.toJSON();
      expect(await json('pedidos', order.id)).toEqual(order);
      expect(await json('funil', card.id)).toEqual({ ...card, recusa: null });
      expect(await json('chamados', ticket.id)).toEqual({ ...ticket, recusa: null });
      expect(await json('cadastros', registration.id)).toEqual(registration);
      expect(await json('produtos', product.id)).toEqual({ ...product, stock: null });
      // A deletion not pushed yet stays a deletion, for the replication to push.
      const [gone] = await collectionOf(db, 'pedidos').storageInstance.findDocumentsById(['discarded'], true);
      expect(gone?._deleted).toBe(true);
      expect(await collectionOf(db, 'pedidos').count().exec()).toBe(1);
    } finally {
      await db.close();
    }
  });

  it('carries a v1 store over: a queued order without a payment term stays as queued, clients get an unknown term', async () => {
    const indexedDb = { indexedDB: new IDBFactory(), IDBKeyRange };
    const old = await openCampoDb({ user, indexedDb, multiInstance: false, schemas: v1 });
    const client = {
      id: '10',
      codVendedor: 3,
      name: 'Açougue Boi Gordo Ltda',
      tradeName: 'Boi Gordo',
      idPauta: 1,
      financialStatus: 'ok',
      active: true,
      busca: 'boi gordo',
    };
    await collectionOf(old, 'pedidos').insert(order as never);
    await collectionOf(old, 'funil').insert({ ...card, recusa: null } as never);
    await collectionOf(old, 'clientes').insert(client as never);
    await old.close();

    const db = await openCampoDb({ user, indexedDb, multiInstance: false });
    try {
      expect(SCHEMAS.clientes.version).toBe(STORE_VERSION);
      expect((await collectionOf(db, 'pedidos').findOne(order.id).exec())?.toJSON()).toEqual(order);
      expect((await collectionOf(db, 'funil').findOne(card.id).exec())?.toJSON()).toEqual({ ...card, recusa: null });
      // Unknown until the server's document, whose hash changed, arrives with the next pull.
      expect((await collectionOf(db, 'clientes').findOne('10').exec())?.toJSON()).toEqual({
        ...client,
        paymentTermId: null,
        paymentTermIds: null,
      });
    } finally {
      await db.close();
    }
  });

  it('carries a v2 store over: every product is kept as it was, now without the search indexes', async () => {
    const indexedDb = { indexedDB: new IDBFactory(), IDBKeyRange };
    const old = await openCampoDb({ user, indexedDb, multiInstance: false, schemas: v2 });
    const products = Array.from({ length: 450 }, (_, i) => ({
      ...product,
      id: String(i + 1),
      code: `A${i + 1}`,
      busca: `a${i + 1} arroz`,
      grupo: 2,
      grupoName: 'Cereais',
      active: i % 7 !== 0,
      prices: [{ idPauta: 1, price: 10 + i }],
      stock: i % 3 ? i : null,
    }));
    await collectionOf(old, 'produtos').bulkInsert(products as never);
    await collectionOf(old, 'pedidos').insert(order as never);
    await old.close();

    const db = await openCampoDb({ user, indexedDb, multiInstance: false });
    try {
      const produtos = collectionOf(db, 'produtos');
      expect(produtos.schema.version).toBe(STORE_VERSION);
      // Only RxDB's own indexes are left.
      expect(produtos.schema.indexes.flat()).not.toContain('busca');
      const kept = await produtos.find().exec();
      expect(kept.map((d) => d.toJSON()).sort((a, b) => Number(a.id) - Number(b.id))).toEqual(products);
      expect((await collectionOf(db, 'pedidos').findOne(order.id).exec())?.toJSON()).toEqual(order);
    } finally {
      await db.close();
    }
  });
});
