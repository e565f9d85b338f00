import type { FieldError, Problem } from '@campo/shared';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';

/** Thrown anywhere in a request to answer with an RFC 9457 problem. */
export class HttpProblem extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    readonly title: string,
    readonly detail?: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail ?? title);
  }
}

export const problems = {
  notFound: (what = 'Recurso') => new HttpProblem(404, 'NOT_FOUND', 'Não encontrado', `${what} não encontrado.`),
  forbidden: (detail = 'Seu perfil não permite esta operação.') =>
    new HttpProblem(403, 'FORBIDDEN', 'Proibido', detail),
  unauthorized: (detail = 'Faça login para continuar.') =>
    new HttpProblem(401, 'UNAUTHORIZED', 'Não autenticado', detail),
  conflict: (code: string, detail: string, extra?: Record<string, unknown>) =>
    new HttpProblem(409, code, 'Conflito', detail, extra),
};

export function problemResponse(c: Context, problem: HttpProblem): Response {
  const body: Problem = {
    type: `urn:campo:problem:${problem.code.toLowerCase()}`,
    title: problem.title,
    status: problem.status,
    code: problem.code,
    ...(problem.detail ? { detail: problem.detail } : {}),
    ...problem.extra,
    instance: c.req.path,
  };
  const requestId = c.get('requestId' as never) as string | undefined;
  if (requestId) body.requestId = requestId;
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
