// A refused body must not break the connection the answer offers to keep (docs/security.md):
// phones on flaky networks reuse sockets, so every test here goes through a real listening
// server and a keep-alive Agent with one socket, and sends its next request on that socket.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { LOGO_MAX_BYTES, VISIT_PHOTO_MAX_BYTES } from '@campo/shared';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { logInAs } from '../../../test/support/session.ts';
import { BODY_LIMIT_BYTES, SYNC_PUSH_BODY_LIMIT_BYTES } from './middleware.ts';

const db = useTestDatabase();

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
  socket: unknown;
}

describe('keep-alive after a refused body', () => {
  let server: http.Server;
  let port = 0;
  let token = '';
  let app: ReturnType<typeof testApp>;

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const rep = erp.reps[0];
    if (!rep) throw new Error('no representative');
    app = testApp(db.pool);
    token = await logInAs(app, db.pool, { login: 'ger@keepalive.test', role: 'manager', idEmpresa: rep.idEmpresa });
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as http.Server;
    await new Promise((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** One request on the agent; `chunked` sends the body without Content-Length. */
  function send(
    agent: http.Agent,
    method: string,
    path: string,
    opts: { body?: Buffer; type?: string; chunked?: boolean; auth?: boolean } = {},
  ): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = {};
      if (opts.auth !== false) headers.authorization = `Bearer ${token}`;
      if (opts.type) headers['content-type'] = opts.type;
      if (opts.body && !opts.chunked) headers['content-length'] = String(opts.body.length);
      const req = http.request({ agent, host: '127.0.0.1', port, method, path, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body, socket: req.socket }),
        );
      });
      // The server may close while the rest of a refused body is still being written.
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code !== 'EPIPE') reject(err);
      });
      req.end(opts.body);
    });
  }

  /** The refused request, then an ordinary one on the same Agent: it must not meet a dead socket. */
  async function refusedThenNext(method: string, path: string, size: number, type: string, chunked = false) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const refused = await send(agent, method, `/api/v1${path}`, { body: Buffer.alloc(size, 0x78), type, chunked });
      const next = await send(agent, 'GET', '/api/v1/catalog/company');
      return { refused, next };
    } finally {
      agent.destroy();
    }
  }

  for (const chunked of [false, true]) {
    const how = chunked ? 'streamed without Content-Length' : 'declared in Content-Length';
    it(`a logo over 500 KiB (${how}) answers 413 with Connection: close, and the next request works`, async () => {
      const { refused, next } = await refusedThenNext(
        'PUT',
        '/catalog/company/logo',
        LOGO_MAX_BYTES + 1,
        'image/png',
        chunked,
      );
      expect(refused.status).toBe(413);
      expect(JSON.parse(refused.body).code).toBe('LOGO_TOO_LARGE');
      expect(refused.connection).toBe('close');
      expect(next.status).toBe(200);
    });

    it(`any body over 1 MiB (${how}) answers 413 with Connection: close, and the next request works`, async () => {
      const { refused, next } = await refusedThenNext(
        'POST',
        '/orders',
        BODY_LIMIT_BYTES + 1,
        'application/json',
        chunked,
      );
      expect(refused.status).toBe(413);
      expect(refused.connection).toBe('close');
      expect(next.status).toBe(200);
    });
  }

  it('an answer sent before the body has arrived whole says Connection: close', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // No token: the 401 goes out while most of the declared body is still to come.
      const answer = await new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        const req = http.request(
          {
            agent,
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/api/v1/orders',
            headers: { 'content-type': 'application/json', 'content-length': String(500_000) },
          },
          (res) => {
            res.resume();
            res.on('end', () => {
              resolve({ status: res.statusCode ?? 0, connection: res.headers.connection });
              req.destroy();
            });
          },
        );
        req.on('error', (err: NodeJS.ErrnoException) => {
          if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') reject(err);
        });
        req.write('{"a":"');
      });
      expect(answer.status).toBe(401);
      expect(answer.connection).toBe('close');
      const next = await send(agent, 'GET', '/api/v1/catalog/company');
      expect(next.status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('every route with a body: one byte over its limit answers 413, and the socket is closed, not reset', async () => {
    const doc = (await (await app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>>;
    };
    const withBody = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, op]) => op.requestBody)
        .map(([method, op]) => ({
          method: method.toUpperCase(),
          path: path.replace(/\{\w+\}/g, '1'),
          type: Object.keys(op.requestBody?.content ?? {})[0] ?? 'application/json',
        })),
    );
    expect(withBody.length).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const { method, path, type } of withBody) {
      const limit = path.endsWith('/catalog/company/logo')
        ? LOGO_MAX_BYTES
        : /\/visits\/[^/]+\/photo$/.test(path)
          ? VISIT_PHOTO_MAX_BYTES
          : /\/sync\/[^/]+\/push$/.test(path)
            ? SYNC_PUSH_BODY_LIMIT_BYTES
            : BODY_LIMIT_BYTES;
      const { refused, next } = await refusedThenNext(method, path, limit + 1, type);
      if (refused.status !== 413 || refused.connection !== 'close' || next.status !== 200) {
        failures.push(`${method} ${path}: ${refused.status} ${refused.connection}, then ${next.status}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
