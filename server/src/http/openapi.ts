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
      // The app's ids are PostgreSQL bigints, read as JavaScript numbers: zod's int() already
      // refuses anything past the safe range; stated so the document says it.
      .max(Number.MAX_SAFE_INTEGER)
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

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const bound = (o: Record<string, unknown>, inclusive: string, exclusive: string) => {
  const v = o[inclusive] ?? o[exclusive];
  return typeof v === 'number' ? v : undefined;
};

/**
 * Gives every bounded integer schema of the document its `format`, derived from the bounds zod
 * enforces: int32 when they fit PostgreSQL's integer, int64 otherwise. Derived rather than
 * written beside each field, so the format can never disagree with what the server checks.
 * An integer without both bounds gets none (and the OpenAPI lint, test/openapi, says so).
 */
export function withIntegerFormats<T>(doc: T): T {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    const integer = o.type === 'integer' || (Array.isArray(o.type) && o.type.includes('integer'));
    if (integer && o.format === undefined) {
      const lo = bound(o, 'minimum', 'exclusiveMinimum');
      const hi = bound(o, 'maximum', 'exclusiveMaximum');
      if (lo !== undefined && hi !== undefined) o.format = lo >= INT32_MIN && hi <= INT32_MAX ? 'int32' : 'int64';
    }
    for (const value of Object.values(o)) visit(value);
  };
  visit(doc);
  return doc;
}
