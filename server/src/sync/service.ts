// The replication pull and push (RxDB protocol; docs/sync.md).
//
// Pull: the documents whose latest revision in the change log is after the device's
// checkpoint. Revisions are written by concurrent transactions that commit in any order, so
// the pull reads only those written by transactions older than every Campo transaction still
// in progress (queries.ts), in (xid, revisao) order: anything committed later has a greater
// xid, and no checkpoint ever skips it.
import {
  blankDocument,
  decodeCheckpoint,
  encodeCheckpoint,
  SYNC_SERVED,
  type SyncDocument,
  type SyncPullQuery,
  type SyncPushResult,
  type SyncPushRow,
  type SyncRefreshCounts,
  type SyncServedCollection,
} from '@campo/shared';
import type pg from 'pg';
import { can, scopeOf } from '../auth/authorize.ts';
import { idOfKey, isBuilt, lockFirstBuild } from '../changelog/changelog.ts';
import type { Db } from '../db/kysely.ts';
import { type Scope, type Tx, withScope } from '../db/scope.ts';
import { DomainError, forbidden, notFound } from '../errors.ts';
import type { AuthContext } from '../http/env.ts';
import { log } from '../log.ts';
import { definitionOf, refreshChangeLog } from './collections.ts';
import { type BytePage, copyPage, copyReplicaPage, cp1252Utf8, readReplicaMark } from './page.ts';
import type { PageCache } from './page-cache.ts';
import { changesHeldBack, selectChanges, selectHorizon } from './queries.ts';

const HELD_BACK_WAIT_MS = 5000;
const HELD_BACK_STEP_MS = 25;
const REPLICA_WAIT_MS = 200;
const REPLICA_STEP_MS = 10;
const DOCUMENTS_OPEN = Buffer.from('{"documents":[');

export function collectionOf(name: string): SyncServedCollection {
  const found = SYNC_SERVED.find((c) => c === name);
  if (!found) throw notFound('Coleção');
  return found;
}

function assertMayReplicate(auth: AuthContext, colecao: SyncServedCollection): void {
  if (definitionOf(colecao).representativeOnly && !can(auth, 'sync.representative')) {
    throw forbidden(`Só representantes replicam a coleção ${colecao}.`);
  }
}

/**
 * What a checkpoint is valid for. Supervisors, managers and admins read the tenant's whole
 * collection for now (a supervisor's team is not narrowed yet), so they share the scope `*`.
 */
function scopeKey(scope: Scope, colecao: SyncServedCollection): string {
  return `${scope.idEmpresa}:${colecao}:${scope.codVendedor ?? '*'}`;
}

function checkpointAfter(value: string | undefined, expectedScope: string): { xid: number; revisao: number } {
  if (value === undefined) return { xid: 0, revisao: 0 };
  const data = decodeCheckpoint(value);
  if (!data) throw new DomainError('CHECKPOINT_INVALID', 'Checkpoint malformado.');
  if (data.scope !== expectedScope)
    throw new DomainError(
      'CHECKPOINT_SCOPE',
      'O checkpoint é de outro usuário ou de outra coleção: sincronize do início.',
    );
  return { xid: data.xid, revisao: data.revisao };
}

/** Tenant-wide: the documents of every portfolio are built, whoever asked. */
const tenantScope = (idEmpresa: number): Scope => ({ idEmpresa, codVendedor: null });

/** Refreshes one collection's change log of the tenant. */
export function refreshCollection(
  db: Db,
  idEmpresa: number,
  colecao: SyncServedCollection,
): Promise<SyncRefreshCounts> {
  return withScope(db, tenantScope(idEmpresa), (tx) => refreshChangeLog(tx, idEmpresa, colecao));
}

/**
 * Refreshes every collection of the tenant, each in its own transaction: a long catalog
 * refresh never holds back the writes that touch the other collections.
 */
export async function refreshAll(db: Db, idEmpresa: number): Promise<Record<SyncServedCollection, SyncRefreshCounts>> {
  const result = {} as Record<SyncServedCollection, SyncRefreshCounts>;
  for (const colecao of SYNC_SERVED) result[colecao] = await refreshCollection(db, idEmpresa, colecao);
  return result;
}

/**
 * The (tenant, collection) logs known built, per database: a recorded build is never undone,
 * so once one is seen, a device's first pull of that collection costs no statement more.
 */
const knownBuilt = new WeakMap<Db, Set<string>>();

