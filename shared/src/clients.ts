import { z } from 'zod';
import { isValidCnpj, isValidCpf, normalizeDocument } from './documents.ts';
import { pageOf, ZPageQuery } from './pagination.ts';

/** A client whose latest order is older than this many days is inactive (spec: Limits). */
export const INACTIVE_AFTER_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The moment before which a latest order makes a client inactive, seen from `now`. */
export function inactiveBefore(now: Date): Date {
  return new Date(now.getTime() - INACTIVE_AFTER_DAYS * DAY_MS);
}

/**
 * Active: some order (Campo, not rejected; ERP, not cancelled; or the ERP's own last-purchase
 * date) in the last 30 days. Inactive: the latest is older, or the client never ordered
 * (no such order and no last-purchase date in the ERP).
 */
export function activityStatusOf(lastOrderAt: Date | null, now: Date): ActivityStatus {
  return lastOrderAt !== null && lastOrderAt.getTime() >= inactiveBefore(now).getTime() ? 'active' : 'inactive';
}

export const ZActivityStatus = z
  .enum(['active', 'inactive'])
  .describe(
    `active: latest order (Campo order not rejected, ERP order not cancelled, or the ERP's last-purchase date) within the last ${INACTIVE_AFTER_DAYS} days; inactive: older, or never ordered`,
  );
export type ActivityStatus = z.infer<typeof ZActivityStatus>;

export const ZFinancialStatus = z
  .enum(['ok', 'overdue', 'blocked'])
  .describe(
    'ok: nothing overdue; overdue: some receivable unpaid after its due date; blocked: blocked by hand in the ERP or some receivable more than 30 days overdue (a blocked client cannot receive a new order)',
  );
export type FinancialStatus = z.infer<typeof ZFinancialStatus>;

export const ZDocumentType = z
  .enum(['CPF', 'CNPJ'])
  .describe('CPF for an individual (11 digits), CNPJ for a company (14 characters)');
export type DocumentType = z.infer<typeof ZDocumentType>;

const INT32_MAX = 2_147_483_647;

export const ZClientIdParams = z.object({
  id: z.coerce.number().int().min(1).max(INT32_MAX).describe('Client id (the ERP client record, corrent.id_corrent)'),
});

export const ZClientListQuery = ZPageQuery.extend({
  q: z
    .string()
    .trim()
    .max(100)
    .optional()
    .describe(
      'Search words, each of which must match the legal name, the trade name, the city, or the CPF/CNPJ (with or without mask); case and accents are ignored',
    ),
  activityStatus: ZActivityStatus.optional().describe('Only clients with this activity status'),
  financialStatus: ZFinancialStatus.optional().describe('Only clients with this financial status'),
});
export type ClientListQuery = z.infer<typeof ZClientListQuery>;

export const ZClientSummary = z
  .object({
    id: z.number().int().describe('Client id (the ERP client record)'),
    name: z.string().describe('Legal name (razão social)'),
    tradeName: z.string().nullable().describe('Trade name (nome fantasia)'),
    document: z.string().describe('CPF or CNPJ, without mask'),
    documentType: ZDocumentType,
    city: z.string().nullable().describe('City'),
    uf: z.string().nullable().describe('State, two letters'),
    idPauta: z.number().int().nullable().describe('The client’s price list (pauta)'),
    activityStatus: ZActivityStatus,
    financialStatus: ZFinancialStatus,
    creditLimit: z
      .number()
      .nullable()
      .describe('Credit limit kept by Campo (not taken from the ERP); null when none was set'),
    lastOrderAt: z
      .string()
      .nullable()
      .describe('Latest order, Campo or ERP (ISO 8601); null when the client never ordered'),
    codVendedor: z.number().int().nullable().describe('Representative whose portfolio the client is in'),
  })
  .describe('A client of the portfolio');
export type ClientSummary = z.infer<typeof ZClientSummary>;

export const ZClientPage = pageOf(ZClientSummary, 'A page of clients, ordered by legal name');
export type ClientPage = z.infer<typeof ZClientPage>;

