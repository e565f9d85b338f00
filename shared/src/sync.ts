// Replication contracts (RxDB checkpoint iteration; docs/sync.md). A device pulls each
// collection from its last checkpoint; the server answers the documents changed after it, in
// revision order, and the checkpoint to send next time. Deletions arrive as tombstones.
import { z } from 'zod';
import { ZCatalogSync } from './catalog.ts';
import { ZCompany } from './company.ts';
import { FLEX_SYNC_ENTRIES, ZFlexEntry } from './flex.ts';
import { ZOpportunity } from './funnel.ts';
import { CLIENT_TITLES_SYNC_MAX, ZSyncClientTitle } from './invoices.ts';
import { CLIENT_MIX_MAX, CLIENT_MIX_MONTHS, ZSyncMixEntry } from './mix.ts';
import { ZCreditRefusal, ZFlexRefusal, ZOrderDetail } from './orders.ts';
import { SYNC_COLLECTIONS, SYNC_SERVED, SYNC_SERVED_WRITABLE, type SyncServedCollection } from './sync-collections.ts';
import { ZTicketAuthorType, ZTicketStatus } from './tickets.ts';
import { ZVisit, ZVisitDay } from './visits.ts';

export * from './sync-collections.ts';

export const ZSyncCollection = z.enum(SYNC_COLLECTIONS).describe('Replicated collection');

export const SYNC_PUSH_MAX = 100;

/**
 * The replication protocol and document shapes a device speaks (docs/sync.md, "Versions").
 * Every pull, push and stream request names it in the header SYNC_VERSION_HEADER; a request
 * without it speaks version 1 (the apps released before the header existed). A server serves
 * SYNC_PROTOCOL_MIN_VERSION up to SYNC_PROTOCOL_VERSION; an older device gets 426 with the
 * minimum in the problem body, updates the app and resumes with its outbox intact.
 *
 * 1: the first release (tombstones `{ id, _deleted }`, every pushed document answered).
 * 2: tombstones carry the last known document, the push answers only what the device cannot
 *    know, business refusals come back per document (`recusa` on cards and ticket messages).
 */
export const SYNC_PROTOCOL_VERSION = 2;
export const SYNC_PROTOCOL_MIN_VERSION = 1;
export const SYNC_VERSION_HEADER = 'Campo-Sync-Version';

/** The version a request speaks: its header, or 1 when absent; null when malformed. */
export function syncVersionOf(header: string | null | undefined): number | null {
  if (header === null || header === undefined || header === '') return 1;
  return /^[1-9][0-9]{0,3}$/.test(header.trim()) ? Number(header.trim()) : null;
}

export const ZSyncRefusal = z
  .object({
    code: z
      .string()
      .max(60)
      .describe('Stable code: VALIDATION, CLIENT_NOT_IN_PORTFOLIO, TICKET_CLOSED, ORDER_NOT_FOUND, ...'),
    message: z.string().max(1000).describe('Why, in plain pt-BR, as the representative sees it'),
    campos: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('The values the device sent that were not taken (an edit refused over the server state)'),
  })
  .describe('Why the server did not take what the device pushed; the device shows it and offers fix or discard');
export type SyncRefusal = z.infer<typeof ZSyncRefusal>;

export const SYNC_LIMIT_DEFAULT = 200;
export const SYNC_LIMIT_MAX = 10_000;

/**
 * What a checkpoint holds: the last revision the device has, and the scope it was issued for
 * (tenant, collection, representative or `*`), so that a checkpoint of another user or
 * collection is refused rather than silently skipping documents.
 */
