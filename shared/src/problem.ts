import { z } from 'zod';
import { ZErrorCode } from './errors.ts';

export const ZFieldError = z
  .object({
    path: z
      .string()
      .describe("Where the bad value is: 'body.items.0.discountPercent', 'query.limit', 'header.idempotency-key'"),
    message: z.string().describe('What is wrong with it, in pt-BR'),
  })
  .describe('One invalid field');

/** RFC 9457 problem details, with a stable machine `code`. */
export const ZProblem = z
  .object({
    type: z.string().describe('URI naming the problem type: urn:campo:problem:<code>'),
    title: z.string().describe('Short summary of the problem type, in pt-BR'),
    status: z.number().int().describe('The HTTP status code'),
    code: ZErrorCode,
    detail: z.string().optional().describe('What happened in this occurrence, in pt-BR'),
    instance: z.string().optional().describe('The request path'),
    requestId: z.string().optional().describe('Id of the request, also in the X-Request-Id header and the server logs'),
    errors: z.array(ZFieldError).optional().describe('Every invalid field, for validation problems'),
  })
  .catchall(z.unknown())
  .describe('An error, as application/problem+json (RFC 9457)');
export type Problem = z.infer<typeof ZProblem>;
export type FieldError = z.infer<typeof ZFieldError>;
