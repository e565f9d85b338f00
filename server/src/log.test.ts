import { Writable } from 'node:stream';
import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppEnv } from './http/env.ts';
import { requestLog } from './http/middleware.ts';
import { createLogger, currentRequestId, log, logger, outsideRequest, withRequestId } from './log.ts';

function sink() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l));
      done();
    },
  });
  return { lines, stream };
}

describe('the logger', () => {
  const level = process.env.LOG_LEVEL;
  afterEach(() => {
    process.env.LOG_LEVEL = level;
    logger.level = level ?? 'info';
    vi.restoreAllMocks();
  });

  it('writes JSON lines with time, level and message, and redacts credentials and passwords', () => {
    process.env.LOG_LEVEL = 'info';
    const { lines, stream } = sink();
    createLogger(stream).info(
      {
        headers: { authorization: 'Bearer abc.def', cookie: 'sid=1', 'user-agent': 'x' },
        body: { login: 'ana', password: 'hunter22' },
        password: 'top',
      },
      'login',
    );
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({ level: 'info', msg: 'login', body: { login: 'ana', password: '[redacted]' } });
    expect(line?.headers).toEqual({ authorization: '[redacted]', cookie: '[redacted]', 'user-agent': 'x' });
    expect(line?.password).toBe('[redacted]');
    expect(new Date(line?.time as string).toISOString()).toBe(line?.time);
  });

  it('honours LOG_LEVEL, and falls back to info on a value it does not know', () => {
    process.env.LOG_LEVEL = 'warn';
    const warnOnly = sink();
    const l = createLogger(warnOnly.stream);
    l.info('dropped');
    l.warn('kept');
    expect(warnOnly.lines.map((x) => x.msg)).toEqual(['kept']);
    process.env.LOG_LEVEL = 'loud';
    expect(createLogger(sink().stream).level).toBe('info');
  });

  it('stamps every line written inside a request context, across awaits, with its id', async () => {
    process.env.LOG_LEVEL = 'info';
    const { lines, stream } = sink();
    const l = createLogger(stream);
    await withRequestId('req-abc-123', async () => {
      await new Promise((r) => setTimeout(r, 1));
      expect(currentRequestId()).toBe('req-abc-123');
      l.info('deep in a service');
      l.info({ requestId: 'other-request' }, 'explicit id wins');
      outsideRequest(() => l.info('long-lived'));
    });
    l.info('after');
    expect(lines.map((x) => [x.msg, x.requestId])).toEqual([
      ['deep in a service', 'req-abc-123'],
      ['explicit id wins', 'other-request'],
      ['long-lived', undefined],
      ['after', undefined],
    ]);
  });
});

describe('the request line', () => {
  afterEach(() => {
    logger.level = process.env.LOG_LEVEL ?? 'info';
    vi.restoreAllMocks();
  });

  const app = new Hono<AppEnv>().use('*', requestLog).get('/things/:id', async (c) => {
    await Promise.resolve();
    log.info('service line');
    return c.text('ok');
  });

  async function requestWith(headers: Record<string, string>) {
    logger.level = 'info';
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const res = await app.request('/things/42', { headers });
    vi.restoreAllMocks();
    return {
      res,
      lines: written
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    };
  }

  it('keeps a sane X-Request-Id, answers it, and puts it on the service lines and the request line', async () => {
    const { res, lines } = await requestWith({ 'x-request-id': 'abcdef12-trace', authorization: 'Bearer s3cret' });
    expect(res.headers.get('x-request-id')).toBe('abcdef12-trace');
    expect(lines).toEqual([
      expect.objectContaining({ msg: 'service line', requestId: 'abcdef12-trace' }),
      expect.objectContaining({
        msg: 'request',
        requestId: 'abcdef12-trace',
        method: 'GET',
        path: '/things/42',
        route: '/things/:id',
        status: 200,
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('s3cret');
  });

  it('replaces an X-Request-Id that is not a sane token with a fresh one', async () => {
    for (const bad of ['short', 'has spaces in the id', 'x'.repeat(65), 'quote"injected"-here']) {
      const { res, lines } = await requestWith({ 'x-request-id': bad });
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(lines.every((l) => l.requestId === id)).toBe(true);
    }
  });
});
