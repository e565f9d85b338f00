// Problem bodies keep RFC 9457's members for what the RFC says they are (docs/security.md), and
// every code, status and title comes from the one catalogue (shared/src/errors.ts, docs/errors.md).
import { ERRORS, type ErrorCode, ZProblem } from '@campo/shared';
import { OpenAPIHono } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { DomainError, type ProblemExtra, STANDARD_PROBLEM_MEMBERS } from '../errors.ts';
import { problemResponse } from './problem.ts';

async function answer(err: DomainError<ErrorCode>, status?: number) {
  const app = new OpenAPIHono();
  app.get('/x', (c) => problemResponse(c, err, status));
  const res = await app.request('/x');
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('problem+json', () => {
  it('refuses an extension member named like a standard one, at compile time and at run time', () => {
    // @ts-expect-error `status` is the HTTP status; an order's status is `orderStatus`.
    const typed: ProblemExtra = { status: 'approved' };
    for (const member of STANDARD_PROBLEM_MEMBERS) {
      const extra = { [member]: 'sombra' } as ProblemExtra;
      expect(() => new DomainError('ORDER_ALREADY_DECIDED', 'x', extra)).toThrow(TypeError);
    }
    expect(() => new DomainError('ORDER_ALREADY_DECIDED', 'x', typed)).toThrow(/status/);
  });

  it('writes the standard members after the extensions, so even an untyped extra cannot shadow them', async () => {
    const problem = new DomainError('ORDER_ALREADY_DECIDED', 'O pedido já está aprovado.', {
      orderStatus: 'approved',
    });
    // Bypass the constructor's check, as a careless mutation would.
    (problem.extra as Record<string, unknown>).status = 'approved';
    (problem.extra as Record<string, unknown>).title = 'outro';
    const { status, body } = await answer(problem);
    expect(status).toBe(409);
    expect(body).toMatchObject({
      status: 409,
      title: 'Pedido já decidido',
      code: 'ORDER_ALREADY_DECIDED',
      orderStatus: 'approved',
      instance: '/x',
    });
  });

  it('takes the status and title of every code from the catalogue, and the body parses as a Problem', async () => {
    for (const code of Object.keys(ERRORS) as ErrorCode[]) {
      const { status, body } = await answer(new DomainError(code, 'Detalhe.'));
      const usual = ERRORS[code].status;
      expect([code, status]).toEqual([code, typeof usual === 'number' ? usual : usual[0]]);
      expect(ZProblem.parse(body)).toMatchObject({ code, status, title: ERRORS[code].title, detail: 'Detalhe.' });
      expect(body.type).toBe(`urn:campo:problem:${code.toLowerCase()}`);
    }
  });

  it('refuses a code outside the catalogue, at compile time and at run time', () => {
    // @ts-expect-error Every code is a key of ERRORS: a new one is added there (and in docs/errors.md).
    expect(() => new DomainError('NOT_A_CODE', 'x')).toThrow(/not in the error catalogue/);
    expect(() => new DomainError('toString' as ErrorCode, 'x')).toThrow(/not in the error catalogue/);
  });

  it('lets a code with several statuses name one of them, and no other', async () => {
    const newer = new DomainError('SYNC_VERSION_UNSUPPORTED', 'Versão desconhecida.', {}, 400);
    expect((await answer(newer)).status).toBe(400);
    expect(new DomainError('SYNC_VERSION_UNSUPPORTED', 'Atualize o app.').status).toBe(426);
    // @ts-expect-error NOT_FOUND is only ever 404.
    expect(() => new DomainError('NOT_FOUND', 'x', {}, 400)).toThrow(/status 400/);
  });
});
