import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, createApi, errorMessage, setApiAuth } from './api.ts';

const BASE = 'http://campo.test/api/v1';

/** A server that answers `answer` and remembers each request it got. */
function server(answer: (req: Request) => Response | Promise<Response>) {
  const got: Request[] = [];
  const api = createApi(BASE, async (req) => {
    got.push(req.clone());
    return answer(req);
  });
  return { api, got };
}

const json = (body: unknown, status = 200, type = 'application/json') =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });
const problem = (status: number, code: string, extra: object = {}) =>
  json({ type: 'about:blank', title: `t${status}`, status, code, ...extra }, status, 'application/problem+json');

let rejected = 0;
function signIn(token: string | null) {
  rejected = 0;
  setApiAuth({ token: () => token, onRejected: () => rejected++ });
}
afterEach(() => signIn(null));

describe('api', () => {
  it('sends the route with its path and query parameters, the token and the JSON body', async () => {
    signIn('tok');
    const { api, got } = server(() => json({ id: 7 }));
    await api.GET('/politicas/alcada', {
      params: { query: { idPauta: 3, idProduto: [1, 2], codVendedor: undefined } },
    });
    await api.POST('/orders/{id}/reject', { params: { path: { id: 7 } }, body: { motivo: 'sem estoque' } });
    const [read, write] = got;
    expect(read?.url).toBe(`${BASE}/politicas/alcada?idPauta=3&idProduto=1&idProduto=2`);
    expect(read?.method).toBe('GET');
    expect(read?.headers.get('authorization')).toBe('Bearer tok');
    expect(read?.headers.get('accept')).toBe('application/json');
    expect(write?.url).toBe(`${BASE}/orders/7/reject`);
    expect(write?.method).toBe('POST');
    expect(write?.headers.get('content-type')).toBe('application/json');
    expect(await write?.json()).toEqual({ motivo: 'sem estoque' });
  });

  it('answers the body of a success and undefined for a 204', async () => {
    const { api } = server((req) =>
      req.method === 'DELETE' ? new Response(null, { status: 204 }) : json({ count: 4 }),
    );
    expect(await api.GET('/notifications/pending-count')).toEqual({ count: 4 });
    expect(await api.DELETE('/catalog/company/logo')).toBeUndefined();
  });

  it('passes the headers a caller gives', async () => {
    const { api, got } = server(() => json({}));
    await api.GET('/auth/me', { headers: { 'idempotency-key': 'k-1' } });
    expect(got[0]?.headers.get('idempotency-key')).toBe('k-1');
    expect(got[0]?.headers.has('authorization')).toBe(false);
  });

  it('throws a problem as ApiError with its code, detail and field errors', async () => {
    const errors = [{ path: 'body.password', message: 'Senha curta.' }];
    const { api } = server(() => problem(400, 'VALIDATION_FAILED', { detail: 'Dados inválidos', errors }));
    const error = await api.PUT('/usuarios/{id}/senha', { params: { path: { id: 1 } }, body: { password: 'x' } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', title: 't400', detail: 'Dados inválidos' });
    expect((error as ApiError).errors).toEqual(errors);
    expect(errorMessage(error)).toBe('Senha curta.');
  });

  it('ends the session on a 401 to a token it sent, and only then', async () => {
    const { api } = server(() => problem(401, 'UNAUTHORIZED'));
    signIn('expired');
    await expect(api.GET('/auth/me')).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(rejected).toBe(1);
    // A failed login is a 401 too, with no token sent: nothing to end.
    signIn(null);
    await expect(api.POST('/auth/login', { body: { login: 'a', password: 'b' } })).rejects.toMatchObject({
      status: 401,
    });
    expect(rejected).toBe(0);
    // A token refused for another reason (a role's 403) keeps the session.
    signIn('tok');
    const forbidden = server(() => problem(403, 'FORBIDDEN'));
    await expect(forbidden.api.GET('/usuarios')).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(rejected).toBe(0);
  });

  it('turns an answer that is not a problem into HTTP_<status>', async () => {
    const { api } = server(() => new Response('<html>Bad Gateway</html>', { status: 502 }));
    await expect(api.GET('/auth/me')).rejects.toMatchObject({ status: 502, code: 'HTTP_502' });
  });

  it('says NETWORK_ERROR with status 0 when the request never reached the server', async () => {
    const { api } = server(() => {
      throw new TypeError('Failed to fetch');
    });
    await expect(api.GET('/auth/me')).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });

  it('lets an abort through as the AbortError it is', async () => {
    const ctrl = new AbortController();
    const { api } = server((req) => {
      ctrl.abort();
      throw req.signal.reason ?? new DOMException('aborted', 'AbortError');
    });
    const error = await api.GET('/auth/me', { signal: ctrl.signal }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as DOMException).name).toBe('AbortError');
  });
});
