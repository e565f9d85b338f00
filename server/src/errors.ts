import {
  type Code,
  type ErrorCode,
  type ErrorStatus,
  errorStatus,
  errorStatuses,
  type FieldError,
  isCode,
  isErrorCode,
} from '@campo/shared';

/** The members RFC 9457 (and Campo: code, requestId) gives a meaning; an extension may not reuse them. */
export const STANDARD_PROBLEM_MEMBERS = ['type', 'title', 'status', 'detail', 'instance', 'code', 'requestId'] as const;
type StandardMember = (typeof STANDARD_PROBLEM_MEMBERS)[number];

/**
 * Extension members of a problem. The type refuses the standard names at compile time (an
 * order's `status` once overwrote the HTTP status in the body: 409 said "approved"); name them
 * for what they are instead, e.g. `orderStatus`. `errors` lists every invalid field.
 */
export type ProblemExtra = Record<string, unknown> & { [K in StandardMember]?: never } & { errors?: FieldError[] };

/**
 * What a service throws when a rule refuses a request: a code of the shared catalogue
 * (shared/src/errors.ts), what happened in pt-BR, and any extension members. Services never
 * pick an HTTP status: the catalogue maps the code to one, and server/src/http/problem.ts
 * renders the RFC 9457 answer.
 *
 * A reason code (REASON_CODES: `USER_EXISTS`) is a refusal its caller words for its own
 * audience (the `campo user` CLI prints it, /usuarios answers LOGIN_UNAVAILABLE); one that
 * reaches the HTTP edge untranslated is a bug, answered 500 (`isProblem`).
 */
export class DomainError<C extends Code = Code> extends Error {
  /** The HTTP status the catalogue gives the code (or the one named, for a code with several). */
  readonly status: number;

  constructor(
    readonly code: C,
    readonly detail: string,
    readonly extra: ProblemExtra = {},
    status?: C extends ErrorCode ? ErrorStatus<C> : never,
  ) {
    super(detail);
    const named = status as number | undefined;
    this.name = 'DomainError';
    // Also at run time: codes and extras may come from untyped data.
    if (!isCode(code)) throw new TypeError(`problem ${code}: not in the error catalogue`);
    if (named !== undefined && !errorStatuses(code as ErrorCode).includes(named))
      throw new TypeError(`problem ${code}: status ${named} is not one of the catalogue's`);
    const shadowing = STANDARD_PROBLEM_MEMBERS.filter((m) => Object.hasOwn(extra, m));
    if (shadowing.length)
      throw new TypeError(`problem ${code}: extension members ${shadowing.join(', ')} are reserved`);
    this.status = named ?? (isErrorCode(code) ? errorStatus(code) : 500);
  }

  /** Whether the code is a problem's (ERRORS), which the HTTP edge answers with. */
  isProblem(): this is DomainError<ErrorCode> {
    return isErrorCode(this.code);
  }
}

export const notFound = (what = 'Recurso') => new DomainError('NOT_FOUND', `${what} não encontrado.`);

export const forbidden = (detail = 'Seu perfil não permite esta operação.') => new DomainError('FORBIDDEN', detail);

export const unauthorized = (detail = 'Faça login para continuar.') => new DomainError('UNAUTHORIZED', detail);

/** Input the contract could not refuse by itself (it needs the database, or several fields at once). */
export function validationFailed(errors: FieldError[]): DomainError<'VALIDATION_FAILED'> {
  return new DomainError(
    'VALIDATION_FAILED',
    errors.length === 1 ? `Campo inválido: ${errors[0]?.path}.` : `${errors.length} campos inválidos.`,
    { errors },
  );
}
