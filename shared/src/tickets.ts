// SAC tickets: the contracts of the representative routes (/chamados) and the company routes
// (/ger/chamados), and the state rules both sides share.
//
// States and transitions (who → next state):
//   create (representative)                      → aberto
//   reply by the company, from aberto|respondido → respondido
//   reply by the representative, from aberto|respondido → aberto
//   resolve (company), from aberto|respondido    → resolvido
//   cancel (representative), from aberto|respondido → cancelado
//   anything on resolvido or cancelado           → 409 TICKET_CLOSED
import { z } from 'zod';
import { ZIsoDate } from './dates.ts';

export const TICKET_STATUSES = ['aberto', 'respondido', 'resolvido', 'cancelado'] as const;
export const ZTicketStatus = z
  .enum(TICKET_STATUSES)
  .describe(
    'aberto: waiting for the company; respondido: the company answered, waiting for the representative; resolvido and cancelado are final',
  );
export type TicketStatus = z.infer<typeof ZTicketStatus>;

export type TicketAction = 'repReply' | 'companyReply' | 'resolve' | 'cancel';

/** The state a ticket moves to, or null when the ticket is closed (resolvido or cancelado). */
export function ticketTransition(from: TicketStatus, action: TicketAction): TicketStatus | null {
  if (from === 'resolvido' || from === 'cancelado') return null;
  switch (action) {
    case 'repReply':
      return 'aberto';
    case 'companyReply':
      return 'respondido';
    case 'resolve':
      return 'resolvido';
    case 'cancel':
      return 'cancelado';
  }
}

export const TICKET_SUBJECT_MAX = 200;
export const TICKET_MESSAGE_MAX = 4000;

// The bound counts characters (code points) of the trimmed text, as JSON Schema's maxLength
// does; zod's .max() would count UTF-16 units (an emoji twice), so the document gets it by meta.
const text = (max: number) =>
  z
    .string()
    .meta({ maxLength: max })
    .trim()
    .min(1, 'não pode ficar em branco')
    .refine((s) => Array.from(s).length <= max, `no máximo ${max} caracteres`);

export const ZTicketCreate = z
  .object({
    idPedido: z
      .number()
      .int()
      .positive()
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .describe('A Campo order of the representative'),
    numPedErp: z
      .number()
      .int()
      .positive()
      .max(2_147_483_647)
      .optional()
      .describe('Number (num_pedido) of a historical ERP order of the representative, as in vw_sitpedido'),
    assunto: text(TICKET_SUBJECT_MAX).describe(`Subject, up to ${TICKET_SUBJECT_MAX} characters; emoji allowed`),
    mensagem: text(TICKET_MESSAGE_MAX).describe(
      `The first message, up to ${TICKET_MESSAGE_MAX} characters; kept exactly as typed, emoji included`,
    ),
  })
  .strict()
  .refine((v) => (v.idPedido === undefined) !== (v.numPedErp === undefined), {
    message: 'informe idPedido (pedido do Campo) ou numPedErp (pedido do ERP), um dos dois',
    path: ['idPedido'],
  })
  .describe('A new ticket about one order: a Campo order (idPedido) or an ERP order (numPedErp)');
export type TicketCreate = z.infer<typeof ZTicketCreate>;

export const ZTicketReply = z
  .object({
    texto: text(TICKET_MESSAGE_MAX).describe(
      `The message, up to ${TICKET_MESSAGE_MAX} characters; kept exactly as typed, emoji included`,
    ),
  })
  .strict()
  .describe('A reply in the ticket thread');
export type TicketReply = z.infer<typeof ZTicketReply>;

export const ZTicketAuthorType = z
  .enum(['representante', 'empresa'])
  .describe('Who wrote: the representative or the company (manager or admin)');

export const ZTicketMessage = z
  .object({
    id: z.number().int().describe('Message id'),
    autorTipo: ZTicketAuthorType,
    autorNome: z.string().describe('Name of the user who wrote it'),
    texto: z.string().describe('The text exactly as typed'),
    criadoEm: z.string().describe('When it was written (ISO 8601)'),
  })
  .describe('A message of a ticket');
export type TicketMessage = z.infer<typeof ZTicketMessage>;

export const ZTicketSummary = z
  .object({
    id: z.number().int().describe('Ticket id'),
    codVendedor: z.number().int().describe('Representative who opened it'),
    idPedido: z.number().int().nullable().describe('The Campo order, when the ticket is about one'),
    numPedSar: z.number().int().nullable().describe("The Campo order's number"),
    numPedErp: z.number().int().nullable().describe('The ERP order number, when the ticket is about one'),
    idCliente: z.number().int().nullable().describe("The order's client"),
    nomeCliente: z.string().describe("The client's name, copied from the order"),
    assunto: z.string().describe('Subject, exactly as typed'),
    status: ZTicketStatus,
    criadoEm: z.string().describe('Opened at (ISO 8601)'),
    atualizadoEm: z.string().describe('Last message or state change (ISO 8601)'),
  })
  .describe('A ticket in a list');
export type TicketSummary = z.infer<typeof ZTicketSummary>;

export const ZTicket = ZTicketSummary.extend({
  mensagens: z.array(ZTicketMessage).describe('The thread, oldest first'),
}).describe('A ticket with its thread');
export type Ticket = z.infer<typeof ZTicket>;

const statusFilter = z
  .union([ZTicketStatus, z.array(ZTicketStatus).max(ZTicketStatus.options.length)])
  .optional()
  .transform((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]))
  .describe('Only these statuses (repeat the parameter for several)');

export const ZTicketListQuery = z.object({
  status: statusFilter,
  page: z.coerce.number().int().min(1).max(1_000_000).default(1).describe('Page, from 1'),
  pageSize: z.coerce.number().int().min(1).max(100).default(50).describe('Tickets per page, 1 to 100'),
});

export const ZCompanyTicketListQuery = ZTicketListQuery.extend({
  codVendedor: z.coerce.number().int().positive().max(2_147_483_647).optional().describe('Only this representative'),
  idCliente: z.coerce.number().int().positive().max(2_147_483_647).optional().describe('Only this client'),
  cliente: z.string().trim().min(1).max(100).optional().describe('Client name contains this (case-insensitive)'),
  dataInicio: ZIsoDate.optional().describe('Opened on or after this day (São Paulo)'),
  dataFim: ZIsoDate.optional().describe('Opened on or before this day (São Paulo)'),
});
