import { z } from 'zod';

export const ZHealth = z
  .object({
    status: z
      .enum(['ok', 'unavailable'])
      .describe("'ok' when the database answers; 'unavailable' (HTTP 503) when it does not"),
    version: z.string().describe('Version of the Campo server build'),
    database: z
      .object({
        reachable: z.boolean().describe('Whether the ERP database answered a query just now'),
        schemaVersion: z
          .string()
          .nullable()
          .describe('Latest applied migration of the app schema, or null when `campo provision` has not run'),
      })
      .describe('State of the ERP database the server is attached to'),
  })
  .describe('Liveness and readiness of the server');
export type Health = z.infer<typeof ZHealth>;