/**
 * A fresh install works without a refresh: the first pull of a collection whose build was
 * never recorded (app.sync_construidas) builds it whole, whatever the log already holds (a
 * write before any build logs its own documents only). Devices starting at once wait for the
 * first one's build and then find it recorded.
 */
async function ensureChangeLog(db: Db, idEmpresa: number, colecao: SyncServedCollection): Promise<void> {
  let known = knownBuilt.get(db);
  if (!known) {
    known = new Set();
    knownBuilt.set(db, known);
  }
  const key = `${idEmpresa}:${colecao}`;
  if (known.has(key)) return;
  await withScope(db, tenantScope(idEmpresa), async (tx) => {
    if (await isBuilt(tx, idEmpresa, colecao)) return;
    await lockFirstBuild(tx, idEmpresa, colecao);
    // A statement of its own, so a snapshot taken after the lock: another first pull may have
    // built it while this one waited.
    if (await isBuilt(tx, idEmpresa, colecao)) return;
    await refreshChangeLog(tx, idEmpresa, colecao);
  });
  known.add(key);
}

async function buildDocuments(tx: Tx, idEmpresa: number, colecao: SyncServedCollection, chaves: string[]) {
  if (chaves.length === 0) return new Map<string, unknown>();
  const definition = definitionOf(colecao);
  if (definition.sql) {
    const rows = (await definition.sql.documents(idEmpresa, chaves.map(idOfKey)).execute(tx)).rows;
    return new Map(rows.map((d) => [d.chave, d.doc]));
  }
  const docs = await definition.load(tx, idEmpresa, chaves);
  return new Map(docs.map((d) => [d.chave, d.doc as unknown]));
}

/**
 * A hot standby the pull's fast path reads from (DATABASE_REPLICA_URL; docs/deployment.md,
 * "Scaling past one machine", 3). Everything else, and every page the standby cannot answer yet,
 * stays on the primary.
 */
export interface PullReplica {
  pool: pg.Pool;
  /** How long a page waits for the standby to replay what the primary's mark needs before it is read on the primary. */
  waitMs?: number;
  /** Where each fast-path page was read (metrics, tests). */
  onPage?: (source: 'replica' | 'primary') => void;
}

/**
 * One fast-path page: on the standby once it has replayed past the primary's mark (the
 * horizon and the WAL position after it), otherwise, or when the standby fails, on the primary.
 */
async function fastPage(
  deps: { pool: pg.Pool; replica?: PullReplica | undefined },
  window: Parameters<typeof copyPage>[1],
): Promise<BytePage> {
  const replica = deps.replica;
  if (!replica) return copyPage(deps.pool, window);
  const mark = await readReplicaMark(deps.pool);
  try {
    const deadline = Date.now() + (replica.waitMs ?? REPLICA_WAIT_MS);
    for (;;) {
      const page = await copyReplicaPage(replica.pool, window, mark);
      if (page) {
        replica.onPage?.('replica');
        return page;
      }
      if (Date.now() >= deadline) break;
      await new Promise((r) => setTimeout(r, REPLICA_STEP_MS));
    }
  } catch (err) {
    // A standby down, or a page cancelled by a conflict with recovery: the primary answers.
    log.warn('pull: the standby failed, reading the primary', {
      error: err instanceof Error ? err.message : String(err),
    });
  }
  replica.onPage?.('primary');
  return copyPage(deps.pool, window);
}

/** What a pull asks for, authorised: its collection, scope, checkpoint and window. */
export function pullWindow(auth: AuthContext, name: string, query: SyncPullQuery) {
  const colecao = collectionOf(name);
  assertMayReplicate(auth, colecao);
  const scope = scopeOf(auth);
  const key = scopeKey(scope, colecao);
  const after = checkpointAfter(query.checkpoint, key);
  const window = {
    idEmpresa: scope.idEmpresa,
    colecao,
    codVendedor: scope.codVendedor,
    // Every representative's ceilings are a document 'tetos' of their own: someone who is
    // not a representative has none, and must not get every one under the same id.
    tenantWideOnly: definitionOf(colecao).tenantWideOnlyWithoutRepresentative === true && scope.codVendedor === null,
    after,
    limit: query.limit,
  };
  return { colecao, scope, key, after, window };
}

export type PullWindow = ReturnType<typeof pullWindow>;

/**
 * The answer of a pull when the process still keeps it (page-cache.ts): the route serves it
 * without a place in the download line, since it costs the database nothing.
 */
export function keptPull(deps: { pages?: PageCache }, w: PullWindow): Buffer<ArrayBuffer> | undefined {
  return deps.pages?.get(w.window);
}

