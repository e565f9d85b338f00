import { z } from 'zod';

export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

export const ZMonth = z
  .string()
  .max(7)
  .regex(MONTH_PATTERN, 'use o formato AAAA-MM')
  .describe('A calendar month, YYYY-MM');

export const ZRepTarget = z
  .object({
    codVendedor: z.number().int().describe('Representative (cod_vendedor)'),
    nome: z.string().describe('Representative name, from the ERP'),
    codSupervisor: z.number().int().nullable().describe('Supervisor of the representative, from the ERP'),
    valorMeta: z.number().nullable().describe('Monthly billing target in BRL; null when not set for the month'),
  })
  .describe("A representative's target for the month");

export const ZTargetsPage = z
  .object({
    mes: ZMonth,
    items: z.array(ZRepTarget).describe('Every active representative in scope, set or not, by supervisor then name'),
  })
  .describe('The targets of a month');
export type TargetsPage = z.infer<typeof ZTargetsPage>;

export const ZTargetsUpdate = z
  .object({
    metas: z
      .array(
        z
          .object({
            codVendedor: z.number().int().positive().max(2_147_483_647).describe('Representative (cod_vendedor)'),
            valorMeta: z
              .number()
              .min(0)
              .max(1_000_000_000)
              .multipleOf(0.01)
              .nullable()
              .describe('Target in BRL with cents; null removes the target of the month'),
          })
          .strict()
          .describe('One representative’s target'),
      )
      .min(1)
      .max(500)
      .refine((m) => new Set(m.map((x) => x.codVendedor)).size === m.length, 'um representante aparece duas vezes')
      .describe('The targets to set, 1 to 500, each representative once'),
  })
  .strict()
  .describe('Targets to set for the month');
export type TargetsUpdate = z.infer<typeof ZTargetsUpdate>;

export const ZTargetsCopyResult = z
  .object({
    mes: ZMonth,
    copiadas: z.number().int().describe('Targets copied from the previous month'),
    mantidas: z.number().int().describe('Representatives that already had a target this month, left as they were'),
  })
  .describe('What copying the previous month did');
