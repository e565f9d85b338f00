import { ERRORS, type ErrorCode, type FieldError, type Problem } from '@campo/shared';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import type { DomainError } from '../errors.ts';

/**
 * The RFC 9457 answer for a domain error: the status and the title come from the catalogue
 * (shared/src/errors.ts), the rest from the error. `status` only for what the framework refused
 * with its own (HTTP_ERROR).
 */
export function problemResponse(c: Context, err: DomainError<ErrorCode>, status = err.status): Response {
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
