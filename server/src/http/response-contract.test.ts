import { API_BASE } from '@campo/shared';
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
// The check every test app runs (test/support/app.ts), tested here where zod-openapi resolves.
import { ContractViolation, checkedFetch } from '../../../test/support/response-contract.ts';
import { errorResponses, json, router, withProblems } from './openapi.ts';

const ZThing = z.object({ id: z.number().int(), nome: z.string(), tags: z.array(z.string()).optional() });

/** An app with one documented route that answers whatever the test puts in `answer`. */
function appAnswering(answer: () => Response) {
  const api = router();
  api.openapi(
    createRoute({
      method: 'get',
      path: '/things/{id}',
      request: { params: z.object({ id: z.string() }) },
      responses: { 200: json(ZThing, 'The thing'), 404: errorResponses[404] },
    }),
    // The route's declared answer is what is under test: the handler sends anything.
    () => answer() as never,
  );
  // Served the way app.ts serves it: withProblems adds the Problem component the routes' errors use.
  api.get('/openapi.json', (c) =>
    c.json(withProblems(api.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '1' } }))),
  );
  const app = new OpenAPIHono();
  app.route(API_BASE, api);
  const fetch = checkedFetch(app.fetch);
  return async () => fetch(new Request(`http://localhost${API_BASE}/things/7`));
}

const body = (value: unknown, status = 200, type = 'application/json') =>
  new Response(JSON.stringify(value), { status, headers: { 'content-type': type } });
const problem = { type: 'urn:campo:problem:NOT_FOUND', title: 'Não encontrado', status: 404, code: 'NOT_FOUND' };

describe('checkedFetch', () => {
  it('lets an answer that matches its schema through, untouched', async () => {
    const res = await appAnswering(() => body({ id: 7, nome: 'Sete', tags: ['a'] }))();
    expect(await res.json()).toEqual({ id: 7, nome: 'Sete', tags: ['a'] });
  });

  it('lets a problem with RFC 9457 extension members through', async () => {
    const res = await appAnswering(() => body({ ...problem, idProdutos: [1] }, 404, 'application/problem+json'))();
    expect(res.status).toBe(404);
  });

  it('lets the 413 the body limit gives any route through, as a problem with its code', async () => {
    const tooLarge = { ...problem, status: 413, code: 'PAYLOAD_TOO_LARGE' };
    const res = await appAnswering(() => body(tooLarge, 413, 'application/problem+json'))();
    expect(res.status).toBe(413);
  });

  it.each([
    ['a field of the wrong type', body({ id: '7', nome: 'Sete' }), /\/id must be integer/],
    ['a required field missing', body({ id: 7 }), /must have required property 'nome'/],
    ['a field the schema does not declare', body({ id: 7, nome: 'Sete', senha: 'x' }), /additionalProperty":"senha"/],
    [
      'a status the route does not declare',
      body(problem, 409, 'application/problem+json'),
      /409 \(NOT_FOUND\), a status the OpenAPI document does not declare/,
    ],
    ['an undeclared 413 with another code', body({ ...problem, status: 413 }, 413, 'application/problem+json'), /413/],
    ['another media type', new Response('<p>oi</p>', { headers: { 'content-type': 'text/html' } }), /text\/html/],
    ['a problem without its code', body({ ...problem, code: undefined }, 404, 'application/problem+json'), /'code'/],
  ])('fails on %s', async (_, answer, message) => {
    const error = await appAnswering(() => answer)().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractViolation);
    expect((error as Error).message).toMatch(message);
  });
});
