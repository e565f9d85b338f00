// A COPY ... TO STDOUT read straight off the connection's socket: each row's CopyData message is
// handed to the caller as a view of the socket chunk it arrived in, and only a message split
// between two chunks is copied (into one buffer, reused). pg-copy-streams' reader, which the
// pull used before, slices every message into a new Buffer and copies each socket chunk's rows
// into another; the pull then joined those and sliced each document out again. At 10,000 rows a
// page that per-row garbage and those copies were a third of the API server's CPU per initial
// sync (docs/benchmarks.md, "Pull"). Taking the socket from the driver and handing it back
// follows pg-copy-streams (copy-to.js); the protocol is PostgreSQL's ("COPY Operations":
// CopyOutResponse, then CopyData messages, "always one per row", then CopyDone).
import type pg from 'pg';

/** One CopyData message: `buf` from `start` (inclusive) to `end` (exclusive). */
export type CopyDataHandler = (buf: Buffer, start: number, end: number) => void;

const COPY_DATA = 0x64; // 'd'
const COPY_DONE = 0x63; // 'c'
const ERROR_RESPONSE = 0x45; // 'E'
const HEADER = 5; // a type byte and a 32-bit length that counts itself

/**
 * Runs `statement` (a COPY ... TO STDOUT) on `client` and calls `onData` with every CopyData
 * message in order; resolves with the row count once the server is ready for the next
 * statement. An error thrown by `onData` stops the calls, lets the COPY run to its end (so the
 * connection stays in step) and rejects with it.
 */
export function copyOut(
  client: pg.PoolClient | pg.Client,
  statement: string,
  onData: CopyDataHandler,
): Promise<number> {
  return new Promise((resolve, reject) => {
    client.query(new CopyOut(statement, onData, resolve, reject));
  });
}

class CopyOut implements pg.Submittable {
  private connection: pg.Connection | null = null;
  private driverOnData: ((chunk: Buffer) => void) | null = null;
  private readonly onChunk = (chunk: Buffer) => this.read(chunk);
  /** The header being read when it straddles two chunks. */
  private readonly header = Buffer.alloc(HEADER);
  private headerFill = 0;
  private type = 0;
  /** Bytes of the current message's body still to come; -1 between messages. */
  private left = -1;
  /** A CopyData message split between chunks, gathered. */
  private split = Buffer.alloc(0);
  private splitFill = 0;
  private rows = 0;
  private failure: Error | null = null;
  private settled = false;

  constructor(
    private readonly text: string,
    private readonly onData: CopyDataHandler,
    private readonly resolve: (rows: number) => void,
    private readonly reject: (err: Error) => void,
  ) {}

  /**
   * Called by the driver when the connection is free: takes the socket (whose one 'data'
   * listener is the driver's parser), then sends the statement.
   */
  submit(connection: pg.Connection): void {
    this.connection = connection;
    const listeners = connection.stream.listeners('data');
    if (listeners.length !== 1) throw new Error(`COPY: the connection has ${listeners.length} data listeners, not 1`);
    this.driverOnData = listeners[0] as (chunk: Buffer) => void;
    connection.stream.removeListener('data', this.driverOnData);
    connection.stream.on('data', this.onChunk);
    connection.query(this.text);
  }

  private read(chunk: Buffer): void {
    let at = 0;
    const length = chunk.length;
    while (at < length) {
      if (this.left < 0) {
        // The driver parses an error itself (and then calls handleError): hand the socket back
        // before the error's first byte.
        if (this.headerFill === 0 && chunk[at] === ERROR_RESPONSE) {
          this.handBack(chunk, at);
          return;
        }
        if (this.headerFill === 0 && length - at >= HEADER) {
          this.type = chunk[at] as number;
          this.left = chunk.readUInt32BE(at + 1) - 4;
          at += HEADER;
        } else {
          while (this.headerFill < HEADER && at < length) this.header[this.headerFill++] = chunk[at++] as number;
          if (this.headerFill < HEADER) return;
          this.headerFill = 0;
          this.type = this.header[0] as number;
          this.left = this.header.readUInt32BE(1) - 4;
        }
        if (this.type === COPY_DONE) {
          this.left = -1;
          this.handBack(chunk, at);
          return;
        }
        if (this.type === COPY_DATA && length - at >= this.left) {
          this.deliver(chunk, at, at + this.left);
          at += this.left;
          this.left = -1;
          continue;
        }
        if (this.type === COPY_DATA && this.split.length < this.left) this.split = Buffer.allocUnsafe(this.left);
        this.splitFill = 0;
      }
      // The body of a message that goes on into the next chunk (or one to skip: the
      // CopyOutResponse, a notice, a parameter status).
      const n = Math.min(this.left, length - at);
      if (this.type === COPY_DATA) this.splitFill += chunk.copy(this.split, this.splitFill, at, at + n);
      at += n;
      this.left -= n;
      if (this.left === 0) {
        this.left = -1;
        if (this.type === COPY_DATA) this.deliver(this.split, 0, this.splitFill);
      }
    }
  }

  private deliver(buf: Buffer, start: number, end: number): void {
    if (this.failure) return;
    try {
      this.onData(buf, start, end);
    } catch (err) {
      this.failure = err instanceof Error ? err : new Error(String(err));
    }
  }

  /** Gives the socket back to the driver's parser with what is left of this chunk. */
  private handBack(chunk: Buffer, at: number): void {
    const { connection, driverOnData } = this;
    if (!connection || !driverOnData) return;
    connection.stream.removeListener('data', this.onChunk);
    connection.stream.on('data', driverOnData);
    this.driverOnData = null;
    if (at < chunk.length) driverOnData(chunk.subarray(at));
  }

  handleCommandComplete(msg: { text?: string }): void {
    const rows = /^COPY (\d+)/.exec(msg.text ?? '')?.[1];
    if (rows !== undefined) this.rows = Number(rows);
  }

  handleReadyForQuery(): void {
    this.settle(this.failure);
  }

  handleError(err: Error): void {
    // PostgreSQL's error, parsed by the driver after the hand-back; or a broken socket, still
    // ours, on which nothing more will come.
    this.settle(err);
  }

  private settle(err: Error | null): void {
    if (this.settled) return;
    this.settled = true;
    if (err) this.reject(err);
    else this.resolve(this.rows);
  }
}
