// Every request that reads or writes tenant data runs inside withScope: one transaction whose
// first statement sets campo.id_empresa (and campo.cod_vendedor for a representative). The
// row-level security policies on the app tables read those settings, so a query that forgets
// its tenant filter still sees only the caller's rows (defence in depth; see docs/security.md).
import { CompiledQuery, type RawBuilder, type Transaction } from 'kysely';
import type pg from 'pg';
import { Batch, type BatchStatement } from './batch.ts';
import type { Db } from './kysely.ts';
import { poolOf } from './pools.ts';
import { PREPARED, statementOf } from './prepared.ts';
import type { DB } from './types.ts';

export type Tx = Transaction<DB>;

export interface Scope {
  idEmpresa: number;
  /** Set for representatives only: their rows, and no other representative's. */
  codVendedor: number | null;
}

/**
 * Advisory-lock namespace (classid) under which every Campo transaction registers its backend
 * for its whole life: the replication pull reads the transaction ids of the registered
 * backends from pg_locks, so it waits for Campo's own writers only — never for the ERP's
 * long transactions (server/src/sync/queries.ts).
 */
export const WRITER_LOCK_NS = 1128353104;

export function withScope<T>(db: Db, scope: Scope, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (tx) => {
    await setScope(tx, scope);
    return fn(tx);
  });
}

/**
 * The select-list items every transaction that reads or writes tenant data opens with (a
 * request's, a pull page's, the push worker's): the settings row-level security reads, São
 * Paulo's calendar (current_date in views, such as the rules in force and today's positivation,
 * and the timestamps written into the ERP follow it, whatever the server's zone), and the shared
 * lock that registers the transaction before it can take an xid (see WRITER_LOCK_NS). Its two
 * parameters are $n and $n+1, in scopeParameters' order.
 *
 * `writerLock: false` leaves the registration out, for a transaction that writes no change-log
 * row: a read on a hot standby (which has no Campo writers to register against), and the push
 * worker, whose transaction holds its xid while it sends to the push services (seconds): every
 * pull in the database would wait for it (sync/queries.ts, HORIZON_SQL) for nothing.
 */
export function scopeSettingsSql(n = 1, { writerLock = true } = {}): string {
  const settings = `set_config('campo.id_empresa', $${n}, true),
       set_config('campo.cod_vendedor', $${n + 1}, true),
       set_config('TimeZone', 'America/Sao_Paulo', true)`;
  return writerLock
    ? `${settings},\n       pg_advisory_xact_lock_shared(${WRITER_LOCK_NS}, pg_backend_pid())`
    : settings;
}

/** The values of scopeSettingsSql's parameters: the tenant, and the representative or ''. */
export function scopeParameters(scope: Scope): [string, string] {
  return [String(scope.idEmpresa), scope.codVendedor === null ? '' : String(scope.codVendedor)];
}

/**
 * Sets a transaction up for a tenant: withScope's first statement, and the push worker's for each
 * tenant of its batch in turn (without the writer lock, see scopeSettingsSql).
 */
export async function setScope(tx: Tx, scope: Scope, options: { writerLock?: boolean } = {}): Promise<void> {
  const text = `${PREPARED}select ${scopeSettingsSql(1, options)}`;
  await tx.executeQuery(CompiledQuery.raw(text, scopeParameters(scope)));
}

/** A transaction's statements sent without waiting for the answers of those before them. */
export interface Pipeline {
  /** Sends the statement, behind those sent before (with them, if sent in the same turn); its rows once it has run. */
  send<R>(statement: RawBuilder<R>): Promise<R[]>;
  /**
   * Sends COMMIT, behind the statements sent: it answers once the transaction committed, or
   * fails when a statement before it failed (that statement's promise fails too).
   */
  commit(): Promise<void>;
}

