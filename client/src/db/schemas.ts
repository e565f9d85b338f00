// Local schemas of the replicated collections (contracts in shared/src/sync.ts). Apart from
// `id` only the indexed fields are required: Dexie cannot index a field that may be missing
// (RxDB error DXE1). Since protocol 2 a deletion carries the whole last known document; a
// protocol-1 server's bare `{ id, _deleted: true }` is still filled in with INDEX_DEFAULTS.
// Indexed fields are never nullable either, so the screens' search keys are derived on pull
// (`busca`, `grupoCodigo`) rather than indexing ERP columns. Products have no index of their
// own since version 3: the catalog searches, lists and groups them from an in-memory index
// (data/product-search.ts), and every index entry slowed the first download's writes.
//
// Versions (docs/sync.md, "Versions"). Every collection carries the same `version`, the
// store's version, and every released version stays migratable: a phone may skip releases.
// The rule for a change of any schema here (a field added, removed, renamed, an index):
//   1. bump STORE_VERSION by one (every collection, so one number names the store's shape);
//   2. add a strategy for the new number to every collection in MIGRATIONS, never edit an old
//      one: it carries a document of the previous version over, keeping every field the
//      document holds (a new field is `doc.x ?? null`, never a blanket null: the old release
//      may have pulled it from a newer server already) and never returning null for a
//      document the device may still have to push (a queued order, an unpushed card, edit or
//      reply, a queued registration);
//   3. if the new fields come from the server, raise the collection's REFETCH_SINCE to the new
//      number: the replication then pulls that collection again from the beginning once;
//   4. freeze the previous schemas as test/fixtures/schemas-v<N>.ts and extend
//      test/replication/versions.pg.test.ts to open a store with them, sync with today's
//      server, queue work offline, reopen with the current schemas and check the server
//      receives that work exactly once and the pulled documents kept what the server sent.
//      The browser's upgrade test (test/browser/upgrade.pg.test.ts, a fixture build one version
//      ahead: `fixtureNext` below) follows the bump by itself.
// Opening a store runs the strategies before any collection is used (RxDB's migration-schema
// plugin, database.ts); the replication meta data (checkpoints, assumed master states) is
// migrated with the same strategies, so the outbox is pushed afterwards as if nothing happened.
import {
  foldSearchText,
  type SyncClient,
  type SyncCollection,
  type SyncOpportunity,
  type SyncOrder,
  type SyncProduct,
  type SyncRegistration,
  type SyncRule,
  type SyncSettings,
  type SyncTicket,
  type SyncVisit,
} from '@campo/shared';
import type { RxJsonSchema } from 'rxdb';

type Local<T> = Omit<T, '_deleted'>;

export type ProductDoc = Local<SyncProduct> & {
  /** Folded code and description, the catalog search key. */
  busca: string;
  /** `grupo`, with -1 for none: the catalog's in-memory index filters by group on it. */
  grupoCodigo: number;
};
export type ClientDoc = Local<SyncClient> & {
  /** Folded names, document and city, the portfolio search key. */
  busca: string;
};
export type RuleDoc = Local<SyncRule>;
export type SettingsDoc = Local<SyncSettings>;
export type OrderDoc = Local<SyncOrder>;
export type OpportunityDoc = Local<SyncOpportunity>;
export type TicketDoc = Local<SyncTicket>;
export type RegistrationDoc = Local<SyncRegistration>;
/**
 * A visit as the phone holds it: the server's fields (receipt times, distance, order, state)
 * stay null or as written here until the push's answer or a pull brings them.
 */
export type VisitDoc = Omit<Local<SyncVisit>, 'entradaRecebidaEm' | 'recusa'> & {
  entradaRecebidaEm: string | null;
  recusa?: SyncVisit['recusa'];
};

export interface CampoDocTypes {
  produtos: ProductDoc;
  clientes: ClientDoc;
  regras: RuleDoc;
  ajustes: SettingsDoc;
  pedidos: OrderDoc;
  funil: OpportunityDoc;
  chamados: TicketDoc;
  cadastros: RegistrationDoc;
  visitas: VisitDoc;
}