export const ZClientDetail = ZClientSummary.extend({
  address: z
    .object({
      street: z.string().nullable().describe('Street (logradouro)'),
      number: z.string().nullable().describe('Number'),
      complement: z.string().nullable().describe('Complement'),
      district: z.string().nullable().describe('District (bairro)'),
      city: z.string().nullable().describe('City'),
      uf: z.string().nullable().describe('State, two letters'),
      cep: z.string().nullable().describe('Postal code (CEP), 8 digits'),
    })
    .describe('Registered address, in parts'),
  deliveryAddress: z
    .string()
    .nullable()
    .describe('The address as one line (end_entrega): the default delivery address of a new order'),
  phone: z.string().nullable().describe('Phone'),
  email: z.string().nullable().describe('E-mail'),
  stateRegistration: z.string().nullable().describe('State registration (inscrição estadual), or ISENTO'),
  openAmount: z.number().describe('Receivables still open, in BRL'),
  overdueAmount: z.number().describe('Part of the open amount past its due date, in BRL'),
  maxDaysOverdue: z.number().int().describe('Days since the due date of the oldest overdue receivable; 0 when none'),
  registrationActive: z
    .boolean()
    .describe('Whether the ERP registration is active (the ERP’s flag; not the 30-day activity)'),
  registeredAt: z.string().nullable().describe('When the client was registered in the ERP (ISO 8601)'),
  credit: z
    .object({
      limit: z.number().describe('Credit limit kept by Campo, in BRL'),
      openReceivables: z.number().describe('Receivables still open in the ERP, in BRL'),
      openOrders: z.number().describe("The client's Campo orders pending approval or approved, in BRL"),
      available: z.number().describe('Limit less both open amounts (negative when beyond the limit), in BRL'),
    })
    .nullable()
    .describe('Available credit (docs/credit-and-flex.md); null when the client has no limit (no credit check)'),
}).describe('A client with address, contact and financial position');
export type ClientDetail = z.infer<typeof ZClientDetail>;

/** How many orders GET /clients/{id}/orders answers (spec: Limits). */
export const CLIENT_ORDERS_LIMIT = 10;

export const ZClientOrderStatus = z
  .enum(['pending_approval', 'approved', 'invoiced', 'rejected', 'cancelled'])
  .describe(
    'pending_approval, approved, invoiced, rejected (Campo orders); cancelled when the ERP cancelled the order. ERP orders that are open count as approved',
  );

export const ZClientOrder = z
  .object({
    source: z.enum(['campo', 'erp']).describe("'campo': placed through Campo; 'erp': placed in the ERP"),
    id: z.number().int().nullable().describe('Campo order id (GET /orders/{id}); null for an ERP order'),
    erpId: z.number().int().nullable().describe('ERP order id; null for a Campo order not yet approved'),
    number: z
      .number()
      .int()
      .nullable()
      .describe('Order number the user knows: Campo’s number (num_ped_sar) or the ERP’s number'),
    erpNumber: z.number().int().nullable().describe('ERP order number, once the order is in the ERP'),
    date: z.string().describe('When the order was placed (ISO 8601)'),
    status: ZClientOrderStatus,
    total: z.number().describe('Order total, in BRL'),
    codVendedor: z.number().int().nullable().describe('Representative of the order'),
  })
  .describe('One order of a client');
export type ClientOrder = z.infer<typeof ZClientOrder>;

export const ZClientOrders = z
  .object({
    items: z
      .array(ZClientOrder)
      .describe(`The client’s latest ${CLIENT_ORDERS_LIMIT} orders, Campo and ERP alike, newest first`),
  })
  .describe('Latest orders of a client');
export type ClientOrders = z.infer<typeof ZClientOrders>;

export const ZErpOrderParams = ZClientIdParams.extend({
  erpId: z.coerce.number().int().min(1).max(INT32_MAX).describe('ERP order id (pedidos_venda.id_pedido)'),
});

export const ZErpOrderLine = z
  .object({
    seq: z.number().int().describe('Line number'),
    idProduto: z.number().int().describe('Product id'),
    code: z.string().nullable().describe('Product code'),
    description: z.string().nullable().describe('Product description'),
    unit: z.string().nullable().describe('Sales unit'),
    quantity: z.number().describe('Quantity'),
    listPrice: z.number().nullable().describe('List price at order time, in BRL'),
    unitPrice: z.number().nullable().describe('Sold unit price, in BRL'),
    discountPct: z.number().nullable().describe('Line discount, percent'),
    total: z.number().nullable().describe('Line total, in BRL'),
  })
  .describe('One line of an ERP order');
export type ErpOrderLine = z.infer<typeof ZErpOrderLine>;

export const ZErpOrder = ZClientOrder.extend({
  idCliente: z.number().int().describe('Client id'),
  lines: z.array(ZErpOrderLine).describe('The order lines, by line number'),
}).describe('An order placed in the ERP (telesales, counter), with its lines');
export type ErpOrder = z.infer<typeof ZErpOrder>;

/** numeric(14,2) holds up to this. */
export const CREDIT_LIMIT_MAX = 999_999_999_999.99;

export const ZCreditLimitUpdate = z
  .object({
    creditLimit: z
      .number()
      .min(0)
      .max(CREDIT_LIMIT_MAX)
      .describe('New credit limit in BRL, 0 or more; stored rounded to cents'),
  })
  .strict()
  .describe('The client’s credit limit, kept by Campo');
export type CreditLimitUpdate = z.infer<typeof ZCreditLimitUpdate>;

// ---------------------------------------------------------------------------------------
// New clients registered in the field (POST /clients, collection cadastros). The server
// inserts into app.clientes_novos and trg_cliente_novo creates the ERP record.

