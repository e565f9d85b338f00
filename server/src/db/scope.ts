// Every request that reads or writes tenant data runs inside withScope: one transaction whose
// first statement sets campo.id_empresa (and campo.cod_vendedor for a representative). The
// row-level security policies on the app tables read those settings, so a query that forgets
// its tenant filter still sees only the caller's rows (defence in depth; see docs/security.md).
import { CompiledQuery, type RawBuilder, sql, type Transaction } from 'kysely';
import type pg from 'pg';
import { Batch, type BatchStatement } from './batch.ts';
import { type Db, poolOf } from './kysely.ts';
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
    await sql`${sql.raw(PREPARED)}select ${scopeSettings(scope)}`.execute(tx);
    return fn(tx);
  });
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
    const head = handled(
      pipeline.send(sql<R>`${sql.raw(PREPARED)}select ${scopeSettings(scope)}, ${first}`).then((rows) => rows[0] as R),
    );
    try {
      const out = await fn(pipeline, head);
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

function scopeSettings(scope: Scope) {
  // The business calendar is São Paulo's: current_date in views (rules in force, today's
  // positivation) and timestamps written into the ERP follow it, whatever the server's zone.
  // The shared lock registers the transaction before it can take an xid (see WRITER_LOCK_NS).
  return sql`set_config('campo.id_empresa', ${String(scope.idEmpresa)}, true),
             set_config('campo.cod_vendedor', ${scope.codVendedor === null ? '' : String(scope.codVendedor)}, true),
             set_config('TimeZone', 'America/Sao_Paulo', true),
             pg_advisory_xact_lock_shared(${WRITER_LOCK_NS}, pg_backend_pid())`;
}
