// Graceful shutdown of `campo serve`: what SIGTERM (a deploy, a scale-in) and Ctrl-C do.
//
// Why: http.Server.close() only stops accepting and waits for every open connection to end.
// A change stream never ends by itself and a keep-alive client may hold an idle socket for
// minutes, so a bare close() never finished and the supervisor had to SIGKILL the process,
// cutting whatever request was still running. Here the streams are ended, idle sockets are
// closed as soon as they are idle, in-flight requests are answered (with `Connection: close`
// so their clients do not reuse the socket), and a grace period bounds the whole thing.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Http2SecureServer, Http2Server } from 'node:http2';

export interface ShutdownLog {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
}

export interface GracefulServer {
  /** Requests being answered right now (change streams included). */
  inFlight(): number;
  /**
   * Stops accepting, lets in-flight requests finish, closes idle sockets, then runs cleanup.
   * Resolves with `true` when everything ended within graceMs, `false` when the grace period
   * ran out first (the remaining connections are then destroyed; cleanup is not awaited).
   */
  shutdown(options: {
    graceMs: number;
    beforeClose?: () => Promise<void>;
    cleanup: () => Promise<void>;
  }): Promise<boolean>;
}

type AnyServer = Server | Http2Server | Http2SecureServer;

export function gracefulServer(anyServer: AnyServer, log: ShutdownLog): GracefulServer {
  // @hono/node-server's serve() gives an http.Server unless told to use http2, which `campo
  // serve` never does.
  const server = anyServer as Server;
  let active = 0;
  let stopping = false;
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    active++;
    // A request that arrived on a kept-alive socket during shutdown is still answered, but
    // tells its client not to send another on that socket.
    if (stopping && !res.headersSent) res.setHeader('connection', 'close');
    res.once('close', () => {
      active--;
      // The socket that carried it is idle now: close it instead of waiting for the client.
      if (stopping) setImmediate(() => server.closeIdleConnections());
    });
  });
  return {
    inFlight: () => active,
    async shutdown({ graceMs, beforeClose, cleanup }) {
      stopping = true;
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), graceMs);
      });
      const closed = new Promise<void>((resolve) => {
        // close() stops accepting and, since Node 19, also closes the sockets idle right now.
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      const orderly = (async () => {
        // Ends the change streams, which would otherwise hold their connections forever.
        await beforeClose?.();
        await closed;
        await cleanup();
        return true as const;
      })();
      const done = await Promise.race([orderly, expired]);
      clearTimeout(timer);
      if (!done) {
        log.warn('shutdown grace period over: closing the connections still open', { inFlight: active, graceMs });
        server.closeAllConnections();
      }
      return done;
    },
  };
}
