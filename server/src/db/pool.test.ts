// A database host that accepts the TCP connection and never answers (a stuck proxy, a server
// frozen in its start-up) or drops packets: a request must not wait for the kernel. The pool
// gives up after its connect timeout, with an error that counts as the database unavailable
// (answered 503 DATABASE_UNAVAILABLE with Retry-After, docs/reliability.md).
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './availability.ts';
import { createPool } from './pool.ts';

describe('the pool against a database that never answers', () => {
  let silent: Server;
  const sockets: Socket[] = [];
  let port = 0;

  beforeAll(async () => {
    silent = createServer((socket) => {
      sockets.push(socket);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });

  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  // Without a connect timeout the query waits forever, and the test's own timeout fails it.
  it('gives up after its connect timeout, as the database unavailable', async () => {
    const pool = createPool(`postgres://campo@127.0.0.1:${port}/erp`, 2, { connectTimeoutMs: 300 });
    const failure = await pool.query('select 1').then(
      () => null,
      (err: unknown) => err,
    );
    await pool.end();
    expect(failure).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(failure)).toBe(true);
    expect(sockets.length).toBeGreaterThan(0);
  });
});
