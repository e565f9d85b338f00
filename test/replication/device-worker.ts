// A second simulated device in a worker thread (run with `--import tsx`): RxDB's open-source
// core counts open collections per JavaScript realm (13 at most), so two representative devices
// (9 collections each) cannot be open in one realm at once. The test drives it by messages.
// With `faults: true` the device's fetch can be made to fail (test/convergence/faulty-fetch.ts):
// the convergence simulation takes it offline, loses push answers and repeats pushes. Visits'
// photos wait in memory (no Cache Storage in Node).
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { parentPort } from 'node:worker_threads';
import type { SyncCollection } from '@campo/shared';
import {
  type CampoDatabase,
  type CampoReplication,
  type CampoUser,
  createOutbox,
  type Outbox,
  openCampoDb,
  startReplication,
} from '../../client/src/db/index.ts';
import { memoryVisitPhotos } from '../../client/src/db/visit-photos.ts';
import { type FaultControl, faultyFetch } from '../convergence/faulty-fetch.ts';

if (!parentPort) throw new Error('device-worker runs in a worker thread');
const port = parentPort;

const fromClient = createRequire(new URL('../../client/package.json', import.meta.url));

let db: CampoDatabase | undefined;
let replication: CampoReplication | undefined;
let outbox: Outbox | undefined;
let faults: FaultControl | undefined;

type Args = Record<string, unknown>;

const commands: Record<string, (args: Args) => Promise<unknown>> = {
  async open(args) {
    const { IDBFactory, IDBKeyRange } = (await import(pathToFileURL(fromClient.resolve('fake-indexeddb')).href)) as {
      IDBFactory: new () => unknown;
      IDBKeyRange: unknown;
    };
    db = await openCampoDb({
      user: args.user as CampoUser,
      indexedDb: { indexedDB: new IDBFactory(), IDBKeyRange },
      multiInstance: false,
    });
    const token = args.token as string;
    faults = args.faults === true ? faultyFetch() : undefined;
    const visitPhotos = memoryVisitPhotos();
    replication = startReplication(db, {
      visitPhotos,
      ...(faults ? { fetch: faults.fetch } : {}),
      baseUrl: args.baseUrl as string,
      getToken: () => token,
      retryTimeMs: 200,
      streamBackoffMs: { first: 50, max: 500 },
    });
    outbox = createOutbox(db, { inFlight$: replication.inFlight$, visitPhotos });
    return null;
  },
  async awaitInitialSync() {
    await replication?.awaitInitialSync();
    return null;
  },
  async syncNow() {
    await replication?.syncNow();
    return null;
  },
  async docs(args) {
    const collection = db?.collections[args.collection as SyncCollection];
    const docs = collection ? await collection.find().exec() : [];
    return docs.map((d) => d.toJSON());
  },
  async queueOrder(args) {
    return outbox?.queueOrder(args.draft as Parameters<Outbox['queueOrder']>[0]);
  },
  async createOpportunity(args) {
    return outbox?.createOpportunity(args.input as Parameters<Outbox['createOpportunity']>[0]);
  },
  async moveOpportunity(args) {
    await outbox?.moveOpportunity(args.id as string, args.estagio as Parameters<Outbox['moveOpportunity']>[1]);
    return null;
  },
  async replyTicket(args) {
    await outbox?.replyTicket(args.id as string, args.texto as string, args.autorNome as string);
    return null;
  },
  async createTicket(args) {
    return outbox?.createTicket(args.input as Parameters<Outbox['createTicket']>[0]);
  },
  async cancelTicket(args) {
    await outbox?.cancelTicket(args.id as string);
    return null;
  },
  async updateOpportunity(args) {
    await outbox?.updateOpportunity(args.id as string, args.patch as Parameters<Outbox['updateOpportunity']>[1]);
    return null;
  },
  async deleteOpportunity(args) {
    await outbox?.deleteOpportunity(args.id as string);
    return null;
  },
  async resend(args) {
    await outbox?.resend(args.id as string, args.draft as Parameters<Outbox['resend']>[1]);
    return null;
  },
  async discard(args) {
    await outbox?.discard(args.id as string);
    return null;
  },
  async checkIn(args) {
    return outbox?.checkIn(args.input as Parameters<Outbox['checkIn']>[0]);
  },
  /** `foto`: the photo's bytes (a Blob does not cross to the worker as such). */
  async checkOut(args) {
    const { foto, ...rest } = args.input as Omit<Parameters<Outbox['checkOut']>[1], 'foto'> & { foto?: Uint8Array };
    await outbox?.checkOut(args.id as string, {
      ...rest,
      foto: foto ? new Blob([new Uint8Array(foto)], { type: 'image/jpeg' }) : null,
    });
    return null;
  },
  async retryVisit(args) {
    await outbox?.retryVisit(args.id as string);
    return null;
  },
  async discardVisit(args) {
    await outbox?.discardVisit(args.id as string);
    return null;
  },
  async listOutbox() {
    return (await outbox?.listOutbox()) ?? [];
  },
  /** What the sync banner would show, per collection: the last error included. */
  async syncState() {
    return replication?.syncState.get() ?? null;
  },
  // Faults (only on a device opened with `faults: true`).
  async setOffline(args) {
    faults?.setOffline(args.offline === true);
    return null;
  },
  async loseNextPushes(args) {
    faults?.loseNextPushes(Number(args.count ?? 1), args.thenOffline === true);
    return null;
  },
  async duplicateNextPush(args) {
    faults?.duplicateNextPush(args.concurrent === true);
    return null;
  },
  async faultCounts() {
    return faults?.counts() ?? null;
  },
  async close() {
    outbox?.close();
    await replication?.stop();
    await db?.close();
    return null;
  },
};

port.on('message', (message: { seq: number; cmd: string; args: Args }) => {
  const run = commands[message.cmd];
  const reply = run ? run(message.args) : Promise.reject(new Error(`unknown command ${message.cmd}`));
  reply.then(
    (result) => port.postMessage({ seq: message.seq, result }),
    (err: unknown) => port.postMessage({ seq: message.seq, error: err instanceof Error ? err.stack : String(err) }),
  );
});
