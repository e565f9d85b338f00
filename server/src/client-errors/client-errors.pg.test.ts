import type { Problem } from '@campo/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { apiAs } from '../../../test/support/session.ts';
import { createTokenSigner } from '../auth/tokens.ts';
import { logger } from '../log.ts';
import { CLIENT_ERROR_LIMIT, createWindowLimiter } from './routes.ts';

const db = useTestDatabase();
const report = { kind: 'error', message: 'TypeError: x is undefined', appVersion: '0.1.0', page: '/pedidos' };

function post(app: ReturnType<typeof testApp>, body: unknown, headers: Record<string, string> = {}) {
  return apiAs(app, null)('POST', '/client-errors', body, headers);
}

describe('POST /api/v1/client-errors', () => {
  afterEach(() => {
    logger.level = process.env.LOG_LEVEL ?? 'info';
    vi.restoreAllMocks();
  });

  it('logs the report as one warn line, with the user of a valid token, and answers 204', async () => {
    const app = testApp(db.pool, { trustProxy: 1 });
    const { token } = await createTokenSigner('test-secret-that-is-long-enough-for-hs256!', 1).sign({
      userId: 7,
      role: 'representative',
      idEmpresa: 1,
      codVendedor: 3,
      codSupervisor: null,
      tokenVersion: 1,
    });
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const res = await post(
      app,
      { ...report, stack: 'at f (index.js:1:2)' },
      {
        authorization: `Bearer ${token}`,
        'x-forwarded-for': '203.0.113.9',
      },
    );
    vi.restoreAllMocks();
    expect(res.status).toBe(204);
    const lines = written
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const line = lines.find((l) => l.msg === 'client error');
    expect(line).toMatchObject({
      level: 'warn',
      ...report,
      stack: 'at f (index.js:1:2)',
      userId: 7,
      tenant: 1,
      address: '203.0.113.9',
      requestId: res.headers.get('x-request-id'),
    });
    expect(written.join('')).not.toContain(token);
  });

  it('refuses a report that breaks the contract, and a body over 16 KiB', async () => {
    const app = testApp(db.pool);
    for (const bad of [{}, { ...report, kind: 'warning' }, { ...report, extra: 1 }, { ...report, message: '' }]) {
      const res = await post(app, bad);
      expect(res.status).toBe(400);
      expect(((await res.json()) as Problem).code).toBe('VALIDATION_FAILED');
    }
    const big = await post(app, { ...report, stack: 'x'.repeat(20_000) });
    expect(big.status).toBe(413);
    expect(((await big.json()) as Problem).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers 429 past the limit per address, while another address still reports', async () => {
    logger.level = 'error';
    const app = testApp(db.pool, { trustProxy: 1 });
    const from = (address: string) => post(app, report, { 'x-forwarded-for': address });
    for (let i = 0; i < CLIENT_ERROR_LIMIT; i++) expect((await from('198.51.100.1')).status).toBe(204);
    const over = await from('198.51.100.1');
    expect(over.status).toBe(429);
    const problem = (await over.json()) as Problem & { retryAfterSeconds: number };
    expect(problem.code).toBe('TOO_MANY_CLIENT_ERRORS');
    expect(problem.retryAfterSeconds).toBeGreaterThan(0);
    expect((await from('198.51.100.2')).status).toBe(204);
  });

  it('opens a new window once the last one has passed', () => {
    let t = 0;
    const allow = createWindowLimiter(2, 60_000, () => t);
    expect([allow('a'), allow('a'), allow('a')]).toEqual([null, null, 60]);
    t = 59_000;
    expect(allow('a')).toBe(1);
    t = 60_000;
    expect(allow('a')).toBeNull();
  });
});