export const UFS = [
  'AC',
  'AL',
  'AP',
  'AM',
  'BA',
  'CE',
  'DF',
  'ES',
  'GO',
  'MA',
  'MT',
  'MS',
  'MG',
  'PA',
  'PB',
  'PR',
  'PE',
  'PI',
  'RJ',
  'RN',
  'RS',
  'RO',
  'RR',
  'SC',
  'SP',
  'SE',
  'TO',
] as const;

// The bound counts characters (code points) of the trimmed text, as JSON Schema's maxLength
// does; zod's .max() would count UTF-16 units (an emoji twice), so the document gets it by meta.
const field = (max: number) =>
  z
    .string()
    .meta({ maxLength: max })
    .trim()
    .min(1, 'obrigatório')
    .refine((s) => Array.from(s).length <= max, `no máximo ${max} caracteres`);
const optionalField = (max: number) =>
  z
    .string()
    .meta({ maxLength: max })
    .trim()
    .refine((s) => Array.from(s).length <= max, `no máximo ${max} caracteres`)
    .transform((s) => (s === '' ? null : s))
    .nullable()
    .optional()
    .transform((s) => s ?? null);

export const ZNewClient = z
  .strictObject({
    id: z
      .uuid('identificador inválido')
      .max(36)
      .describe('UUID made by the device: registering again with it is idempotent'),
    razaoSocial: field(100).describe('Legal name (razão social); turned into LATIN1 text for the ERP'),
    nomeFantasia: optionalField(100).describe('Trade name; the legal name when absent'),
    documento: z
      .string()
      .max(30)
      .trim()
      .transform(normalizeDocument)
      .superRefine((v, ctx) => {
        // By shape first, so a typo in a check digit says so rather than "not a document".
        const kind = /^\d{11}$/.test(v) ? 'CPF' : /^[0-9A-Z]{12}\d{2}$/.test(v) ? 'CNPJ' : null;
        if (kind === null) {
          ctx.addIssue({ code: 'custom', message: 'informe um CPF (11 dígitos) ou um CNPJ (14 caracteres)' });
        } else if (kind === 'CPF' ? !isValidCpf(v) : !isValidCnpj(v)) {
          ctx.addIssue({ code: 'custom', message: `${kind} inválido: dígito verificador não confere` });
        }
      })
      .describe('CPF or CNPJ, masked or not; check digits verified (alphanumeric CNPJ accepted)'),
    inscricaoEstadual: z
      .string()
      .max(30)
      .trim()
      .toUpperCase()
      .refine((v) => v === 'ISENTO' || /^[0-9./-]{2,20}$/.test(v), 'informe a inscrição estadual (números) ou ISENTO')
      .describe('State registration (digits, masked or not) or ISENTO'),
    cep: z
      .string()
      .max(20)
      .trim()
      .transform((v) => v.replace(/[.\-\s]/g, ''))
      .refine((v) => /^\d{8}$/.test(v), 'CEP deve ter 8 dígitos')
      .describe('Postal code (CEP), 8 digits, masked or not'),
    endereco: field(100).describe('Street (logradouro)'),
    numero: optionalField(10).describe('Number; S/N when absent'),
    complemento: optionalField(60).describe('Complement'),
    bairro: field(60).describe('District (bairro)'),
    cidade: field(60).describe('City'),
    uf: z
      .string()
      .max(10)
      .trim()
      .toUpperCase()
      .refine((v): v is (typeof UFS)[number] => (UFS as readonly string[]).includes(v), 'UF desconhecida')
      .describe('State, two letters (one of the 27 UFs)'),
    telefone: optionalField(20)
      .refine((v) => v === null || /^\d{10,11}$/.test(v.replace(/[()\s.-]/g, '')), 'telefone com DDD: 10 ou 11 dígitos')
      .describe('Phone with area code'),
    email: z
      .email('e-mail inválido')
      .max(100)
      .nullable()
      .optional()
      .transform((v) => v ?? null)
      .describe('E-mail'),
    idPauta: z.number().int().positive().max(2_147_483_647).describe('Suggested price list (pauta) of the tenant'),
  })
  .describe('A client registered by a representative in the field');
export type NewClientInput = z.input<typeof ZNewClient>;
export type NewClient = z.output<typeof ZNewClient>;

export const ZNewClientResult = z
  .object({
    id: z.string().describe('The device’s id of the registration'),
    idCliente: z.number().int().describe('The ERP client created (corrent.id_corrent)'),
    razaoSocial: z.string().describe('Legal name as the ERP holds it'),
    documento: z.string().describe('CPF or CNPJ, without mask'),
    criadoEm: z.string().describe('When it was registered (ISO 8601)'),
  })
  .describe('A registered client, now in the ERP and in the representative’s portfolio');
export type NewClientResult = z.infer<typeof ZNewClientResult>;
