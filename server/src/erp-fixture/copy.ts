// Bulk load through COPY ... FROM STDIN (text format), streamed: rows are encoded into a
// buffer that is handed to the connection every ~256 KB, and the generator waits whenever
// the socket pushes back, so memory stays flat however many rows a scale has.
import { once } from 'node:events';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

export type CopyValue = string | number | null;

const FLUSH_AT = 256 * 1024;
const NEEDS_ESCAPE = /[\\\t\n\r]/;

/** One field in COPY's text format: \\N for null, backslash escapes for the separators. */
export function encodeCopyValue(value: CopyValue): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  return NEEDS_ESCAPE.test(value)
    ? value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
    : value;
}

export class CopyWriter {
  private buffer = '';
  private failure: Error | null = null;
  private done: Promise<void>;
  private closed = false;
  rows = 0;

  private constructor(
    private readonly client: pg.Client,
    private readonly stream: ReturnType<typeof copyFrom>,
  ) {
    this.done = new Promise((resolve, reject) => {
      stream.on('finish', () => resolve());
      stream.on('error', (err: Error) => {
        this.failure = err;
        reject(err);
      });
    });
    // Rejections are surfaced by write() and finish(); this keeps an early one from being unhandled.
    this.done.catch(() => undefined);
  }

  /**
   * Opens a COPY into `table` on a connection of its own (same settings as the pool's), so
   * that several tables can load at once without exhausting a small caller's pool.
   */
  static async open(pool: pg.Pool, table: string, columns: readonly string[]): Promise<CopyWriter> {
    const client = new pg.Client(pool.options);
    client.on('error', () => undefined);
    await client.connect();
    try {
      const stream = client.query(copyFrom(`copy ${table} (${columns.join(', ')}) from stdin`));
      return new CopyWriter(client, stream);
    } catch (err) {
      await client.end();
      throw err;
    }
  }

  /** Adds a row; resolves at once unless the connection asked the generator to wait. */
  async write(row: readonly CopyValue[]): Promise<void> {
    if (this.failure) throw this.failure;
    let line = '';
    for (let i = 0; i < row.length; i++) {
      if (i > 0) line += '\t';
      line += encodeCopyValue(row[i] as CopyValue);
    }
    this.buffer += `${line}\n`;
    this.rows++;
    if (this.buffer.length >= FLUSH_AT) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.buffer.length === 0) return;
    const chunk = this.buffer;
    this.buffer = '';
    if (!this.stream.write(chunk, 'utf8')) {
      await Promise.race([once(this.stream, 'drain'), this.done]);
    }
    if (this.failure) throw this.failure;
  }

  /** Sends what is left, ends the COPY and releases the connection; returns the row count. */
  async finish(): Promise<number> {
    try {
      await this.flush();
      this.stream.end();
      await this.done;
      return this.rows;
    } finally {
      await this.close();
    }
  }

  /** Abandons the COPY (the server rolls it back) and closes the connection. */
  async abort(reason: Error): Promise<void> {
    if (!this.stream.destroyed) this.stream.destroy(reason);
    await this.close();
  }

  private async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.end().catch(() => undefined);
  }
}
