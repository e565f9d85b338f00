import type { FieldError, Problem } from '@campo/shared';
// The subpath, not the package index: the index pulls every zod contract into the bundle.
import { API_BASE } from '@campo/shared/api';

/** URL of an API route on the server that serves this app. */
export function apiUrl(path: string): string {
  return `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
}

/**
 * A failed API call. Problems (RFC 9457) keep their stable `code`; a request that never
 * reached the server has status 0 and code NETWORK_ERROR, so screens can tell "offline"
 * from "refused".
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string | undefined;
  readonly errors: FieldError[];
  readonly problem: Problem | undefined;

  constructor(status: number, code: string, title: string, detail?: string, problem?: Problem) {
    super(detail ?? title);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.title = title;
    this.detail = detail;
    this.errors = problem?.errors ?? [];
    this.problem = problem;
  }
}

interface ApiAuth {
  /** The bearer token to send, or null when logged out. */
  token(): string | null;
  /** Called when the server says the token we sent is no longer good (expired or revoked). */
  onRejected(): void;
}

let auth: ApiAuth = { token: () => null, onRejected: () => undefined };

/** The token of the session, for the rare caller that does not go through api() (error reports). */
export function currentToken(): string | null {
  return auth.token();
}

/** The session module plugs itself in here; api.ts must not import it (it imports us). */
export function setApiAuth(next: ApiAuth): void {
  auth = next;
}

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

async function toApiError(res: Response): Promise<ApiError> {
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      const p = (await res.json()) as Partial<Problem>;
      if (typeof p.code === 'string') {
        return new ApiError(res.status, p.code, p.title ?? res.statusText, p.detail, p as Problem);
      }
    } catch {
      // A broken body falls through to the generic error below.
    }
  }
  return new ApiError(res.status, `HTTP_${res.status}`, 'Erro no servidor', `O servidor respondeu ${res.status}.`);
}

/** Calls the API: JSON in, JSON out, the bearer token added, problems thrown as ApiError. */
export async function api<T>(path: string, req: ApiRequest = {}): Promise<T> {
  const token = auth.token();
  const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
  if (token) headers.authorization = `Bearer ${token}`;
  if (req.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(apiUrl(path), {
      method: req.method ?? (req.body === undefined ? 'GET' : 'POST'),
      headers,
      ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(
      0,
      'NETWORK_ERROR',
      'Sem conexão',
      'Não foi possível falar com o servidor. Verifique a conexão.',
    );
  }
  if (!res.ok) {
    const error = await toApiError(res);
    // Only a token we sent can be revoked: a failed login (INVALID_CREDENTIALS) is a 401 too.
    if (token && isRejectedToken(error)) auth.onRejected();
    throw error;
  }
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/** The server answers 401 UNAUTHORIZED to a token that expired, was revoked or is unknown. */
export function isRejectedToken(error: ApiError): boolean {
  return error.status === 401 && error.code === 'UNAUTHORIZED';
}

/** A message for a person, in pt-BR, for any error an API call may throw. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.errors.length) return error.errors.map((e) => e.message).join(' ');
    return error.detail ?? error.title;
  }
  return 'Algo deu errado. Tente de novo.';
}
