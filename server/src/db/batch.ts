// A round trip of several statements with one Sync: node-postgres ends every statement with
// a Sync of its own, and PostgreSQL answers each Sync with ReadyForQuery and a write to the
// socket. The order's transaction went out as six statements, each its own Sync, and the
// order's backend spent more CPU on those writes than on any statement but two
// (docs/orders.md, "Cost"). A Batch sends its statements back to back (Parse when the
// connection has not prepared them, Bind, Describe, Execute) and one Sync at the end: one
// ReadyForQuery, one write, whatever the number of statements.
import pg from 'pg';
// Not in @types/pg: the driver's own conversion of a parameter to its wire form (arrays, Buffers,
// dates, null), so a batch sends values exactly as client.query does.
// @ts-expect-error pg/lib/utils.js has no type declarations
import utils from 'pg/lib/utils.js';

/** node-postgres' result builder (pg.Result, not in @types/pg): rows parsed by the process's type parsers. */
interface ResultBuilder {
  rows: unknown[];
  addFields(fields: unknown[]): void;
  parseRow(fields: unknown[]): unknown;
  addRow(row: unknown): void;
}
const Result = (pg as unknown as { Result: new () => ResultBuilder }).Result;
const prepareValue = (utils as { prepareValue: (v: unknown) => unknown }).prepareValue;

/** One statement of a batch: its text, parameters, and the prepared statement's name ('' for none). */
export interface BatchStatement {
  text: string;
  values: readonly unknown[];
  name: string;
}

/** What the batch uses of node-postgres' connection (pg/lib/connection.js). */
interface Connection {
  stream: { cork?: () => void; uncork?: () => void };
  parsedStatements: Record<string, string>;
  parse(msg: { text: string; name: string; types: unknown[] }): void;
  bind(msg: { portal: string; statement: string; values: readonly unknown[]; valueMapper: unknown }): void;
  describe(msg: { type: 'P'; name: string }): void;
  execute(msg: { portal: string; rows: number }): void;
  sync(): void;
}

interface BackendMessage {
  fields: unknown[];
}

type Rows = Record<string, unknown>[];

interface Waiting {
  resolve: (rows: Rows) => void;
  reject: (err: unknown) => void;
}

/**
 * A submittable (client.query(batch)): node-postgres hands it every backend message until the
 * Sync's ReadyForQuery, or the first error. PostgreSQL skips the statements after an error
 * until the Sync; each of them fails with that error. Statements it prepares are marked
 * prepared on the connection when sent: should the batch fail, some may not be, so the
 * connection must then be discarded (`parsedAny`).
 */
export class Batch {
  private readonly waiting: Waiting[];
  private next = 0;
  private result: ResultBuilder | null = null;
  private rowError: unknown = null;
  /** Whether the batch prepared a statement: after a failure the connection is unreliable. */
  parsedAny = false;
  private settle: () => void = () => undefined;
  /**
   * Settles when node-postgres is done with the batch: at its Sync's ReadyForQuery (the
   * connection's transaction status is then the one after it), or at its first error. Its
   * statements' answers come earlier, each at its CommandComplete, and ReadyForQuery may come
   * in a later read of the socket (a notice makes PostgreSQL flush what it has written).
   */
  readonly settled = new Promise<void>((resolve) => {
    this.settle = resolve;
  });

  constructor(
    readonly statements: readonly BatchStatement[],
    waiting: readonly Waiting[],
  ) {
    this.waiting = [...waiting];
  }

  submit(connection: Connection): void {
    connection.stream.cork?.();
    try {
      for (const s of this.statements) {
        if (s.name === '' || connection.parsedStatements[s.name] === undefined) {
          connection.parse({ text: s.text, name: s.name, types: [] });
          if (s.name !== '') {
            connection.parsedStatements[s.name] = s.text;
            this.parsedAny = true;
          }
        }
        connection.bind({ portal: '', statement: s.name, values: s.values, valueMapper: prepareValue });
        connection.describe({ type: 'P', name: '' });
        connection.execute({ portal: '', rows: 0 });
      }
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
  }

  private current(): ResultBuilder {
    this.result ??= new Result();
    return this.result;
  }

  handleRowDescription(msg: BackendMessage): void {
    this.current().addFields(msg.fields);
  }

  handleDataRow(msg: BackendMessage): void {
    if (this.rowError) return;
    const result = this.current();
    try {
      result.addRow(result.parseRow(msg.fields));
    } catch (err) {
      // A value the type parser refused: the statement fails, once its command is complete.
      this.rowError = err;
    }
  }

  handleCommandComplete(): void {
    const rows = this.result?.rows ?? [];
    this.result = null;
    const w = this.waiting[this.next++];
    if (!w) return;
    if (this.rowError) w.reject(this.rowError);
    else w.resolve(rows as Rows);
    this.rowError = null;
  }

  handleEmptyQuery(): void {
    this.handleCommandComplete();
  }

  /** Fails the statements not answered yet. node-postgres hands the batch nothing after an error. */
  handleError(err: unknown): void {
    for (const w of this.waiting.slice(this.next)) w.reject(err);
    this.next = this.waiting.length;
    this.settle();
  }

  handleReadyForQuery(): void {
    // Every statement answered before the Sync's ReadyForQuery; one that did not was skipped.
    this.handleError(new Error('the batch ended before all its statements answered'));
  }

  handlePortalSuspended(): void {
    this.handleError(new Error('a batch statement was suspended'));
  }

  handleCopyInResponse(): void {
    this.handleError(new Error('COPY cannot run in a batch'));
  }

  handleCopyData(): void {}
}
