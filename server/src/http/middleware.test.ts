import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import type { AppEnv } from './env.ts';
import { limitBodyTo } from './middleware.ts';

/** An app that answers the length of the body it read, behind a 10-byte limit. */
function limitedApp() {
  const app = new Hono<AppEnv>();
  app.use('*', limitBodyTo(10));
  app.post('/', async (c) => c.text(String((await c.req.text()).length)));
  app.onError((err, c) => c.text(err instanceof DomainError ? err.code : 'other', 413));
  return app;
}

/** A request whose body stream counts the times it is asked for. */
function watched(body: string | ReadableStream<Uint8Array>, headers: Record<string, string>) {
  const req = new Request('http://localhost/', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);
  const stream = req.body;
  const seen = { streamAsked: 0 };
  Object.defineProperty(req, 'body', {
    get() {
      seen.streamAsked += 1;
      return stream;
    },
  });
  return { req, seen };
}

const chunked = (text: string) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      controller.close();
    },
  });

describe('limitBodyTo', () => {
  // The node adapter builds a whole WHATWG Request and reads the body through web streams once
  // anything asks for the stream; a declared length is enough to decide.
  it('decides from Content-Length without asking for the body stream', async () => {
    const under = watched('123456789', { 'content-length': '9' });
    const res = await limitedApp().fetch(under.req);
    expect(await res.text()).toBe('9');
    const over = watched('12345678901', { 'content-length': '11' });
    const refused = await limitedApp().fetch(over.req);
    expect(refused.status).toBe(413);
    expect(await refused.text()).toBe('PAYLOAD_TOO_LARGE');
    expect(under.seen.streamAsked + over.seen.streamAsked).toBe(0);
  });

  it('counts a body sent without Content-Length as it streams', async () => {
    const under = watched(chunked('12345'), { 'transfer-encoding': 'chunked' });
    expect(await (await limitedApp().fetch(under.req)).text()).toBe('5');
    expect(under.seen.streamAsked).toBeGreaterThan(0);
    const over = watched(chunked('x'.repeat(11)), {});
    const refused = await limitedApp().fetch(over.req);
    expect(refused.status).toBe(413);
    expect(await refused.text()).toBe('PAYLOAD_TOO_LARGE');
  });
});
