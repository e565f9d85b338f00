import { ZProblem } from '@campo/shared';
import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from './env.ts';
import { validationHook } from './middleware.ts';

/** A domain's sub-app: validation failures answer as problems, like every other error. */
export function router() {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}

/** A documented error response (application/problem+json). */
export const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ZProblem } },
});

/** The `{id}` path parameter of routes on one numeric object. */
export const idParam = (description: string) =>
  z.object({
    id: z.coerce
      .number()
      .int()
      .positive()
      .describe(description)
      .openapi({ param: { name: 'id', in: 'path' } }),
  });

/** Error responses most routes share, for the OpenAPI document. */
export const errorResponses = {
  400: problem('Invalid input: every bad field is listed in `errors`'),
  401: problem('Missing, expired or revoked token'),
  403: problem('The role may not do this'),
  404: problem('Not found, or not in the caller’s scope'),
} as const;

export const json = <T>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

export const bearer = [{ bearerAuth: [] }];
