import type { FieldError, Problem } from '@campo/shared';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';

/** The members RFC 9457 (and Campo: code, requestId) gives a meaning; an extension may not reuse them. */
export const STANDARD_PROBLEM_MEMBERS = ['type', 'title', 'status', 'detail', 'instance', 'code', 'requestId'] as const;
type StandardMember = (typeof STANDARD_PROBLEM_MEMBERS)[number];

/**
 * Extension members of a problem. The type refuses the standard names at compile time (an
 * order's `status` once overwrote the HTTP status in the body: 409 said "approved"); name them
 * for what they are instead, e.g. `orderStatus`.
 */
export type ProblemExtra = Record<string, unknown> & { [K in StandardMember]?: never };

/** Thrown anywhere in a request to answer with an RFC 9457 problem. */
export class HttpProblem extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    readonly title: string,
    readonly detail?: string,
    readonly extra: ProblemExtra = {},
  ) {
    super(detail ?? title);
    // Also at run time, for extras built from untyped data.
    const shadowing = STANDARD_PROBLEM_MEMBERS.filter((m) => Object.hasOwn(extra, m));
    if (shadowing.length)
      throw new TypeError(`problem ${code}: extension members ${shadowing.join(', ')} are reserved`);
  }
}

export const problems = {
  notFound: (what = 'Recurso') => new HttpProblem(404, 'NOT_FOUND', 'Não encontrado', `${what} não encontrado.`),
  forbidden: (detail = 'Seu perfil não permite esta operação.') =>
    new HttpProblem(403, 'FORBIDDEN', 'Proibido', detail),
  unauthorized: (detail = 'Faça login para continuar.') =>
    new HttpProblem(401, 'UNAUTHORIZED', 'Não autenticado', detail),
  conflict: (code: string, detail: string, extra?: ProblemExtra) =>
    new HttpProblem(409, code, 'Conflito', detail, extra),
};

export function problemResponse(c: Context, problem: HttpProblem): Response {
  const requestId = c.get('requestId' as never) as string | undefined;
  // Extensions first, the standard members last: none of them can be shadowed.
  const body: Problem = {
    ...problem.extra,
    type: `urn:campo:problem:${problem.code.toLowerCase()}`,
    title: problem.title,
    status: problem.status,
    code: problem.code,
    ...(problem.detail ? { detail: problem.detail } : {}),
    instance: c.req.path,
    ...(requestId ? { requestId } : {}),
  };
  const retry = problem.extra.retryAfterSeconds;
  return c.body(JSON.stringify(body), problem.status, {
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

export function validationProblem(errors: FieldError[]): HttpProblem {
  return new HttpProblem(
    400,
    'VALIDATION_FAILED',
    'Dados inválidos',
    errors.length === 1 ? `Campo inválido: ${errors[0]?.path}.` : `${errors.length} campos inválidos.`,
    { errors },
  );
}