export interface SyncCheckpointData {
  /** The writing transaction of the last document sent (PostgreSQL txid). */
  xid: number;
  /** Its revision, for order within one transaction. */
  revisao: number;
  scope: string;
}

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function fromBase64Url(value: string): string | null {
  if (!/^[A-Za-z0-9_-]+$/.test(value)) return null;
  try {
    const binary = atob(value.replace(/-/g, '+').replace(/_/g, '/'));
    return utf8.decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}

/** The opaque checkpoint: base64url of the JSON `{"xid":N,"revisao":N,"scope":"..."}`. */
export function encodeCheckpoint(data: SyncCheckpointData): string {
  return toBase64Url(JSON.stringify({ xid: data.xid, revisao: data.revisao, scope: data.scope }));
}

// Built once: building a zod schema costs far more than using it (a fifth of the server's CPU
// for a pull with nothing new, when it was built on every call).
const ZCheckpointData = z
  .object({
    xid: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    revisao: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    scope: z.string().max(100),
  })
  .strict();

/** The checkpoint's content, or null when it is not one this server issued (malformed). */
export function decodeCheckpoint(value: string): SyncCheckpointData | null {
  const text = fromBase64Url(value);
  if (text === null) return null;
  try {
    const data: unknown = JSON.parse(text);
    const parsed = ZCheckpointData.safeParse(data);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const ZSyncPullParams = z.object({
  collection: z
    .string()
    .max(40)
    .describe(`Collection: ${SYNC_SERVED.join(', ')} (another name answers 404)`),
});

export const ZSyncPullQuery = z.object({
  checkpoint: z
    .string()
    .max(500)
    .optional()
    .describe('The checkpoint of the previous answer, as it came; absent on the first pull (from the start)'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(SYNC_LIMIT_MAX)
    .default(SYNC_LIMIT_DEFAULT)
    .describe(`Most documents to answer, 1 to ${SYNC_LIMIT_MAX} (default ${SYNC_LIMIT_DEFAULT}); outside is a 400`),
});
export type SyncPullQuery = z.infer<typeof ZSyncPullQuery>;

export const ZSyncPrice = z
  .object({
    idPauta: z.number().int().describe('Price list (pauta) id'),
    price: z.number().describe('List price on that pauta'),
  })
  .describe('A price of the product');

export const ZSyncProduct = z
  .object({
    id: z.string().describe('Product id (ERP id_produto), as a string: RxDB primary keys are strings'),
    code: z.string().nullable().describe('Product code'),
    description: z.string().nullable().describe('Description'),
    unit: z.string().nullable().describe('Sales unit'),
    category: z.string().nullable().describe('Product category (selects the representative’s discount ceiling)'),
    grupo: z.number().int().nullable().describe('Product group code'),
    grupoName: z.string().nullable().describe('Product group name'),
    subgrupo: z.number().int().nullable().describe('Product subgroup code'),
    subgrupoName: z.string().nullable().describe('Product subgroup name'),
    image: z.string().nullable().describe('Image reference from the ERP'),
    active: z.boolean().describe('Active in the ERP; inactive products stay so open orders can show them'),
    prices: z.array(ZSyncPrice).describe('Price on each pauta of the tenant, by pauta id'),
    stock: z
      .number()
      .nullable()
      .optional()
      .describe(
        'Stock on hand in the ERP (vw_estoque), in the sales unit; null when the ERP keeps none for it: unknown, not zero',
      ),
    _deleted: z.boolean().describe('True on a deletion, which carries the last known document'),
  })
  .describe('A product document (collection produtos)');
export type SyncProduct = z.infer<typeof ZSyncProduct>;

export const ZSyncClient = z
  .object({
    id: z.string().describe('Client id (ERP corrent.id_corrent), as a string: RxDB primary keys are strings'),
    codVendedor: z.number().int().nullable().describe('Representative whose portfolio holds the client'),
    name: z.string().nullable().describe('Legal name (razão social)'),
    tradeName: z.string().nullable().describe('Trade name (nome fantasia)'),
    document: z.string().nullable().describe('CPF or CNPJ, without mask'),
    documentType: z.enum(['CPF', 'CNPJ']).describe('Which document it is'),
    street: z.string().nullable().describe('Street'),
    number: z.string().nullable().describe('Street number'),
    complement: z.string().nullable().describe('Address complement'),
    district: z.string().nullable().describe('District (bairro)'),
    zip: z.string().nullable().describe('Postal code (CEP)'),
    deliveryAddress: z.string().nullable().describe('The address as one line, the default of a new order'),
    city: z.string().nullable().describe('City'),
    uf: z.string().nullable().describe('State, two letters'),
    phone: z.string().nullable().describe('Phone'),
    email: z.string().nullable().describe('E-mail'),
    idPauta: z.number().int().nullable().describe('The client’s price list (pauta)'),
    financialStatus: z.enum(['ok', 'overdue', 'blocked']).describe('Financial status when the log was refreshed'),
    creditLimit: z.number().nullable().describe('Credit limit kept by Campo; null when none was set'),
    openReceivables: z
      .number()
      .optional()
      .describe(
        'Receivables still open in the ERP (available credit = limit − this − openOrders); absent from older servers',
      ),
    openOrders: z
      .number()
      .optional()
      .describe(
        "The client's Campo orders pending approval or approved, every representative's; absent from older servers",
      ),
    titulos: z
      .array(ZSyncClientTitle)
      .max(CLIENT_TITLES_SYNC_MAX)
      .optional()
      .describe(
        `The client's open titles, the most overdue first (earliest due date), at most ${CLIENT_TITLES_SYNC_MAX}; absent from older servers`,
      ),
    titulosAlem: z
      .number()
      .int()
      .optional()
      .describe('How many more open titles the client has beyond those in titulos; absent from older servers'),
    mix: z
      .array(ZSyncMixEntry)
      .max(CLIENT_MIX_MAX)
      .optional()
      .describe(
        `The client's mix: the products it bought in the last ${CLIENT_MIX_MONTHS} months (ERP orders not cancelled, Campo orders approved or invoiced), the most bought first, at most ${CLIENT_MIX_MAX}, each as [idProduto, pedidos, quantidadeUsual, ultimoPreco, ultimaCompra]; absent from older servers`,
      ),
    lastOrderAt: z.string().nullable().describe('Latest order (ISO 8601, UTC); activity is derived from it'),
    active: z.boolean().describe('The ERP registration flag'),
    paymentTermId: z
      .number()
      .int()
      .nullable()
      .optional()
      .describe("The client's default payment term (ajustes 'empresa', paymentTerms), pre-selected in the cart"),
    paymentTermIds: z
      .array(z.number().int())
      .nullable()
      .optional()
      .describe('The only payment terms the ERP lets the client buy on; null when it may use every active one'),
    diasVisita: z
      .array(ZVisitDay)
      .max(7)
      .optional()
      .describe(
        "The client's visit days (the ERP's, else Campo's plan: docs/visits.md), from which the phone computes today's route with visitDue; absent from older servers",
      ),
    posicao: z
      .object({
        latitude: z.number().min(-90).max(90).describe('Degrees, WGS 84'),
        longitude: z.number().min(-180).max(180).describe('Degrees, WGS 84'),
      })
      .nullable()
      .optional()
      .describe(
        "The client's known position (the ERP's, else a confirmed check-in), for the distance the phone shows at check-in; null when unknown, absent from older servers",
      ),
    _deleted: z.boolean().describe('True on a deletion, which carries the last known document'),
  })
  .describe('A client document (collection clientes)');
export type SyncClient = z.infer<typeof ZSyncClient>;

export const ZSyncRule = z
  .object({
    id: z.string().describe('Rule id, as a string'),
    descricao: z.string().describe('Description'),
    grupo: z.number().int().nullable().describe('Product group; null matches every group'),
    subgrupo: z.number().int().nullable().describe('Product subgroup; null matches every subgroup'),
    representante: z.number().int().nullable().describe('Representative; null matches every representative'),
    idPauta: z.number().int().nullable().describe('Price list; null matches every list'),
    percent: z.number().describe('Ceiling raised to (and new lines pre-filled with) this percent'),
    vigenciaInicio: z.string().describe('First day in force (YYYY-MM-DD)'),
    vigenciaFim: z.string().describe('Last day in force (YYYY-MM-DD); 9999-12-31 when open-ended'),
    promocao: z.boolean().describe("'Promoção' badge when true, 'Cond. especial' when false"),
    _deleted: z.boolean().describe('True on a deletion, which carries the last known document'),
  })
  .describe(
    'A discount rule in force today or later that reaches the caller (collection regras); expired rules leave as tombstones',
  );
export type SyncRule = z.infer<typeof ZSyncRule>;

export const ZSyncSettings = z
  .object({
    id: z
      .enum(['empresa', 'tetos', 'flex'])
      .describe(
        "'empresa': the company and its settings; 'tetos': the caller's ceilings; 'flex': the caller's flex balance",
      ),
    empresa: ZCompany.nullable().describe(
      "The company, its logo, its daily positivation target and its credit and flex settings (document 'empresa')",
    ),
    tetos: z
      .object({
        codVendedor: z.number().int().describe('Representative'),
        defaultPercent: z.number().nullable().describe('Default ceiling; null when the ERP sets none (5% applies)'),
        byCategory: z.record(z.string(), z.number()).describe('Ceiling per product category'),
      })
      .nullable()
      .describe("The representative's discount ceilings (document 'tetos', representatives only)"),
    flex: z
      .object({
        codVendedor: z.number().int().describe('Representative'),
        saldo: z.number().describe('The balance now, BRL: the sum of every entry'),
        lancamentos: z
          .array(ZFlexEntry)
          .max(FLEX_SYNC_ENTRIES)
          .describe(`The latest entries of the ledger, newest first, at most ${FLEX_SYNC_ENTRIES}`),
      })
      .nullable()
      .optional()
      .describe(
        "The representative's flex balance and its latest moves (document 'flex', representatives only); absent from older servers and on the other documents",
      ),
    _deleted: z.boolean().describe('True on a deletion, which carries the last known document'),
  })
  .describe('Small reference data (collection ajustes): the company settings, the ceilings and the flex balance');
export type SyncSettings = z.infer<typeof ZSyncSettings>;

export const SYNC_ORDER_STATES = [
  'queued',
  'pending_approval',
  'approved',
  'invoiced',
  'rejected',
  'cancelled',
  'refused',
] as const;
export const ZSyncOrderState = z
  .enum(SYNC_ORDER_STATES)
  .describe(
    'queued: waiting in the device outbox; refused: the server refused it (see reasons; fix and queue again, or discard); the others are the order status',
  );
export type SyncOrderState = z.infer<typeof ZSyncOrderState>;

export const ZSyncOrderReason = z
  .object({
    code: z
      .string()
      .describe(
        'Stable code: a refusal code of POST /orders (DISCOUNT_ABOVE_CEILING, CLIENT_BLOCKED, ...) or VALIDATION',
      ),
    message: z.string().describe('The reason in plain pt-BR'),
    line: z.number().int().optional().describe('1-based line of the draft, when a line is refused'),
    idProduto: z.number().int().optional().describe('Product of the refused line'),
    descontoPercent: z.number().optional().describe('The discount asked'),
    tetoPercent: z.number().optional().describe('The ceiling that applied'),
    regra: z
      .object({
        id: z.number().int().describe('Discount rule id'),
        descricao: z.string().describe('Discount rule description'),
      })
      .nullable()
      .optional()
      .describe('The rule that set the ceiling, or null when the base ceiling applied'),
    credit: ZCreditRefusal.optional().describe('The credit figures, when the reason is CREDIT_LIMIT_EXCEEDED'),
    flex: ZFlexRefusal.optional().describe('The flex figures, when the reason is FLEX_BALANCE_INSUFFICIENT'),
  })
  .describe('One reason a queued order was refused');
export type SyncOrderReason = z.infer<typeof ZSyncOrderReason>;

export const ZSyncOrder = z
  .object({
    id: z
      .string()
      .describe("The order's Idempotency-Key, made by the device when the order was created (pedido-<id> for none)"),
    status: ZSyncOrderState,
    draft: z
      .unknown()
      .nullable()
      .describe('The order as the device queued it (the body of POST /orders); null once the server holds the order'),
    order: ZOrderDetail.nullable().describe(
      'The order as the server holds it, with what the ERP invoiced of it (GET /orders/{id}); null while queued or when refused',
    ),
    reasons: z.array(ZSyncOrderReason).describe('Why it was refused; empty otherwise'),
    queuedAt: z.string().nullable().describe("When the device queued it (device clock; shown as the outbox's age)"),
    updatedAt: z.string().describe('Last change (ISO 8601)'),
    _deleted: z.boolean().describe('True when the device discards a refused order'),
  })
  .describe(
    "An order of the representative (collection pedidos). Pushing one with status queued and a draft creates the order through the same service as POST /orders, idempotent by id; the answer's master state says pending_approval, or refused with reasons",
  );
export type SyncOrder = z.infer<typeof ZSyncOrder>;

export const ZSyncOpportunity = ZOpportunity.extend({
  recusa: ZSyncRefusal.nullable()
    .optional()
    .describe(
      'Set only in a push answer: the card (a creation) or the edit (campos) was not taken, and why; the device shows it with fix or discard. Absent on pulled cards',
    ),
  _deleted: z.boolean().describe('True when deleted'),
}).describe(
  'An opportunity of the funnel (collection funil). Conflict rule: the fields a push changed (new state against the assumed master) are applied over the server’s current version, field by field, in the order pushes reach the server; fields it did not change keep the server’s value; a deletion wins over edits',
);
export type SyncOpportunity = z.infer<typeof ZSyncOpportunity>;

export const ZSyncTicketMessage = z
  .object({
    id: z.string().describe('Message id made by the device (UUID), or msg-<id> for a message written online'),
    autorTipo: ZTicketAuthorType,
    autorNome: z.string().describe('Who wrote it'),
    texto: z.string().describe('The text exactly as typed'),
    criadoEm: z.string().describe('When (ISO 8601; the server’s time once it holds the message)'),
    recusa: ZSyncRefusal.nullable()
      .optional()
      .describe(
        'Set only in a push answer, on a reply the server did not take (the ticket was closed meanwhile): the text stays on the device, with the reason',
      ),
  })
  .describe('A message of a ticket thread');

export const ZSyncTicket = z
  .object({
    id: z.string().describe('Ticket id made by the device (UUID), or chamado-<id> for a ticket opened online'),
    idChamado: z.number().int().nullable().describe("The server's ticket id; null until the server holds the ticket"),
    idPedido: z.number().int().nullable().describe('The Campo order the ticket is about'),
    numPedSar: z.number().int().nullable().describe("The Campo order's number"),
    numPedErp: z.number().int().nullable().describe('The ERP order number, when about one'),
    idCliente: z.number().int().nullable().describe("The order's client"),
    nomeCliente: z.string().nullable().describe("The client's name"),
    assunto: z.string().describe('Subject, exactly as typed'),
    status: ZTicketStatus,
    mensagens: z.array(ZSyncTicketMessage).describe('The thread, oldest first'),
    recusa: ZSyncRefusal.nullable()
      .optional()
      .describe('Set only in a push answer, when the ticket could not be opened (idChamado null), and why'),
    criadoEm: z.string().describe('Opened at'),
    atualizadoEm: z.string().describe('Last message or state change'),
    _deleted: z.boolean().describe('Always false: tickets are never deleted'),
  })
  .describe(
    'A SAC ticket with its thread (collection chamados). Pushes: a new id opens the ticket; new messages (ids the server does not hold) are appended in order; status cancelado cancels it. Messages are never edited; a push to a closed ticket gets the master state back, with the messages it could not take left out',
  );
export type SyncTicket = z.infer<typeof ZSyncTicket>;

export const ZSyncRegistration = z
  .object({
    id: z.string().describe('UUID made by the device: the registration’s idempotency key'),
    status: z
      .enum(['queued', 'created', 'refused'])
      .describe('queued: waiting in the outbox; created: in the ERP (idCliente); refused: see reasons'),
    dados: z.unknown().nullable().describe('The registration as the device queued it (the body of POST /clients)'),
    idCliente: z.number().int().nullable().describe('The ERP client created; null until then'),
    razaoSocial: z.string().nullable().describe('Legal name, as registered'),
    documento: z.string().nullable().describe('CPF or CNPJ, without mask'),
    reasons: z.array(ZSyncOrderReason).describe('Why it was refused (field by field); empty otherwise'),
    criadoEm: z.string().nullable().describe('When the server registered it'),
    _deleted: z.boolean().describe('True when the device discards a refused registration'),
  })
  .describe(
    'A client registered in the field (collection cadastros). Pushing one with status queued registers it through the same service as POST /clients, idempotent by id; the master state says created (the client then arrives in clientes) or refused with reasons',
  );
export type SyncRegistration = z.infer<typeof ZSyncRegistration>;

export const ZSyncVisit = ZVisit.extend({
  recusa: ZSyncRefusal.nullable()
    .optional()
    .describe(
      'Set only in a push answer: the check-in or the check-out was not taken, and why (CLIENT_NOT_IN_PORTFOLIO, VISIT_ALREADY_OPEN, VISIT_REASON_REQUIRED, VISIT_PHOTO_REQUIRED, ...); the device shows it with fix or discard. Absent on pulled visits',
    ),
  _deleted: z
    .boolean()
    .describe('True when the device discards a visit the server refused; visits the server holds are never deleted'),
}).describe(
  "A visit (collection visitas: docs/sync.md). A push of a new id checks in (idCliente, entradaEm, posicao), with saidaEm set it also checks out (saidaPosicao, idMotivo, observacao), through the same service as POST /visits, idempotent by id. The server's fields (entradaRecebidaEm, distanciaMetros, idPedido, estado...) are its own; a pull holds the representative's visits of the last 30 days",
);
export type SyncVisit = z.infer<typeof ZSyncVisit>;

/** Any replicated document (a deletion is one with `_deleted: true`). */
export type SyncDocument =
  | SyncProduct
  | SyncClient
  | SyncRule
  | SyncSettings
  | SyncOrder
  | SyncOpportunity
  | SyncTicket
  | SyncRegistration
  | SyncVisit;

const EPOCH = '1970-01-01T00:00:00.000Z';

/**
 * A deletion of a document whose last state the server no longer has (a change-log row
 * written before protocol 2 stored documents): the collection's document with neutral values,
 * so that it still validates against the collection's schema. Every other deletion carries
 * the last known document.
 */
export function blankDocument(colecao: SyncServedCollection, id: string): SyncDocument {
  const deleted = { id, _deleted: true } as const;
  switch (colecao) {
    case 'produtos':
      return {
        ...deleted,
        code: null,
        description: null,
        unit: null,
        category: null,
        grupo: null,
        grupoName: null,
        subgrupo: null,
        subgrupoName: null,
        image: null,
        active: false,
        prices: [],
      };
    case 'clientes':
      return {
        ...deleted,
        codVendedor: null,
        name: null,
        tradeName: null,
        document: null,
        documentType: 'CNPJ',
        street: null,
        number: null,
        complement: null,
        district: null,
        zip: null,
        deliveryAddress: null,
        city: null,
        uf: null,
        phone: null,
        email: null,
        idPauta: null,
        financialStatus: 'ok',
        creditLimit: null,
        lastOrderAt: null,
        active: false,
      };
    case 'regras':
      return {
        ...deleted,
        descricao: '',
        grupo: null,
        subgrupo: null,
        representante: null,
        idPauta: null,
        percent: 0,
        vigenciaInicio: '1970-01-01',
        vigenciaFim: '1970-01-01',
        promocao: false,
      };
    case 'ajustes':
      return { ...deleted, id: id === 'tetos' ? 'tetos' : 'empresa', empresa: null, tetos: null };
    case 'pedidos':
      return { ...deleted, status: 'refused', draft: null, order: null, reasons: [], queuedAt: null, updatedAt: EPOCH };
    case 'funil':
      return {
        ...deleted,
        estagio: 'lead',
        idCliente: null,
        nomeCliente: null,
        nomeProspect: null,
        empresaProspect: null,
        idPedido: null,
        valor: null,
        previsaoFechamento: null,
        observacoes: null,
        motivoPerda: null,
        criadoEm: EPOCH,
        atualizadoEm: EPOCH,
      };
    case 'chamados':
      return {
        ...deleted,
        idChamado: null,
        idPedido: null,
        numPedSar: null,
        numPedErp: null,
        idCliente: null,
        nomeCliente: null,
        assunto: '',
        status: 'cancelado',
        mensagens: [],
        criadoEm: EPOCH,
        atualizadoEm: EPOCH,
      };
    case 'cadastros':
      return {
        ...deleted,
        status: 'refused',
        dados: null,
        idCliente: null,
        razaoSocial: null,
        documento: null,
        reasons: [],
        criadoEm: null,
      };
    case 'visitas':
      return {
        ...deleted,
        codVendedor: 0,
        idCliente: 0,
        nomeCliente: null,
        data: '1970-01-01',
        estado: 'sem_pedido',
        entradaEm: EPOCH,
        entradaRecebidaEm: EPOCH,
        saidaEm: null,
        saidaRecebidaEm: null,
        posicao: null,
        saidaPosicao: null,
        distanciaMetros: null,
        minutos: null,
        noRoteiro: false,
        idPedido: null,
        numPedSar: null,
        idMotivo: null,
        motivo: null,
        observacao: null,
        foto: false,
      };
  }
}

export const ZSyncPull = z
  .object({
    documents: z
      .array(
        z.union([
          ZSyncProduct,
          ZSyncClient,
          ZSyncRule,
          ZSyncSettings,
          ZSyncOrder,
          ZSyncOpportunity,
          ZSyncTicket,
          ZSyncRegistration,
          ZSyncVisit,
        ]),
      )
      .describe(
        "Documents changed after the checkpoint, in commit order, at most `limit`. A deletion is the collection's document with `_deleted: true`, carrying its last known state",
      ),
    checkpoint: z
      .string()
      .describe(
        'Opaque checkpoint to send next; the same as sent when nothing changed. Fewer documents than `limit`: the device is up to date',
      ),
  })
  .describe('A batch of the replication pull');
export type SyncPull = z.infer<typeof ZSyncPull>;

export const ZSyncRefreshCounts = z
  .object({
    inserted: z.number().int().describe('Keys new to the change log'),
    updated: z.number().int().describe('Keys whose document changed'),
    deleted: z.number().int().describe('Keys gone from the ERP (now tombstones)'),
  })
  .describe('What a refresh of one collection changed in the change log');
export type SyncRefreshCounts = z.infer<typeof ZSyncRefreshCounts>;

export const ZSyncRefresh = z
  .object(
    Object.fromEntries(SYNC_SERVED.map((c) => [c, ZSyncRefreshCounts])) as Record<
      SyncServedCollection,
      typeof ZSyncRefreshCounts
    >,
  )
  .describe('What a refresh changed in the change log, per collection');
export type SyncRefresh = z.infer<typeof ZSyncRefresh>;

/** POST /catalog/sync: what the ERP catalog holds, and what the change log refresh changed. */
export const ZCatalogSyncResult = ZCatalogSync.extend({
  changeLog: ZSyncRefresh.describe("What the refresh of the tenant's replication change log changed"),
}).describe('What the ERP catalog of the tenant holds now, and what devices will pull');
export type CatalogSyncResult = z.infer<typeof ZCatalogSyncResult>;

export const ZSyncPushRow = z
  .object({
    assumedMasterState: z
      .looseObject({ id: z.string().max(200).describe('Document id') })
      .nullable()
      .optional()
      .transform((v) => v ?? null)
      .describe('The master state the device last saw; null or absent for a document new to the server'),
    newDocumentState: z
      .looseObject({
        id: z.string().min(1).max(200).describe('Document id'),
        _deleted: z.boolean().optional().describe('True when the device deleted the document'),
      })
      .describe('The document as the device holds it now'),
  })
  .strict()
  .describe('One changed document');
export type SyncPushRow = z.infer<typeof ZSyncPushRow>;

export const ZSyncPushBody = z
  .array(ZSyncPushRow)
  .max(SYNC_PUSH_MAX)
  .describe(`The documents the device changed, at most ${SYNC_PUSH_MAX}`);

export const ZSyncPushResult = z
  .array(z.union([ZSyncOrder, ZSyncOpportunity, ZSyncTicket, ZSyncRegistration, ZSyncVisit]))
  .describe(
    'RxDB conflicts: the master state of each pushed document whose server state differs from what the device sent in a way the device cannot know by itself (a refusal with its reason, a merge with another device, numbers and names the server assigned, a deletion that won). A write taken as sent is not answered: it comes back by pull like every change. docs/sync.md lists, per collection, what the push answers',
  );
export type SyncPushResult = z.infer<typeof ZSyncPushResult>;

export const ZSyncPushParams = z.object({
  collection: z
    .string()
    .max(40)
    .describe(`Writable collection: ${SYNC_SERVED_WRITABLE.join(', ')} (another answers 404)`),
});
