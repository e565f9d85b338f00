import { z } from 'zod';

/** Why a process is not ready: each names what the operator must do. */
export const HEALTH_REASONS = ['DATABASE_UNREACHABLE', 'SCHEMA_MISSING', 'SCHEMA_BEHIND'] as const;

export const ZHealth = z
  .object({
    status: z
      .enum(['ok', 'unavailable'])
      .describe("'ok' when this process can serve; 'unavailable' (HTTP 503) when it cannot, see reason"),
    reason: z
      .enum(HEALTH_REASONS)
      .optional()
      .describe(
        'Only when unavailable: DATABASE_UNREACHABLE (the database does not answer), SCHEMA_MISSING (`campo provision` never ran), SCHEMA_BEHIND (the database lacks migrations this build needs: run `campo provision`)',
      ),
    version: z.string().describe('Version of the Campo server build'),
    database: z
      .object({
        reachable: z.boolean().describe('Whether the ERP database answered a query just now'),
        schemaVersion: z
          .string()
          .nullable()
          .describe('Latest applied migration of the app schema, or null when `campo provision` has not run'),
        expectedSchemaVersion: z
          .string()
          .describe('Latest migration this build ships: the database must have it (or a later one) applied'),
      })
      .describe('State of the ERP database the server is attached to'),
  })
  .describe('Readiness: whether this process can serve requests now');
export type Health = z.infer<typeof ZHealth>;

export const ZLiveness = z
  .object({
    status: z.literal('ok').describe("Always 'ok': the process is running and its event loop answers"),
    version: z.string().describe('Version of the Campo server build'),
  })
  .describe('Liveness: the process runs (says nothing about the database)');
export type Liveness = z.infer<typeof ZLiveness>;
