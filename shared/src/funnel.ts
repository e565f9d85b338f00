// Sales funnel (funil): the contracts of /funil. One opportunity is addressed by its id in the
// path (PATCH /funil/{id}, DELETE /funil/{id}); the id is a UUID the device makes, so an
// opportunity can be created offline and POSTed again safely (idempotent by id).
//
// Conflict rule (shared with replication): PATCH may carry baseAtualizadoEm, the atualizadoEm
// the device last saw. When it differs from the server's, the opportunity changed meanwhile
// and the PATCH is refused with 409 OPPORTUNITY_CONFLICT carrying the current version; the
// device merges and retries. Without baseAtualizadoEm the last writer wins (fields not sent
// are kept). atualizadoEm is the server's clock, in milliseconds.
import { z } from 'zod';
import { ZIsoDate } from './dates.ts';

export const FUNNEL_STAGES = ['lead', 'proposta', 'negociacao', 'ganho', 'perdido'] as const;
export const ZFunnelStage = z.enum(FUNNEL_STAGES).describe('Stage: lead, proposta, negociacao, ganho or perdido');
export type FunnelStage = z.infer<typeof ZFunnelStage>;

// The bound counts characters (code points) of the trimmed text, as JSON Schema's maxLength
// does; zod's .max() would count UTF-16 units (an emoji twice), so the document gets it by meta.
const text = (max: number) =>
  z
    .string()
    .meta({ maxLength: max })
    .trim()
    .min(1, 'não pode ficar em branco')
    .refine((s) => Array.from(s).length <= max, `no máximo ${max} caracteres`);

const fields = {
  estagio: ZFunnelStage,
  idCliente: z
    .number()
    .int()
    .positive()
    .max(2_147_483_647)
    .nullable()
    .describe("A client of the representative's portfolio; null for a free prospect"),
  nomeProspect: text(200)
    .nullable()
    .describe('Free prospect name (when no client); kept exactly as typed, emoji included'),
  empresaProspect: text(200).nullable().describe('Free prospect company; kept exactly as typed'),
  idPedido: z
    .number()
    .int()
    .positive()
    .max(Number.MAX_SAFE_INTEGER)
    .nullable()
    .describe("An order of the representative's own"),
  valor: z.number().min(0).max(999_999_999_999).multipleOf(0.01).nullable().describe('Expected value (BRL)'),
  previsaoFechamento: ZIsoDate.nullable().describe('Expected closing day'),
  observacoes: text(4000).nullable().describe('Notes; kept exactly as typed, emoji included'),
  motivoPerda: text(500).nullable().describe('Why it was lost; required when estagio is perdido'),
};

function lostNeedsReason(v: { estagio?: FunnelStage; motivoPerda?: string | null }, ctx: z.RefinementCtx) {
  if (v.estagio === 'perdido' && (v.motivoPerda === undefined || v.motivoPerda === null)) {
    ctx.addIssue({ code: 'custom', path: ['motivoPerda'], message: 'informe o motivo da perda' });
  }
}

export const ZOpportunityCreate = z
  .object({
    id: z.uuid().max(36).describe('UUID made by the device; POSTing the same opportunity again is idempotent'),
    estagio: fields.estagio.default('lead'),
    idCliente: fields.idCliente.optional(),
    nomeProspect: fields.nomeProspect.optional(),
    empresaProspect: fields.empresaProspect.optional(),
    idPedido: fields.idPedido.optional(),
    valor: fields.valor.optional(),
    previsaoFechamento: fields.previsaoFechamento.optional(),
    observacoes: fields.observacoes.optional(),
    motivoPerda: fields.motivoPerda.optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    lostNeedsReason(v, ctx);
    if ((v.idCliente ?? null) === null && (v.nomeProspect ?? null) === null) {
      ctx.addIssue({ code: 'custom', path: ['nomeProspect'], message: 'informe idCliente ou nomeProspect' });
    }
  })
  .describe('A new opportunity: a client of the portfolio (idCliente) or a free prospect (nomeProspect)');
export type OpportunityCreate = z.infer<typeof ZOpportunityCreate>;

export const ZOpportunityPatch = z
  .object({
    estagio: fields.estagio.optional(),
    idCliente: fields.idCliente.optional(),
    nomeProspect: fields.nomeProspect.optional(),
    empresaProspect: fields.empresaProspect.optional(),
    idPedido: fields.idPedido.optional(),
    valor: fields.valor.optional(),
    previsaoFechamento: fields.previsaoFechamento.optional(),
    observacoes: fields.observacoes.optional(),
    motivoPerda: fields.motivoPerda.optional(),
    baseAtualizadoEm: z.iso
      .datetime({ offset: true })
      .max(40)
      .optional()
      .describe('The atualizadoEm this change was based on; a different current one answers 409 OPPORTUNITY_CONFLICT'),
  })
  .strict()
  .describe('The fields to change; absent fields are kept, null clears an optional field');
export type OpportunityPatch = z.infer<typeof ZOpportunityPatch>;

export const ZOpportunity = z
  .object({
    id: z.string().describe('UUID'),
    estagio: ZFunnelStage,
    idCliente: z.number().int().nullable().describe('Client of the portfolio, or null'),
    nomeCliente: z.string().nullable().describe("The client's name (from the ERP), when idCliente is set"),
    nomeProspect: z.string().nullable().describe('Free prospect name, exactly as typed'),
    empresaProspect: z.string().nullable().describe('Free prospect company, exactly as typed'),
    idPedido: z.number().int().nullable().describe('Linked order'),
    valor: z.number().nullable().describe('Expected value (BRL)'),
    previsaoFechamento: z.string().nullable().describe('Expected closing day (YYYY-MM-DD)'),
    observacoes: z.string().nullable().describe('Notes, exactly as typed'),
    motivoPerda: z.string().nullable().describe('Why it was lost'),
    criadoEm: z.string().describe('Created at (ISO 8601)'),
    atualizadoEm: z
      .string()
      .describe('Last change, server time (ISO 8601, milliseconds); send it back as baseAtualizadoEm'),
  })
  .describe('An opportunity of the funnel');
export type Opportunity = z.infer<typeof ZOpportunity>;

export const ZFunnelListQuery = z.object({
  estagio: z
    .union([ZFunnelStage, z.array(ZFunnelStage).max(FUNNEL_STAGES.length)])
    .optional()
    .transform((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]))
    .describe('Only these stages (repeat the parameter for several)'),
});
