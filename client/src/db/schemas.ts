// Local schemas of the replicated collections (contracts in shared/src/sync.ts). A deletion
// arrives as `{ id, _deleted: true }`, so apart from `id` only the indexed fields are required:
// Dexie cannot index a field that may be missing (RxDB error DXE1), and the pull fills them in
// on tombstones with INDEX_DEFAULTS. Indexed fields are never nullable either, so the screens'
// search keys are derived on pull (`busca`, `grupoCodigo`) rather than indexing ERP columns.
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
} from '@campo/shared';
import type { RxJsonSchema } from 'rxdb';

type Local<T> = Omit<T, '_deleted'>;

export type ProductDoc = Local<SyncProduct> & {
  /** Folded code and description, the catalog search key. */
  busca: string;
  /** `grupo`, with -1 for none, so the catalog can filter by group on an index. */
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

export interface CampoDocTypes {
  produtos: ProductDoc;
  clientes: ClientDoc;
  regras: RuleDoc;
  ajustes: SettingsDoc;
  pedidos: OrderDoc;
  funil: OpportunityDoc;
  chamados: TicketDoc;
  cadastros: RegistrationDoc;
}

const ID_MAX = 200;
const SEARCH_MAX = 600;

const id = { type: 'string', maxLength: ID_MAX } as const;
const str = { type: ['string', 'null'] } as const;
const int = { type: ['integer', 'null'] } as const;
const num = { type: ['number', 'null'] } as const;
const obj = { type: ['object', 'null'] } as const;
const isoTime = { type: 'string', maxLength: 40 } as const;

const produtos: RxJsonSchema<ProductDoc> = {
  version: 0,
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
    busca: { type: 'string', maxLength: SEARCH_MAX },
    grupoCodigo: { type: 'integer', minimum: -1, maximum: 2_147_483_647, multipleOf: 1 },
  },
  required: ['id', 'busca', 'grupoCodigo'],
  indexes: ['busca', ['grupoCodigo', 'busca']],
};

const clientes: RxJsonSchema<ClientDoc> = {
  version: 0,
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
    busca: { type: 'string', maxLength: SEARCH_MAX },
  },
  required: ['id', 'busca'],
  indexes: ['busca'],
};

const regras: RxJsonSchema<RuleDoc> = {
  version: 0,
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
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: { id: { type: 'string', maxLength: 20 }, empresa: obj, tetos: obj },
  required: ['id'],
};

const pedidos: RxJsonSchema<OrderDoc> = {
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id,
    status: { type: 'string', maxLength: 20 },
    draft: obj,
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
  version: 0,
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
  version: 0,
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

/** Values of the indexed fields on a document that lacks them (a tombstone from the server). */
export const INDEX_DEFAULTS: { [C in SyncCollection]?: Record<string, string | number> } = {
  produtos: { busca: '', grupoCodigo: -1 },
  clientes: { busca: '' },
  pedidos: { status: '', updatedAt: '' },
  funil: { estagio: '', atualizadoEm: '' },
  chamados: { status: '', atualizadoEm: '' },
};

// A representative registers a few clients a week: listed without an index.
const cadastros: RxJsonSchema<RegistrationDoc> = {
  version: 0,
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

export const SCHEMAS: { [C in SyncCollection]: RxJsonSchema<CampoDocTypes[C]> } = {
  produtos,
  clientes,
  regras,
  ajustes,
  pedidos,
  funil,
  chamados,
  cadastros,
};

/** Catalog search key: what the product search box matches, folded like the server's search. */
export function productSearchKey(p: Pick<SyncProduct, 'code' | 'description'>): string {
  return foldSearchText([p.code, p.description].filter(Boolean).join(' ')).slice(0, SEARCH_MAX);
}

export function clientSearchKey(c: Pick<SyncClient, 'name' | 'tradeName' | 'document' | 'city' | 'id'>): string {
  return foldSearchText([c.tradeName, c.name, c.document, c.city].filter(Boolean).join(' ')).slice(0, SEARCH_MAX);
}
