// Simulated devices for replication tests: the real client store (client/src/db) on
// fake-indexeddb, replicating over real HTTP with a real server on a real PostgreSQL.
//
// Each device gets its own IDBFactory, so two devices of one user hold separate stores as two
// phones would. RxDB's open-source core opens at most 13 collections per JavaScript realm: a
// representative's device opens 7, so a second one in the same process must wait for the
// first to close, or run in a worker thread (test/replication/device-worker.ts), which has its
// own count.
import { createServer, type RequestListener, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SyncCollection } from '@campo/shared';
import type pg from 'pg';
import {
  type CampoDatabase,
  type CampoReplication,
  type CampoUser,
  createOutbox,
  type IndexedDbApi,
  type OpenCampoDbOptions,
  type Outbox,
  openCampoDb,
  type ReplicationOptions,
  startReplication,
} from '../../client/src/db/index.ts';
import { type ChangeHub, createChangeHub } from '../../server/src/sync/stream.ts';
import { testApp } from './app.ts';
import { asServerRole } from './pg.ts';

// These packages belong to the client and the server, not to the root: resolve them there.
const fromClient = createRequire(new URL('../../client/package.json', import.meta.url));
const fromServer = createRequire(new URL('../../server/package.json', import.meta.url));

interface FakeIndexedDb {
  IDBFactory: new () => unknown;
  IDBKeyRange: unknown;
}

let fakeIdb: Promise<FakeIndexedDb> | undefined;

/** A fresh, empty IndexedDB: one simulated phone. */
export async function deviceIndexedDb(): Promise<IndexedDbApi> {
  fakeIdb ??= import(pathToFileURL(fromClient.resolve('fake-indexeddb')).href) as Promise<FakeIndexedDb>;
  const { IDBFactory, IDBKeyRange } = await fakeIdb;
  return { indexedDB: new IDBFactory(), IDBKeyRange };
}

/** An HTTP server on a real port that can be stopped and started again on the same port. */
export interface TestServer {
  url: string;
  port: number;
  /** Closes the port and every open connection (event streams included), as a crash would. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startHttpServer(fetchApp: (req: Request) => Response | Promise<Response>): Promise<TestServer> {
  const nodeServer = (await import(pathToFileURL(fromServer.resolve('@hono/node-server')).href)) as {
    getRequestListener: (fetch: (req: Request) => Response | Promise<Response>) => RequestListener;
  };
  const listener = nodeServer.getRequestListener(fetchApp);
  let server: Server | undefined;
  let port = 0;
  const start = async () => {
    const s = createServer(listener);
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve());
    });
    port = (s.address() as AddressInfo).port;
    server = s;
  };
  await start();
  return {
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    async stop() {
      const s = server;
      server = undefined;
      if (!s) return;
      const closed = new Promise<void>((resolve) => s.close(() => resolve()));
      s.closeAllConnections();
      await closed;
    },
    start,
  };
}

const quiet = { info: () => undefined, warn: () => undefined };

/** The API with its change hub, served over HTTP; `wrap` puts something in front (a version gate). */
export async function servedApp(
  db: { pool: pg.Pool; url: string },
  options: {
    wrap?: (fetchApp: (req: Request) => Response | Promise<Response>) => (req: Request) => Promise<Response>;
  } = {},
) {
  const hub: ChangeHub = createChangeHub({ connectionString: asServerRole(db.url), log: quiet, retryBaseMs: 50 });
  const app = testApp(db.pool, {}, { hub });
  const fetchApp = (req: Request) => app.fetch(req);
  const server = await startHttpServer(options.wrap ? options.wrap(fetchApp) : fetchApp);
  return {
    app,
    hub,
    server,
    async close() {
      // The hub ends the open streams, which would otherwise hold the server open.
      await hub.close();
      await server.stop();
    },
  };
}

export interface Device {
  db: CampoDatabase;
  replication: CampoReplication;
  outbox: Outbox | null;
  close(): Promise<void>;
}

export interface DeviceOptions extends Partial<Omit<ReplicationOptions, 'getToken'>> {
  user: CampoUser;
  baseUrl: string;
  token: string;
  /** Reopen a previous device's store (same phone, app restarted). */
  indexedDb?: IndexedDbApi;
  /** Open the store with an older release's schemas (test/fixtures/schemas-v0.ts). */
  schemas?: OpenCampoDbOptions['schemas'];
}

/** A device replicating with short retries, so tests of failures take seconds. */
export async function openDevice(options: DeviceOptions): Promise<Device & { indexedDb: IndexedDbApi }> {
  const indexedDb = options.indexedDb ?? (await deviceIndexedDb());
  const db = await openCampoDb({
    user: options.user,
    indexedDb,
    multiInstance: false,
    ...(options.schemas ? { schemas: options.schemas } : {}),
  });
  const { user: _u, token, indexedDb: _i, schemas: _s, ...rest } = options;
  const replication = startReplication(db, {
    retryTimeMs: 200,
    streamBackoffMs: { first: 50, max: 500 },
    ...rest,
    getToken: () => token,
  });
  const outbox = db.campo.collections.includes('pedidos')
    ? createOutbox(db, {
        inFlight$: replication.inFlight$,
        ...(options.visitPhotos ? { visitPhotos: options.visitPhotos } : {}),
      })
    : null;
  return {
    db,
    replication,
    outbox,
    indexedDb,
    async close() {
      outbox?.close();
      await replication.stop();
      await db.close();
    },
  };
}

/** Waits until `check` holds; a deadline so a test fails with a message rather than hanging. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  ms = 20_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Ids of the live documents of a local collection. */
export async function localIds(db: CampoDatabase, collection: SyncCollection): Promise<string[]> {
  const c = db.collections[collection];
  if (!c) return [];
  const docs = await c.find().exec();
  return docs.map((d) => String(d.primary)).sort();
}

export const sortedStrings = (values: Iterable<unknown>) => [...values].map(String).sort();

/** A device in a worker thread (test/replication/device-worker.ts), with its own collection count. */
export interface WorkerDevice {
  call<T = unknown>(cmd: string, args?: Record<string, unknown>): Promise<T>;
  close(): Promise<void>;
}

export async function openWorkerDevice(options: {
  user: CampoUser;
  baseUrl: string;
  token: string;
  /** Fetch through test/convergence/faulty-fetch.ts, so the test can inject network faults. */
  faults?: boolean;
}): Promise<WorkerDevice> {
  // A worker is plain Node: tsx's loader (a root devDependency, resolved from the working
  // directory, the repository root) is registered first, then the TypeScript device.
  const script = new URL('../replication/device-worker.ts', import.meta.url).href;
  const worker = new Worker(
    `import('tsx/esm/api').then((t) => { t.register(); return import(${JSON.stringify(script)}); })`,
    { eval: true },
  );
  let seq = 0;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  worker.on('message', (m: { seq: number; result?: unknown; error?: string }) => {
    const w = waiting.get(m.seq);
    waiting.delete(m.seq);
    if (m.error !== undefined) w?.reject(new Error(`device worker: ${m.error}`));
    else w?.resolve(m.result);
  });
  worker.on('error', (err) => {
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  });
  const call = <T>(cmd: string, args: Record<string, unknown> = {}) =>
    new Promise<T>((resolve, reject) => {
      seq += 1;
      waiting.set(seq, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ seq, cmd, args });
    });
  await call('open', options);
  return {
    call,
    async close() {
      await call('close').catch(() => undefined);
      await worker.terminate();
    },
  };
}
