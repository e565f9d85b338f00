// Strict-Transport-Security goes out only when the server knows the answer went over HTTPS: a
// proxy the operator trusts (TRUST_PROXY) says so in X-Forwarded-Proto. Whatever a client writes
// in that header itself changes nothing.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type AppConfig, createApp } from '../app.ts';

const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
afterAll(() => pool.end());
const appWith = (config: Partial<AppConfig>) =>
  createApp({ pool, config: { jwtSecret: 'x'.repeat(40), tokenTtlHours: 1, devLogin: false, ...config } });
const hstsOf = async (app: ReturnType<typeof appWith>, proto?: string, path = '/api/v1/openapi.json') =>
  (await app.request(path, { headers: proto ? { 'x-forwarded-proto': proto } : {} })).headers.get(
    'strict-transport-security',
  );

describe('Strict-Transport-Security', () => {
  it('is sent when the trusted proxy says HTTPS, on the API and on any other answer', async () => {
    const behindOne = appWith({ trustProxy: 1 });
    expect(await hstsOf(behindOne, 'https')).toBe('max-age=31536000; includeSubDomains');
    expect(await hstsOf(behindOne, 'HTTPS', '/api/v1/nada')).toBe('max-age=31536000; includeSubDomains');
    expect(await hstsOf(behindOne, 'https', '/api/docs')).toBe('max-age=31536000; includeSubDomains');
    // Two proxies (a CDN that the phone reached over HTTPS, then the balancer over HTTP).
    expect(await hstsOf(appWith({ trustProxy: 2 }), 'https, http')).toBe('max-age=31536000; includeSubDomains');
    expect(await hstsOf(appWith({ trustProxy: 1, hstsMaxAgeSeconds: 600 }), 'https')).toBe(
      'max-age=600; includeSubDomains',
    );
  });

  it('is not sent over plain HTTP, nor on a client’s own X-Forwarded-Proto, nor when turned off', async () => {
    const direct = appWith({});
    expect(await hstsOf(direct)).toBeNull();
    // No trusted proxy: the header is the client's and means nothing.
    expect(await hstsOf(direct, 'https')).toBeNull();
    const behindOne = appWith({ trustProxy: 1 });
    expect(await hstsOf(behindOne)).toBeNull();
    expect(await hstsOf(behindOne, 'http')).toBeNull();
    // The client wrote "https"; the trusted proxy appended what it really saw.
    expect(await hstsOf(behindOne, 'https, http')).toBeNull();
    expect(await hstsOf(appWith({ trustProxy: 1, hstsMaxAgeSeconds: 0 }), 'https')).toBeNull();
  });
});
