import { type ClientError, ZClientError } from '@campo/shared';
import { describe, expect, it } from 'vitest';
import { installErrorReporting } from './error-reporting.ts';

function setUp(perMinute = 5) {
  const target = new EventTarget();
  const sent: { report: ClientError; token: string | null }[] = [];
  let clock = 1_000_000;
  const stop = installErrorReporting({
    version: '1.2.3',
    target,
    page: () => '/pedidos/12',
    token: () => 'tok',
    send: async (report, token) => {
      sent.push({ report, token });
    },
    perMinute,
    now: () => clock,
  });
  const fire = (type: 'error' | 'unhandledrejection', fields: Record<string, unknown>) =>
    target.dispatchEvent(Object.assign(new Event(type), fields));
  return { sent, stop, fire, tick: (ms: number) => (clock += ms) };
}

describe('error reporting', () => {
  it('reports an uncaught error with its stack, place, page and the app version', () => {
    const { sent, fire } = setUp();
    const error = new TypeError('x is undefined');
    fire('error', { message: 'Uncaught TypeError', error, filename: '/assets/index.js', lineno: 3, colno: 14 });
    expect(sent).toHaveLength(1);
    const { report, token } = sent[0] as (typeof sent)[number];
    expect(token).toBe('tok');
    expect(report).toEqual({
      kind: 'error',
      message: 'TypeError: x is undefined',
      stack: error.stack,
      source: '/assets/index.js',
      line: 3,
      column: 14,
      appVersion: '1.2.3',
      page: '/pedidos/12',
    });
    // What it sends is what the server accepts.
    expect(ZClientError.safeParse(report).success).toBe(true);
  });

  it('reports unhandled rejections, with or without an Error, cut to the contract limits', () => {
    const { sent, fire } = setUp();
    fire('unhandledrejection', { reason: new Error('sync falhou') });
    fire('unhandledrejection', { reason: 'x'.repeat(5000) });
    expect(sent.map((s) => s.report.kind)).toEqual(['unhandledrejection', 'unhandledrejection']);
    expect(sent[0]?.report.message).toBe('Error: sync falhou');
    expect(sent[1]?.report.message).toHaveLength(1000);
    for (const s of sent) expect(ZClientError.safeParse(s.report).success).toBe(true);
  });

  it('sends each distinct error once, at most perMinute a minute, and stops when uninstalled', () => {
    const { sent, fire, tick, stop } = setUp(2);
    fire('error', { message: 'loop' });
    fire('error', { message: 'loop' });
    expect(sent).toHaveLength(1);
    fire('error', { message: 'b' });
    fire('error', { message: 'c' });
    expect(sent.map((s) => s.report.message)).toEqual(['loop', 'b']);
    tick(60_000);
    fire('error', { message: 'c' });
    expect(sent).toHaveLength(3);
    stop();
    fire('error', { message: 'd' });
    expect(sent).toHaveLength(3);
  });

  it('never throws, even when sending fails', async () => {
    const target = new EventTarget();
    installErrorReporting({ version: '1', target, page: () => '/', send: () => Promise.reject(new Error('offline')) });
    expect(() => target.dispatchEvent(Object.assign(new Event('error'), { message: 'x' }))).not.toThrow();
    // One macrotask: the rejected send has settled, and nothing was thrown at the page.
    await new Promise((r) => setTimeout(r, 0));
  });
});