/**
 * Set only in the upgrade test's fixture build (client/vite.config.ts, CAMPO_FIXTURE_NEXT_STORE):
 * a "next release" whose store is one version ahead, so test/browser/upgrade.pg.test.ts can
 * upgrade a real browser's store. A normal build defines it as false and the minifier drops
 * every branch below; in Node (vitest) it is not defined at all, hence `typeof`.
 */
declare const __CAMPO_NEXT_STORE__: boolean | undefined;
const FIXTURE_NEXT_STORE = typeof __CAMPO_NEXT_STORE__ !== 'undefined' && __CAMPO_NEXT_STORE__ === true;

/**
 * The shape of the local store (see "Versions" above); 1 since protocol 2 (refusals), 2 since
 * payment terms, 3 since products lost their search indexes, 4 since the clients' open amounts
 * and the representative's flex balance (issue #40), 5 since the clients' open titles and the
 * orders' invoices (issue #41), 6 since the clients' mix (issue #41), 7 since visits (the
 * collection visitas, the clients' visit days and positions: issue #42). The literal is the
 * released version, the one to bump; the fixture build is always one ahead.
 */
export const STORE_VERSION = 7 + (FIXTURE_NEXT_STORE ? 1 : 0);

const ID_MAX = 200;
const SEARCH_MAX = 600;

const id = { type: 'string', maxLength: ID_MAX } as const;
const str = { type: ['string', 'null'] } as const;
const int = { type: ['integer', 'null'] } as const;
const num = { type: ['number', 'null'] } as const;
const obj = { type: ['object', 'null'] } as const;
const isoTime = { type: 'string', maxLength: 40 } as const;

const produtos: RxJsonSchema<ProductDoc> = {
  version: STORE_VERSION,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id,
    code: str,
    description: str,
    unit: str,
    category: str,
    grupo: int,
    grupoName: str,
    subgrupo: int,
    subgrupoName: str,
    image: str,
    active: { type: 'boolean' },
    prices: {
      type: 'array',
      items: {
        type: 'object',
        properties: { idPauta: { type: 'integer' }, price: { type: 'number' } },
      },
    },
    stock: num,
    busca: { type: 'string', maxLength: SEARCH_MAX },
    grupoCodigo: { type: 'integer', minimum: -1, maximum: 2_147_483_647, multipleOf: 1 },
  },
  required: ['id', 'busca', 'grupoCodigo'],
};

const clientes: RxJsonSchema<ClientDoc> = {
  version: STORE_VERSION,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id,
    codVendedor: int,
    name: str,
    tradeName: str,
    document: str,
    documentType: { type: 'string' },
    street: str,
    number: str,
    complement: str,
    district: str,
    zip: str,
    deliveryAddress: str,
    city: str,
    uf: str,
    phone: str,
    email: str,
    idPauta: int,
    financialStatus: { type: 'string' },
    creditLimit: num,
    lastOrderAt: str,
    active: { type: 'boolean' },
    paymentTermId: int,
    paymentTermIds: { type: ['array', 'null'], items: { type: 'integer' } },
    // The client's available credit on the phone (issue #40): limit − these two.
    openReceivables: num,
    openOrders: num,
    // Since version 5 (issue #41): the open titles, the most overdue first, and how many more.
    titulos: {
      type: ['array', 'null'],
      items: {
        type: 'object',
        properties: {
          documento: str,
          vencimento: { type: 'string' },
          valor: { type: 'number' },
          valorPago: { type: 'number' },
        },
      },
    },
    titulosAlem: int,
    // Since version 6 (issue #41): the client's mix, the most bought first, each entry
    // [idProduto, pedidos, quantidadeUsual, ultimoPreco, ultimaCompra] (shared/src/mix.ts).
    mix: { type: ['array', 'null'], items: { type: 'array' } },
    // Since version 7 (issue #42): the visit days (today's route is computed here with
    // visitDue) and the known position (the distance shown at check-in).
    diasVisita: {
      type: ['array', 'null'],
      items: {
        type: 'object',
        properties: { diaSemana: { type: 'integer' }, intervaloSemanas: { type: 'integer' }, dataBase: str },
      },
    },
    posicao: obj,
    busca: { type: 'string', maxLength: SEARCH_MAX },
  },
  required: ['id', 'busca'],
  indexes: ['busca'],
};

