import { ERRORS, type ErrorCode, type FieldError, type Problem } from '@campo/shared';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import { DomainError, forbidden, notFound, type ProblemExtra, unauthorized, validationFailed } from '../errors.ts';

export { type ProblemExtra, STANDARD_PROBLEM_MEMBERS } from '../errors.ts';

/**
 * The former HTTP-shaped error: kept only until every thrower names just a code (DomainError).
 * The status it is given must be the catalogue's; its title is the catalogue's.
 */
export class HttpProblem<C extends ErrorCode = ErrorCode> extends DomainError<C> {
  constructor(status: number, code: C, _title: string, detail?: string, extra: ProblemExtra = {}) {
    super(code, detail ?? ERRORS[code].title, extra, status as never);
  }
}

export const problems = {
  notFound,
  forbidden,
  unauthorized,
  conflict: <C extends ErrorCode>(code: C, detail: string, extra?: ProblemExtra) =>
    new DomainError(code, detail, extra),
};

/**
 * The RFC 9457 answer for a domain error: the status and the title come from the catalogue
 * (shared/src/errors.ts), the rest from the error. `status` only for what the framework refused
 * with its own (HTTP_ERROR).
 */
export function problemResponse(c: Context, err: DomainError, status = err.status): Response {
  const requestId = c.get('requestId' as never) as string | undefined;
  // Extensions first, the standard members last: none of them can be shadowed.
  const body: Problem = {
    ...err.extra,
    type: `urn:campo:problem:${err.code.toLowerCase()}`,
    title: ERRORS[err.code].title,
    status,
    code: err.code,
    ...(err.detail ? { detail: err.detail } : {}),
    instance: c.req.path,
    ...(requestId ? { requestId } : {}),
  };
  const retry = err.extra.retryAfterSeconds;
  return c.body(JSON.stringify(body), status as ContentfulStatusCode, {
    'Content-Type': 'application/problem+json; charset=utf-8',
    ...(typeof retry === 'number' ? { 'Retry-After': String(retry) } : {}),
  });
}

/** Every issue of a failed validation, each with where it is, so a form can mark every bad field. */
export function fieldErrors(error: ZodError, where: string): FieldError[] {
  return error.issues.map((issue) => ({
    path: [where, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
}

export const validationProblem = validationFailed;