/**
 * withScope for a transaction whose statements go out in batches: the statements sent in one
 * turn of the event loop (before fn's next await) leave together, in one round trip with one
 * Sync (db/batch.ts). BEGIN and the scope's statement go out with whatever fn sends before its
 * first await, and fn may send COMMIT with its last statement. The order, the busiest route,
 * holds its connection for two round trips instead of six, and its backend answers two
 * Syncs instead of seven (docs/orders.md, "Cost"). The scope's statement also selects `first`
 * (select-list items, evaluated after the settings): its row is fn's second argument. A
 * statement sent without waiting still runs after those before it; one that fails makes the
 * rest of the transaction fail, and it rolls back.
 */
export async function withScopePipelined<T, R>(
  db: Db,
  scope: Scope,
  first: RawBuilder<R>,
  fn: (p: Pipeline, first: Promise<R>) => Promise<T>,
): Promise<T> {
  const client = await poolOf(db).connect();
  const sent: Promise<unknown>[] = [];
  let queued: { statement: BatchStatement; resolve: (rows: unknown[]) => void; reject: (err: unknown) => void }[] = [];
  // A failed batch may leave statements it prepared unprepared on the backend: the connection
  // is then closed rather than returned to the pool.
  let unreliable = false;
  let last: Batch | null = null;
  const flush = () => {
    const items = queued;
    queued = [];
    const batch: Batch = new Batch(
      items.map((i) => i.statement),
      items.map((i) => ({
        resolve: i.resolve,
        reject: (err: unknown) => {
          if (batch.parsedAny) unreliable = true;
          i.reject(err);
        },
      })),
    );
    last = batch;
    client.query(batch as unknown as pg.QueryConfig);
  };
  const run = (query: CompiledQuery) => {
    const answer = new Promise<unknown[]>((resolve, reject) => {
      if (queued.length === 0) queueMicrotask(flush);
      queued.push({
        statement: { ...statementOf(client, query.sql), values: query.parameters },
        resolve,
        reject,
      });
    });
    sent.push(answer);
    return handled(answer);
  };
  let ended = false;
  const pipeline: Pipeline = {
    send: <X>(statement: RawBuilder<X>) => handled(run(statement.compile(db)).then((rows) => rows as X[])),
    commit: () => {
      ended = true;
      return handled(run(CompiledQuery.raw(`${PREPARED}commit`)).then(() => undefined));
    },
  };
  try {
    void run(CompiledQuery.raw(`${PREPARED}begin`));
    // The scope's items come first, so they run before first's; their parameters follow first's.
    const head = first.compile(db);
    const settings = scopeSettingsSql(head.parameters.length + 1);
    const firstRow = handled(
      run(
        CompiledQuery.raw(`${PREPARED}select ${settings}, ${head.sql}`, [
          ...head.parameters,
          ...scopeParameters(scope),
        ]),
      ).then((rows) => rows[0] as R),
    );
    try {
      const out = await fn(pipeline, firstRow);
      if (!ended) await pipeline.commit();
      // A statement fn sent and never awaited failed: the COMMIT behind it rolled back.
      const failed = (await Promise.allSettled(sent)).find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
      return out;
    } catch (err) {
      // Also after COMMIT was sent: PostgreSQL skips the rest of a batch after a failure, the
      // COMMIT with it, and the transaction stays open until this. (Where COMMIT did run, the
      // ROLLBACK finds no transaction: a warning, not an error.)
      void run(CompiledQuery.raw('rollback'));
      throw err;
    }
  } finally {
    // Every answer in, and the last batch's ReadyForQuery, before the connection goes back to
    // the pool: the transaction status is then current. One left inside a transaction (its
    // connection lost) or unreliable is closed instead. Released on the COMMIT's answer alone,
    // a connection whose ReadyForQuery came in a later read still showed the status of the
    // batch before, inside the transaction, and was closed: with notices on, every order.
    await Promise.allSettled(sent);
    await (last as Batch | null)?.settled;
    client.release(unreliable || client.getTransactionStatus() !== 'I');
  }
}

/**
 * The promise itself, with its failure marked as handled: it is seen by whoever awaits the
 * statement, and at the end of the transaction; never as a rejection nobody handled while fn
 * awaits something else, or sent a statement it does not read.
 */
function handled<X>(promise: Promise<X>): Promise<X> {
  promise.catch(() => undefined);
  return promise;
}
