// Which failures mean "the database is away" (503 DATABASE_UNAVAILABLE, retry) and which stay
// what they were: a refusal of the statement, or a bug (500).
import { describe, expect, it } from 'vitest';
import { databaseUnavailable, isDatabaseUnavailable } from './availability.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('takes the server going away, refusing connections, and the socket breaking', () => {
    for (const code of ['57P01', '57P02', '57P03', '57P05', '53300', '08000', '08003', '08006', '08001', '08004'])
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(true);
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH'])
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(true);
    for (const message of [
      'Connection terminated unexpectedly',
      'Connection terminated',
      'Connection terminated due to connection timeout',
      'timeout exceeded when trying to connect',
      'Client has encountered a connection error and is not queryable',
      'Client was closed and is not queryable',
    ])
      expect(isDatabaseUnavailable(new Error(message)), message).toBe(true);
    // localhost resolves to two addresses: Node reports both refusals together.
    expect(isDatabaseUnavailable(new AggregateError([withCode('ECONNREFUSED')], ''))).toBe(true);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: withCode('57P01') }))).toBe(true);
  });

  it('leaves everything else as it was', () => {
    // A protocol violation is the client's bug: the same request would fail again.
    for (const code of ['08P01', '23505', '40001', '22P05', '42P01', '57014', '25P03'])
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(false);
    for (const err of [
      new Error('boom'),
      new TypeError('x is undefined'),
      null,
      undefined,
      'Connection terminated',
      42,
    ])
      expect(isDatabaseUnavailable(err), String(err)).toBe(false);
  });

  it('answers 503 with a few seconds of Retry-After', () => {
    const err = databaseUnavailable();
    expect(err.status).toBe(503);
    expect(err.code).toBe('DATABASE_UNAVAILABLE');
    expect(err.extra.retryAfterSeconds).toBeGreaterThan(0);
  });
});
