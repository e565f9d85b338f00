import { type ErrorCode, errorStatuses, ZProblem } from '@campo/shared';
import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from './env.ts';
import { validationHook } from './middleware.ts';

/** A domain's sub-app: validation failures answer as problems, like every other error. */
export function router() {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}

const PROBLEM_REF = '#/components/schemas/Problem';

/**
 * The schema of one route's problem answer for one status: a Problem whose `code` is one of the
 * codes the route can answer with there. allOf with the shared Problem, so a generated client
 * types `code` as exactly those codes (openapi-typescript intersects the two).
 */
export const problemSchema = (codes: readonly ErrorCode[]) => ({
  allOf: [
    { $ref: PROBLEM_REF },
    {
      type: 'object' as const,
      properties: { code: { type: 'string' as const, enum: [...codes] } },
      required: ['code'],
    },
  ],
});

/** A documented error response (application/problem+json) and every code it may carry. */
export const problem = (description: string, code: ErrorCode, ...more: ErrorCode[]) => ({
  description,
  content: { 'application/problem+json': { schema: problemSchema([code, ...more]) } },
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

/** Error responses most routes share, for the OpenAPI document (withProblems adds the codes any request may get). */
export const errorResponses = {
  400: problem('Invalid input: every bad field is listed in `errors`', 'VALIDATION_FAILED'),
  401: problem('Missing, expired or revoked token', 'UNAUTHORIZED'),
  403: problem('The role may not do this', 'FORBIDDEN'),
  404: problem('Not found, or not in the caller’s scope', 'NOT_FOUND'),
} as const;

/** 400 with the route's own codes besides VALIDATION_FAILED. */
export const badRequest = (...codes: ErrorCode[]) =>
  problem('Invalid input: every bad field is listed in `errors`', 'VALIDATION_FAILED', ...codes);

type Operation = {
  parameters?: unknown[];
  requestBody?: { content?: Record<string, unknown> };
  security?: unknown[];
  responses: Record<string, { description: string; content?: Record<string, { schema?: unknown }> }>;
};
type ProblemSchema = { allOf?: { properties?: { code?: { enum?: ErrorCode[] } } }[] };

const DEFAULT_DESCRIPTION: Record<string, string> = {
  400: 'Invalid input: every bad field is listed in `errors`',
  401: 'Missing, expired or revoked token',
  413: 'The body is larger than the route accepts',
  500: 'Unexpected error: logged with the request id, which the answer carries',
  503: 'The database is unavailable (restarting, failing over): retry after Retry-After seconds',
};

/** The codes the document lists for one operation's answer with this status (undefined: none documented). */
export function documentedCodes(doc: unknown, path: string, method: string, status: number): string[] | undefined {
  const op = (doc as { paths?: Record<string, Record<string, Operation>> }).paths?.[path]?.[method.toLowerCase()];
  const schema = op?.responses[String(status)]?.content?.['application/problem+json']?.schema as
    | ProblemSchema
    | undefined;
  return schema?.allOf?.[1]?.properties?.code?.enum;
}

/**
 * Names the Problem schema once in components, and adds to every operation the codes the
 * middleware can answer for any request of that shape (docs/errors.md): a NUL in the URL, an
 * unexpected error, a missing token on a secured route, an unparsable or oversized JSON body,
 * the database unavailable.
 * A route lists only the codes its own handler and services throw.
 */
export function withProblems<T>(document: T): T {
  // A copy without shared objects: the routes share their response objects (errorResponses).
  const doc = JSON.parse(JSON.stringify(document)) as T;
  const d = doc as { paths?: Record<string, Record<string, Operation>>; components?: { schemas?: object } };
  const { $schema: _, ...problemJson } = z.toJSONSchema(ZProblem, { io: 'output' });
  d.components = { ...d.components, schemas: { ...d.components?.schemas, Problem: problemJson } };
  for (const [path, operations] of Object.entries(d.paths ?? {})) {
    for (const [method, op] of Object.entries(operations)) {
      const add = (status: number, ...codes: ErrorCode[]) => {
        const response = op.responses[String(status)] ?? {
          description: DEFAULT_DESCRIPTION[status] ?? 'Error',
          content: { 'application/problem+json': { schema: problemSchema([]) } },
        };
        op.responses[String(status)] = response;
        const schema = response.content?.['application/problem+json']?.schema as ProblemSchema | undefined;
        const listed = schema?.allOf?.[1]?.properties?.code?.enum;
        if (!listed)
          throw new Error(`${method.toUpperCase()} ${path} ${status}: an error response not made by problem()`);
        for (const code of codes) if (!listed.includes(code)) listed.push(code);
      };
      const json = op.requestBody?.content?.['application/json'] !== undefined;
      add(400, 'INVALID_CHARACTER');
      if (op.parameters?.length || op.requestBody) add(400, 'VALIDATION_FAILED', 'UNSUPPORTED_CHARACTER');
      if (json) add(400, 'MALFORMED_JSON');
      if (json) add(413, 'PAYLOAD_TOO_LARGE');
      if (op.security?.length) add(401, 'UNAUTHORIZED');
      add(500, 'INTERNAL_ERROR');
      // Every route that reads the database: those behind a token (the user is read on every
      // request) and the logins. Not the probes, the document or the error reports.
      if (op.security?.length || path.startsWith('/auth/')) add(503, 'DATABASE_UNAVAILABLE');
      // Every listed code must answer with the status it is listed under.
      for (const [status, response] of Object.entries(op.responses)) {
        const schema = response.content?.['application/problem+json']?.schema as ProblemSchema | undefined;
        for (const code of schema?.allOf?.[1]?.properties?.code?.enum ?? [])
          if (!errorStatuses(code).includes(Number(status)))
            throw new Error(`${method.toUpperCase()} ${path}: ${code} is listed under ${status}, not its status`);
      }
    }
  }
  return doc;
}

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
