// Opening a store written by an older release with the current schemas: every document comes
// over as it was, queued and unpushed local work included, with only what the new version adds
// (schemas.ts, "Versions"); and every migration strategy keeps every field a document holds. No
// server: the replication's side of the upgrade is test/replication/versions.pg.test.ts.
import type { SyncCollection } from '@campo/shared';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { SCHEMAS_V0 } from '../../../test/fixtures/schemas-v0.ts';
import { SCHEMAS_V1 } from '../../../test/fixtures/schemas-v1.ts';
import { SCHEMAS_V2 } from '../../../test/fixtures/schemas-v2.ts';
import { SCHEMAS_V3 } from '../../../test/fixtures/schemas-v3.ts';
import { SCHEMAS_V4 } from '../../../test/fixtures/schemas-v4.ts';
import { SCHEMAS_V5 } from '../../../test/fixtures/schemas-v5.ts';
import { SCHEMAS_V6 } from '../../../test/fixtures/schemas-v6.ts';
import { campoDbName, collectionOf, openCampoDb } from './database.ts';
import { dropEarlierStores, earlierStoreNames } from './earlier-stores.ts';
import { type CampoDocTypes, MIGRATIONS, SCHEMAS, STORE_VERSION } from './schemas.ts';

const user = { id: 3, idEmpresa: 2, role: 'representative' as const };
const v0 = Object.fromEntries(Object.entries(SCHEMAS_V0).map(([c, schema]) => [c, { schema }]));
const v1 = Object.fromEntries(Object.entries(SCHEMAS_V1).map(([c, schema]) => [c, { schema }]));
const v2 = Object.fromEntries(Object.entries(SCHEMAS_V2).map(([c, schema]) => [c, { schema }]));
const v3 = Object.fromEntries(Object.entries(SCHEMAS_V3).map(([c, schema]) => [c, { schema }]));
const v4 = Object.fromEntries(Object.entries(SCHEMAS_V4).map(([c, schema]) => [c, { schema }]));
const v5 = Object.fromEntries(Object.entries(SCHEMAS_V5).map(([c, schema]) => [c, { schema }]));
const v6 = Object.fromEntries(Object.entries(SCHEMAS_V6).map(([c, schema]) => [c, { schema }]));

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

  it('deletes the empty databases of earlier versions once migrated, and keeps one that still holds documents', async () => {
    const factory = new IDBFactory();
    const indexedDb = { indexedDB: factory, IDBKeyRange };
    const old = await openCampoDb({ user, indexedDb, multiInstance: false, schemas: v6 });
    await collectionOf(old, 'pedidos').insert(order as never);
    await collectionOf(old, 'funil').insert({ ...card, recusa: null } as never);
    await old.close();
    // An earlier store's outbox no migration carried over (a collection this store did not open).
    const stray = `rxdb-dexie-${campoDbName(user)}--3--chamados`;
    await new Promise<void>((resolve, reject) => {
      const req = factory.open(stray);
      req.onupgradeneeded = () => req.result.createObjectStore('docs', { keyPath: 'id' }).add({ id: 'x' });
      req.onsuccess = () => {
        req.result.close();
        resolve();
      };
      req.onerror = () => reject(req.error);
    });
    const names = async () => (await factory.databases()).map((d) => d.name ?? '').sort();

    const db = await openCampoDb({ user, indexedDb, multiInstance: false });
    try {
      const before = earlierStoreNames(await names(), campoDbName(user));
      // Version 6's collections (migrated, emptied), the stray one.
      expect(before.some((n) => n.endsWith('--6--pedidos'))).toBe(true);
      expect(before).toContain(stray);
      const dropped = await dropEarlierStores(campoDbName(user), factory);
      expect(dropped.sort()).toEqual(before.filter((n) => n !== stray).sort());
      const after = await names();
      expect(earlierStoreNames(after, campoDbName(user))).toEqual([stray]);
      // The store itself is whole: its internal database and the current version's.
      expect(after).toContain(`rxdb-dexie-${campoDbName(user)}--0--_rxdb_internal`);
      expect(after).toContain(`rxdb-dexie-${campoDbName(user)}--${STORE_VERSION}--pedidos`);
      expect((await collectionOf(db, 'pedidos').findOne(order.id).exec())?.toJSON()).toEqual(order);
    } finally {
      await db.close();
    }
    // And once more: nothing left to drop, the migrated data still there.
    expect(await dropEarlierStores(campoDbName(user), factory)).toEqual([]);
    const again = await openCampoDb({ user, indexedDb, multiInstance: false });
    try {
      expect((await collectionOf(again, 'pedidos').findOne(order.id).exec())?.toJSON()).toEqual(order);
    } finally {
      await again.close();
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
        openReceivables: null,
        openOrders: null,
        titulos: null,
        titulosAlem: null,
        mix: null,
        diasVisita: null,
        posicao: null,
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

/**
 * One document per collection as today's server sends it (with the search keys the pull adds),
 * every field set and none null, so a strategy that overwrites a field shows. An older store
 * holds such documents when the old release pulled them from today's server: its schema lists
 * fewer fields, but nothing strips the others.
 */
const SERVER_DOCS: { [C in SyncCollection]: CampoDocTypes[C] } = {
  produtos: {
    id: '9001',
    code: 'FRIO00001',
    description: 'Queijo minas frescal',
    unit: 'KG',
    category: 'FRIOS',
    grupo: 4,
    grupoName: 'Frios',
    subgrupo: 41,
    subgrupoName: 'Queijos',
    image: 'frio00001.jpg',
    active: true,
    prices: [{ idPauta: 1, price: 32.5 }],
    stock: 235,
    busca: 'frio00001 queijo minas frescal',
    grupoCodigo: 4,
  },
  clientes: {
    id: '1',
    codVendedor: 3,
    name: 'Açougue Boi Gordo Ltda',
    tradeName: 'Boi Gordo',
    document: '11222333000181',
    documentType: 'CNPJ',
    street: 'Rua das Flores',
    number: '12',
    complement: 'fundos',
    district: 'Centro',
    zip: '01001000',
    deliveryAddress: 'Rua das Flores, 12, fundos, Centro',
    city: 'São Paulo',
    uf: 'SP',
    phone: '1133334444',
    email: 'compras@boigordo.test',
    idPauta: 1,
    financialStatus: 'ok',
    creditLimit: 5000,
    lastOrderAt: '2026-11-20T10:00:00.000Z',
    active: true,
    paymentTermId: 3,
    paymentTermIds: [1, 3],
    openReceivables: 1200.5,
    openOrders: 300,
    titulos: [{ documento: '1234-1', vencimento: '2026-11-01', valor: 800, valorPago: 100 }],
    titulosAlem: 0,
    mix: [[7, 3, 12, 10.5, '2026-10-20']],
    diasVisita: [{ diaSemana: 2, intervaloSemanas: 2, dataBase: '2026-11-03' }],
    posicao: { latitude: -23.55, longitude: -46.63 },
    busca: 'boi gordo acougue boi gordo ltda 11222333000181 sao paulo',
  },
  regras: {
    id: '5',
    descricao: 'Frios em dezembro',
    grupo: 4,
    subgrupo: 41,
    representante: 3,
    idPauta: 1,
    percent: 12,
    vigenciaInicio: '2026-12-01',
    vigenciaFim: '2026-12-31',
    promocao: true,
  },
  ajustes: {
    id: 'empresa',
    empresa: {
      idEmpresa: 2,
      name: 'Distribuidora Campo Ltda',
      tradeName: 'Campo',
      cnpj: '11222333000181',
      stateRegistration: '123456789',
      address: { street: 'Av. Brasil, 100', city: 'Campinas', uf: 'SP', cep: '13000000' },
      phone: '1933334444',
      logoBase64: 'data:image/png;base64,AAAA',
      metaPositivacaoDia: 8,
      paymentTerms: [{ id: 3, name: '28/35/42 dias' }],
    } as never,
    tetos: { codVendedor: 3, defaultPercent: 5, byCategory: { FRIOS: 8 } },
    // Every field set, as the test below wants; the server sends it on document 'flex'.
    flex: {
      codVendedor: 3,
      saldo: 42.5,
      lancamentos: [
        {
          id: 1,
          codVendedor: 3,
          tipo: 'ajuste',
          valor: 42.5,
          idPedido: null,
          numPedSar: null,
          motivo: 'Campanha',
          criadoPor: 'ger@campo.test',
          criadoEm: '2026-11-20T10:00:00.000Z',
        },
      ],
    },
  },
  pedidos: {
    ...order,
    status: 'refused',
    order: { id: 44 } as never,
    reasons: [{ code: 'VALIDATION', message: 'Falta o prazo' }],
  },
  funil: {
    ...card,
    estagio: 'proposta',
    idCliente: 1,
    nomeCliente: 'Boi Gordo',
    empresaProspect: 'Empório',
    idPedido: 44,
    previsaoFechamento: '2026-12-10',
    motivoPerda: 'preço',
    recusa: { code: 'CLIENT_NOT_IN_PORTFOLIO', message: 'O cliente não é mais da sua carteira.' },
  },
  chamados: {
    ...ticket,
    numPedErp: 900,
    recusa: { code: 'TICKET_CLOSED', message: 'O chamado foi encerrado.' },
  } as never,
  cadastros: { ...registration, status: 'created', idCliente: 77, criadoEm: '2026-11-21T10:00:00.000Z' },
  visitas: {
    id: 'a0000000-0000-4000-8000-000000000042',
    codVendedor: 3,
    idCliente: 1,
    nomeCliente: 'Boi Gordo',
    data: '2026-11-24',
    estado: 'sem_pedido',
    entradaEm: '2026-11-24T14:05:00.000-03:00',
    entradaRecebidaEm: '2026-11-24T17:30:00.000Z',
    saidaEm: '2026-11-24T14:25:00.000-03:00',
    saidaRecebidaEm: '2026-11-24T17:30:01.000Z',
    posicao: { latitude: -23.55, longitude: -46.63, precisao: 12 },
    saidaPosicao: { latitude: -23.55, longitude: -46.63, precisao: 20 },
    distanciaMetros: 8,
    minutos: 20,
    noRoteiro: true,
    idPedido: 44,
    numPedSar: 1044,
    idMotivo: 3,
    motivo: 'Estoque alto',
    observacao: 'volta na sexta 🙂',
    foto: true,
    recusa: { code: 'VISIT_ALREADY_OPEN', message: 'Há uma visita aberta.' },
  },
};

describe('every migration strategy', () => {
  const collections = Object.keys(SERVER_DOCS) as SyncCollection[];

  it('has a server document with every field of the current schema set', () => {
    for (const c of collections) {
      const doc = SERVER_DOCS[c] as Record<string, unknown>;
      for (const field of Object.keys(SCHEMAS[c].properties)) {
        expect(doc[field], `${c}.${field}`).not.toBeNull();
        expect(doc[field], `${c}.${field}`).not.toBeUndefined();
      }
    }
  });

  it.each(collections)("of %s, run on a document as today's server sends it, keeps every field it holds", (c) => {
    const doc = SERVER_DOCS[c] as Record<string, unknown>;
    const versions = Object.keys(MIGRATIONS[c]).map(Number);
    // Every version from the first release's on has one (a phone may skip releases).
    expect(versions).toEqual(Array.from({ length: STORE_VERSION }, (_, i) => i + 1));
    for (const version of versions) {
      const migrate = MIGRATIONS[c][version] as (d: Record<string, unknown>) => Record<string, unknown>;
      expect(migrate(structuredClone(doc)), `${c} to version ${version}`).toEqual(doc);
    }
    // And all of them in a row, as a phone that skipped releases runs them.
    let chained = structuredClone(doc);
    for (const version of versions) chained = (MIGRATIONS[c][version] as (d: typeof doc) => typeof doc)(chained);
    expect(chained).toEqual(doc);
  });
});

describe("a store of an older release holding documents as today's server sends them", () => {
  it.each([
    [0, v0],
    [1, v1],
    [2, v2],
    [3, v3],
    [4, v4],
    [5, v5],
    [6, v6],
  ])('of version %i is opened with every document as it was', async (_version, schemas) => {
    const indexedDb = { indexedDB: new IDBFactory(), IDBKeyRange };
    const old = await openCampoDb({ user, indexedDb, multiInstance: false, schemas });
    // Those the release had (visitas came with 7).
    const collections = (Object.keys(SERVER_DOCS) as SyncCollection[]).filter((c) => c in schemas);
    for (const c of collections) await collectionOf(old, c).insert(SERVER_DOCS[c] as never);
    await old.close();

    const db = await openCampoDb({ user, indexedDb, multiInstance: false });
    try {
      for (const c of collections) {
        const doc = (await collectionOf(db, c).findOne(SERVER_DOCS[c].id).exec())?.toJSON();
        expect(doc, c).toEqual(SERVER_DOCS[c]);
      }
    } finally {
      await db.close();
    }
  });
});