const regras: RxJsonSchema<RuleDoc> = {
  version: STORE_VERSION,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id,
    descricao: { type: 'string' },
    grupo: int,
    subgrupo: int,
    representante: int,
    idPauta: int,
    percent: { type: 'number' },
    vigenciaInicio: { type: 'string' },
    vigenciaFim: { type: 'string' },
    promocao: { type: 'boolean' },
  },
  required: ['id'],
};

const ajustes: RxJsonSchema<SettingsDoc> = {
  version: STORE_VERSION,
  primaryKey: 'id',
  type: 'object',
  // Documents 'empresa', 'tetos' and, since version 4, 'flex' (the representative's balance).
  properties: { id: { type: 'string', maxLength: 20 }, empresa: obj, tetos: obj, flex: obj },
  required: ['id'],
};

const pedidos: RxJsonSchema<OrderDoc> = {
  version: STORE_VERSION,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id,
    status: { type: 'string', maxLength: 20 },
    draft: obj,
    // Since version 5 (issue #41) the order carries its ERP invoices and, per line, the
    // quantities invoiced and open: inside this object, so no new field here.
    order: obj,
    reasons: { type: 'array', items: { type: 'object' } },
    queuedAt: str,
    updatedAt: isoTime,
  },
  required: ['id', 'status', 'updatedAt'],
  // The outbox lists by state, newest first.
  indexes: [['status', 'updatedAt']],
};

const funil: RxJsonSchema<OpportunityDoc> = {
  version: STORE_VERSION,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id,
    estagio: { type: 'string', maxLength: 20 },
    idCliente: int,
    nomeCliente: str,
    nomeProspect: str,
    empresaProspect: str,
    idPedido: int,
    valor: num,
    previsaoFechamento: str,
    observacoes: str,
    motivoPerda: str,
    criadoEm: { type: 'string' },
    atualizadoEm: isoTime,
    recusa: obj,
  },
  required: ['id', 'estagio', 'atualizadoEm'],
  // The funnel board shows one column per stage.
  indexes: [['estagio', 'atualizadoEm']],
};

const chamados: RxJsonSchema<TicketDoc> = {
  version: STORE_VERSION,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id,
    idChamado: int,
    idPedido: int,
    numPedSar: int,
    numPedErp: int,
    idCliente: int,
    nomeCliente: str,
    assunto: { type: 'string' },
    status: { type: 'string', maxLength: 20 },
    mensagens: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          autorTipo: { type: 'string' },
          autorNome: { type: 'string' },
          texto: { type: 'string' },
          criadoEm: { type: 'string' },
          recusa: obj,
        },
      },
    },
    criadoEm: { type: 'string' },
    atualizadoEm: isoTime,
    recusa: obj,
  },
  required: ['id', 'status', 'atualizadoEm'],
  indexes: [['status', 'atualizadoEm']],
};

/**
 * Values of the indexed (and, for products, required) fields on a document that lacks them (a
 * tombstone from the server).
 */
export const INDEX_DEFAULTS: { [C in SyncCollection]?: Record<string, string | number> } = {
  produtos: { busca: '', grupoCodigo: -1 },
  clientes: { busca: '' },
  pedidos: { status: '', updatedAt: '' },
  funil: { estagio: '', atualizadoEm: '' },
  chamados: { status: '', atualizadoEm: '' },
};

