// Problem bodies keep RFC 9457's members for what the RFC says they are (docs/security.md).
import { OpenAPIHono } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { HttpProblem, type ProblemExtra, problemResponse, STANDARD_PROBLEM_MEMBERS } from './problem.ts';

describe('problem+json', () => {
  it('refuses an extension member named like a standard one, at compile time and at run time', () => {
    // @ts-expect-error `status` is the HTTP status; an order's status is `orderStatus`.
    const typed: ProblemExtra = { status: 'approved' };
    for (const member of STANDARD_PROBLEM_MEMBERS) {
      const extra = { [member]: 'sombra' } as ProblemExtra;
      expect(() => new HttpProblem(409, 'X', 'Conflito', 'x', extra)).toThrow(TypeError);
    }
    expect(() => new HttpProblem(409, 'X', 'Conflito', 'x', typed)).toThrow(/status/);
  });

  it('writes the standard members after the extensions, so even an untyped extra cannot shadow them', async () => {
    const problem = new HttpProblem(409, 'ORDER_ALREADY_DECIDED', 'Conflito', 'O pedido já está aprovado.', {
      orderStatus: 'approved',
    });
    // Bypass the constructor's check, as a careless mutation would.
    (problem.extra as Record<string, unknown>).status = 'approved';
    (problem.extra as Record<string, unknown>).title = 'outro';
    const app = new OpenAPIHono();
    app.get('/x', (c) => problemResponse(c, problem));
    const res = await app.request('/x');
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      status: 409,
      title: 'Conflito',
      code: 'ORDER_ALREADY_DECIDED',
      orderStatus: 'approved',
      instance: '/x',
    });
  });
});
