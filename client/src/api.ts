import type { FieldError, Problem } from '@campo/shared';
// The subpath, not the package index: the index pulls every zod contract into the bundle.
import { API_BASE } from '@campo/shared/api';
import createClient, { type FetchResponse, type MaybeOptionalInit, type Middleware } from 'openapi-fetch';
import type { HttpMethod, PathsWithMethod, RequiredKeysOf } from 'openapi-typescript-helpers';
// Generated from the server's OpenAPI document by `pnpm api:types`; types only.
import type { paths } from './api-schema.d.ts';

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

/** The token of the session, for the rare caller that does not go through api (error reports). */
export function currentToken(): string | null {
  return auth.token();
}

/** The session module plugs itself in here; api.ts must not import it (it imports us). */
export function setApiAuth(next: ApiAuth): void {
  auth = next;
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

/** The bearer token on the way out; problems and failed requests thrown as ApiError on the way back. */
const session: Middleware = {
  onRequest({ request }) {
    const token = auth.token();
    if (token) request.headers.set('authorization', `Bearer ${token}`);
  },
  async onResponse({ request, response }) {
    if (response.ok) return;
    const error = await toApiError(response);
    // Only a token we sent can be revoked: a failed login (INVALID_CREDENTIALS) is a 401 too.
    if (request.headers.has('authorization') && isRejectedToken(error)) auth.onRejected();
    throw error;
  },
  onError({ error }) {
    if (error instanceof DOMException && error.name === 'AbortError') return;
    return new ApiError(
      0,
      'NETWORK_ERROR',
      'Sem conexão',
      'Não foi possível falar com o servidor. Verifique a conexão.',
    );
  },
};

type Paths = paths;
type Method = Extract<HttpMethod, 'get' | 'put' | 'post' | 'delete' | 'patch'>;
/** openapi-fetch's rule: the options argument may be left out when nothing in it is required. */
export type InitParam<Init> = RequiredKeysOf<Init> extends never ? [Init?] : [Init];
/** The success body of an answer (undefined for 204); errors never get here, they are thrown. */
type Data<R> = R extends { data: infer D } ? D : never;
/** A route of the document that answers `method`, e.g. `/orders/{id}` for 'get'. */
export type ApiRoute<M extends Method> = PathsWithMethod<Paths, M>;
/** The options of a call: path, query and header parameters, body, signal. */
export type ApiInit<M extends Method, P extends ApiRoute<M>> = MaybeOptionalInit<Paths[P], M>;
/** What a call of `route` with options `I` resolves to. */
export type ApiAnswer<M extends Method, P extends ApiRoute<M>, I> = Paths[P][M] extends infer O extends Record<
  string | number,
  unknown
>
  ? Data<FetchResponse<O, I, `${string}/${string}`>>
  : never;

/**
 * One HTTP method of the API: the route is a path of the OpenAPI document (`/orders/{id}`), its
 * path, query and header parameters, body and answer are typed from the generated `paths`.
 */
export type ApiMethod<M extends Method> = <P extends ApiRoute<M>, I extends ApiInit<M, P>>(
  route: P,
  ...init: InitParam<I>
) => Promise<ApiAnswer<M, P, I>>;

export interface Api {
  GET: ApiMethod<'get'>;
  POST: ApiMethod<'post'>;
  PUT: ApiMethod<'put'>;
  PATCH: ApiMethod<'patch'>;
  DELETE: ApiMethod<'delete'>;
}

/**
 * A client of the API at `baseUrl`: JSON in, JSON out, the bearer token added, problems and
 * unreachable servers thrown as ApiError. `fetch` is looked up per call so a test can stand in.
 */
export function createApi(baseUrl: string = API_BASE, fetch = (request: Request) => globalThis.fetch(request)): Api {
  const client = createClient<Paths>({ baseUrl, fetch, headers: { accept: 'application/json' } });
  client.use(session);
  // openapi-fetch answers { data } or { error }; errors were thrown by the middleware above, so
  // only data is left. Its methods are generic over the route, which TypeScript cannot forward
  // through a wrapper: the one cast is here, typed again by ApiMethod.
  const send = (method: Uppercase<Method>) => {
    const call = client[method] as unknown as (route: string, init?: object) => Promise<{ data?: unknown }>;
    return (async (route: string, init?: object) => (await call(route, init)).data) as never;
  };
  return { GET: send('GET'), POST: send('POST'), PUT: send('PUT'), PATCH: send('PATCH'), DELETE: send('DELETE') };
}

/** The app's API client (see createApi). */
export const api: Api = createApi();

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