// A representative registers a few clients a week: listed without an index.
const cadastros: RxJsonSchema<RegistrationDoc> = {
  version: STORE_VERSION,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id,
    status: { type: 'string', maxLength: 20 },
    dados: obj,
    idCliente: int,
    razaoSocial: str,
    documento: str,
    reasons: { type: 'array', items: { type: 'object' } },
    criadoEm: str,
  },
  required: ['id'],
};

// Since version 7 (issue #42): the representative's visits of the last 30 days and those made
// here; a few a day, listed without an index (today's route filters them in memory).
const visitas: RxJsonSchema<VisitDoc> = {
  version: STORE_VERSION,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id,
    codVendedor: { type: 'integer' },
    idCliente: { type: 'integer' },
    nomeCliente: str,
    data: { type: 'string' },
    estado: { type: 'string' },
    entradaEm: { type: 'string' },
    entradaRecebidaEm: str,
    saidaEm: str,
    saidaRecebidaEm: str,
    posicao: obj,
    saidaPosicao: obj,
    distanciaMetros: int,
    minutos: int,
    noRoteiro: { type: 'boolean' },
    idPedido: int,
    numPedSar: int,
    idMotivo: int,
    motivo: str,
    observacao: str,
    foto: { type: 'boolean' },
    recusa: obj,
  },
  required: ['id'],
};

export const SCHEMAS: { [C in SyncCollection]: RxJsonSchema<CampoDocTypes[C]> } = {
  produtos,
  clientes,
  regras,
  ajustes,
  pedidos,
  funil,
  chamados,
  cadastros,
  visitas,
};

/** A document as a migration strategy gets it (without _meta and _deleted, kept by RxDB). */
type OldDoc = Record<string, unknown>;

/** Carries a document over unchanged: the new version changed nothing in this collection. */
const same = (doc: OldDoc): OldDoc => doc;

/**
 * The fixture build's version, one past the released one (FIXTURE_NEXT_STORE above), never a
 * release: every document is carried over as is, which still makes RxDB move each collection
 * to new storage, meta data and outbox included, as a real schema change would. It follows
 * the next bump by itself.
 */
const fixtureNext: Record<number, (doc: OldDoc) => OldDoc> = FIXTURE_NEXT_STORE ? { [STORE_VERSION]: same } : {};

/**
 * Migration strategies per collection, by the version they migrate to. A strategy receives a
 * document of the previous version, including queued and unpushed local work, and must
 * return it in the new shape; never null for something the device still has to push.
 */