/**
 * One pull page as the bytes of its JSON answer ({ documents, checkpoint }, ZSyncPull). The
 * documents' stored JSON is copied as PostgreSQL sent it (page.ts), never parsed and
 * re-serialised here: that per-document work was most of a pull's cost. A page with a deletion
 * or a row written before the log kept documents is built in TypeScript (answerOf). A full
 * page goes through the process's page cache when there is one.
 */
export async function pull(
  deps: { db: Db; pool: pg.Pool; replica?: PullReplica | undefined; pages?: PageCache },
  w: PullWindow,
): Promise<Buffer<ArrayBuffer>> {
  if (w.after.xid === 0 && w.after.revisao === 0) await ensureChangeLog(deps.db, w.scope.idEmpresa, w.colecao);
  if (!deps.pages) return (await readPage(deps, w)).body;
  return deps.pages.through(w.window, () => readPage(deps, w));
}

async function readPage(
  deps: { db: Db; pool: pg.Pool; replica?: PullReplica | undefined },
  { colecao, scope, key, after, window }: PullWindow,
): Promise<{ body: Buffer<ArrayBuffer>; full: boolean }> {
  const { db } = deps;
  // A short page means "up to date" to the device: never answer one while changes it should
  // get wait behind a transaction still in progress (a refresh of another collection, an
  // order being written). Each try is a new snapshot; after HELD_BACK_WAIT_MS the device
  // gets what there is and hears of the rest from the change stream.
  for (let waited = 0; ; waited += HELD_BACK_STEP_MS) {
    const page = await fastPage(deps, window);
    const wait = page.n < window.limit && page.heldBack && waited < HELD_BACK_WAIT_MS;
    if (!wait && !page.special) {
      const checkpoint = encodeCheckpoint({ ...(page.last ?? after), scope: key });
      const body = cp1252Utf8(page.join(DOCUMENTS_OPEN, Buffer.from(`],"checkpoint":${JSON.stringify(checkpoint)}}`)));
      return { body, full: page.n === window.limit };
    }
    if (!wait) {
      const answer = await withScope(db, scope, async (tx) => {
        const bounded = { ...window, horizon: await selectHorizon(tx) };
        const changes = await selectChanges(tx, bounded);
        if (changes.length < window.limit && waited < HELD_BACK_WAIT_MS && (await changesHeldBack(tx, bounded))) {
          return null;
        }
        return answerOf(tx, changes);
      });
      if (answer !== null) return { body: Buffer.from(answer), full: false };
    }
    await new Promise((r) => setTimeout(r, HELD_BACK_STEP_MS));
  }

  /** A page with a deletion or a row without stored JSON, built here in commit order. */
  async function answerOf(tx: Tx, changes: Awaited<ReturnType<typeof selectChanges>>): Promise<string> {
    // A client moved between portfolios reaches a tenant-wide reader as a deletion then the
    // new document, under the same id: the order within the page matters.
    const documents = await documentsOfChanges(tx, changes);
    const end = changes.at(-1);
    const checkpoint = encodeCheckpoint({ ...(end ? { xid: end.xid, revisao: end.revisao } : after), scope: key });
    return JSON.stringify({ documents, checkpoint });
  }

  async function documentsOfChanges(tx: Tx, changes: Awaited<ReturnType<typeof selectChanges>>) {
    // Documents are answered as the change log stored them; only rows written before it kept
    // documents (migration 0012, until the next refresh rewrites them) are built here.
    const legacy = await buildDocuments(
      tx,
      scope.idEmpresa,
      colecao,
      changes.filter((c) => c.dados === null && !c.excluido).map((c) => c.chave),
    );
    return changes.map((c) => {
      const stored = c.dados === null ? legacy.get(c.chave) : (JSON.parse(c.dados) as Record<string, unknown>);
      // A deletion carries the last known document, so it validates against the collection's
      // schema; a key that left its source before the log kept documents gets a blank one.
      if (c.excluido || stored === undefined) {
        return stored === undefined
          ? blankDocument(colecao, c.documento)
          : ({ ...(stored as object), _deleted: true } as SyncDocument);
      }
      return stored as SyncDocument;
    });
  }
}

export async function push(db: Db, auth: AuthContext, name: string, rows: SyncPushRow[]): Promise<SyncPushResult> {
  const colecao = collectionOf(name);
  const apply = definitionOf(colecao).push;
  if (!apply) throw notFound('Coleção');
  assertMayReplicate(auth, colecao);
  return apply(db, auth, rows);
}
