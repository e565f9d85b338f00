import { z } from 'zod';

import { CLIENT_ERROR_MESSAGE_MAX, CLIENT_ERROR_STACK_MAX } from './client-error-limits.ts';

export * from './client-error-limits.ts';

/** An unhandled error or promise rejection the app saw, reported so operators see it in the logs. */
export const ZClientError = z
  .object({
    kind: z
      .enum(['error', 'unhandledrejection'])
      .describe("'error': an uncaught exception (window error event); 'unhandledrejection': a promise nobody handled"),
    message: z.string().min(1).max(CLIENT_ERROR_MESSAGE_MAX).describe('The error message'),
    stack: z.string().max(CLIENT_ERROR_STACK_MAX).optional().describe('The stack trace, when the browser gave one'),
    source: z.string().max(500).optional().describe('Script URL of an uncaught exception'),
    line: z
      .number()
      .int()
      .nonnegative()
      .max(10_000_000)
      .optional()
      .describe('Line of the uncaught exception in source'),
    column: z
      .number()
      .int()
      .nonnegative()
      .max(10_000_000)
      .optional()
      .describe('Column of the uncaught exception in source'),
    appVersion: z.string().min(1).max(50).describe('Version of the app build that failed'),
    page: z.string().max(500).describe('Path of the screen the app was on, e.g. /pedidos/12 (no query string)'),
  })
  .strict()
  .describe('An error the app could not handle');
export type ClientError = z.infer<typeof ZClientError>;