export const MIGRATIONS: { [C in SyncCollection]: Record<number, (doc: OldDoc) => OldDoc> } = {
  // 1 (protocol 2): funnel cards and tickets gained `recusa` (the server's refusal of what
  // the device pushed). Nothing else changed; every other collection is carried over as is.
  // 2 (payment terms, stock): products gained their stock (null: unknown), clients their
  // default payment term and the terms they are restricted to. A document an older release
  // pulled from a server that already sent them holds them (the schema lists fields, it does
  // not strip the others): they are kept. One that lacks them gets null until the refetch
  // (REFETCH_SINCE below) brings the server's document again. The company document (ajustes
  // 'empresa', an object in the schema) gains the list of terms the same way. A queued order's
  // draft is an object too: one queued before the update has no term, and the server applies
  // the client's.
  // 3 (first download): products lost their two search indexes; no document changed.
  // 4 (credit and flex, issue #40): clients gained their open receivables and open Campo orders
  // (the available credit), the ajustes documents the field `flex` (document 'flex', the
  // representative's balance and latest entries, a new document for a release that never
  // pulled it). Kept when an older release pulled them already, null otherwise until the
  // refetch brings the server's documents again.
  // 5 (after approval, issue #41): clients gained their open titles (`titulos`, `titulosAlem`),
  // kept when already pulled, null otherwise until the refetch; the orders' invoices come
  // inside `order` (an object), so pedidos documents are carried over as they are and the
  // refetch brings them with their invoices. A queued order (order null) is untouched.
  // 6 (the client's mix, issue #41): clients gained `mix`, kept when already pulled, null
  // otherwise until the refetch; nothing else changed.
  // 7 (visits, issue #42): the collection visitas opened (new: nothing to carry), and clients
  // gained `diasVisita` and `posicao`, kept when already pulled, null otherwise until the
  // refetch; nothing else changed.
  produtos: {
    1: same,
    2: (doc) => ({ ...doc, stock: doc.stock ?? null }),
    3: same,
    4: same,
    5: same,
    6: same,
    7: same,
    ...fixtureNext,
  },
  clientes: {
    1: same,
    2: (doc) => ({ ...doc, paymentTermId: doc.paymentTermId ?? null, paymentTermIds: doc.paymentTermIds ?? null }),
    3: same,
    4: (doc) => ({ ...doc, openReceivables: doc.openReceivables ?? null, openOrders: doc.openOrders ?? null }),
    5: (doc) => ({ ...doc, titulos: doc.titulos ?? null, titulosAlem: doc.titulosAlem ?? null }),
    6: (doc) => ({ ...doc, mix: doc.mix ?? null }),
    7: (doc) => ({ ...doc, diasVisita: doc.diasVisita ?? null, posicao: doc.posicao ?? null }),
    ...fixtureNext,
  },
  regras: { 1: same, 2: same, 3: same, 4: same, 5: same, 6: same, 7: same, ...fixtureNext },
  ajustes: {
    1: same,
    2: same,
    3: same,
    4: (doc) => ({ ...doc, flex: doc.flex ?? null }),
    5: same,
    6: same,
    7: same,
    ...fixtureNext,
  },
  pedidos: { 1: same, 2: same, 3: same, 4: same, 5: same, 6: same, 7: same, ...fixtureNext },
  funil: {
    1: (doc) => ({ ...doc, recusa: doc.recusa ?? null }),
    2: same,
    3: same,
    4: same,
    5: same,
    6: same,
    7: same,
    ...fixtureNext,
  },
  chamados: {
    1: (doc) => ({ ...doc, recusa: doc.recusa ?? null }),
    2: same,
    3: same,
    4: same,
    5: same,
    6: same,
    7: same,
    ...fixtureNext,
  },
  cadastros: { 1: same, 2: same, 3: same, 4: same, 5: same, 6: same, 7: same, ...fixtureNext },
  // New in version 7: RxDB still asks a strategy for every version below the schema's.
  visitas: { 1: same, 2: same, 3: same, 4: same, 5: same, 6: same, 7: same, ...fixtureNext },
};

/**
 * Per collection, the last store version whose migration added fields the server sends. A
 * store older than that may hold the collection's documents without them (pulled before the
 * server had them, or emptied by a migration), and its pull checkpoint is past them, so they
 * would never come again: the replication pulls such a collection from the beginning once
 * (refetch.ts). A migration that adds a field the server knows raises its collection's entry
 * here, in the same change; one that only adds a local field or an index does not.
 */
export const REFETCH_SINCE: { readonly [C in SyncCollection]?: number } = {
  // 1: the server's refusal of a card or ticket (`recusa`).
  funil: 1,
  chamados: 1,
  // 2: stock, a client's payment terms, the company's list of terms.
  produtos: 2,
  // 4: the representative's flex balance.
  ajustes: 4,
  // 5: an order's invoices and open quantities (issue #41).
  pedidos: 5,
  // 7: a client's visit days and position (issue #42); since 6 its mix, since 5 its open titles.
  clientes: 7,
};

/** Catalog search key: what the product search box matches, folded like the server's search. */
export function productSearchKey(p: Pick<SyncProduct, 'code' | 'description'>): string {
  return foldSearchText([p.code, p.description].filter(Boolean).join(' ')).slice(0, SEARCH_MAX);
}

export function clientSearchKey(c: Pick<SyncClient, 'name' | 'tradeName' | 'document' | 'city' | 'id'>): string {
  return foldSearchText([c.tradeName, c.name, c.document, c.city].filter(Boolean).join(' ')).slice(0, SEARCH_MAX);
}
