// copyOut reads PostgreSQL's COPY protocol off the socket itself, so it must hold wherever the
// socket cuts the bytes: every test runs with the socket's chunks as they come and again cut
// into pieces of 1, 3 and 7 bytes (a message's header, its body and the next message's type
// split every way), against a real PostgreSQL. Text format is used so each row's message can be
// compared with the row itself.
import { Socket } from 'node:net';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { copyOut } from './copy-out.ts';

const db = useTestDatabase();

/** A socket that hands on what it receives in pieces of at most `size` bytes. */
class CuttingSocket extends Socket {
  constructor(private readonly size: number) {
    super();
  }
  override emit(event: string | symbol, ...args: unknown[]): boolean {
    if (event !== 'data' || !Number.isFinite(this.size)) return super.emit(event, ...args);
    const chunk = args[0] as Buffer;
    for (let at = 0; at < chunk.length; at += this.size) super.emit('data', chunk.subarray(at, at + this.size));
    return true;
  }
}

const clients: pg.Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.end()));
});

async function connect(size: number): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: db.url, stream: () => new CuttingSocket(size) });
  await client.connect();
  clients.push(client);
  return client;
}

/** Every row's message, as text. */
async function rowsOf(client: pg.Client, statement: string): Promise<{ count: number; rows: string[] }> {
  const rows: string[] = [];
  const count = await copyOut(client, statement, (buf, start, end) => {
    rows.push(buf.toString('latin1', start, end));
  });
  return { count, rows };
}

describe.each([Number.POSITIVE_INFINITY, 1, 3, 7])('copyOut, the socket cut every %s bytes', (size) => {
  it('hands over each row whole, in order, small rows and rows longer than a socket read', async () => {
    const client = await connect(size);
    // Rows of up to 200 kB: longer than a socket read (64 kB), so a message spans chunks.
    const { count, rows } = await rowsOf(
      client,
      `copy (select g, repeat(chr(65 + g % 26), case when g % 97 = 0 then 200000 else g % 300 end)
               from generate_series(1, 2000) g) to stdout`,
    );
    expect(count).toBe(2000);
    expect(rows).toHaveLength(2000);
    rows.forEach((row, i) => {
      const g = i + 1;
      const length = g % 97 === 0 ? 200000 : g % 300;
      expect(row).toBe(`${g}\t${String.fromCharCode(65 + (g % 26)).repeat(length)}\n`);
    });
    // The connection is the driver's again: a statement after the COPY answers.
    expect((await client.query('select 41 + 1 as n')).rows).toEqual([{ n: 42 }]);
  });

  it('gives the error PostgreSQL raises in the middle of a COPY, and the connection goes on', async () => {
    const client = await connect(size);
    const rows: string[] = [];
    const failed = await copyOut(
      client,
      'copy (select 1 / (g - 500) from generate_series(1, 1000) g) to stdout',
      (b, s, e) => rows.push(b.toString('latin1', s, e)),
    ).catch((err: unknown) => err);
    expect(failed).toMatchObject({ code: '22012' }); // division_by_zero
    expect(rows.length).toBeLessThan(500);
    expect((await client.query('select 1 as n')).rows).toEqual([{ n: 1 }]);
    // An error before any row (the statement's own) as well.
    await expect(copyOut(client, 'copy (select nothing_here) to stdout', () => undefined)).rejects.toMatchObject({
      code: '42703',
    });
    expect((await client.query('select 2 as n')).rows).toEqual([{ n: 2 }]);
  });

  it("rejects with the caller's error, reads the COPY to its end, and the connection goes on", async () => {
    const client = await connect(size);
    let calls = 0;
    const failed = await copyOut(client, 'copy (select g from generate_series(1, 3000) g) to stdout', () => {
      calls++;
      if (calls === 10) throw new Error('row 10 refused');
    }).catch((err: unknown) => err);
    expect(failed).toMatchObject({ message: 'row 10 refused' });
    expect(calls).toBe(10);
    expect((await client.query('select 3 as n')).rows).toEqual([{ n: 3 }]);
  });

  it('skips the notices a COPY sends between its rows', async () => {
    const client = await connect(size);
    await client.query(`create or replace function pg_temp.noisy(g int) returns int language plpgsql as $$
      begin raise notice 'row %', g; return g; end $$`);
    const { count, rows } = await rowsOf(
      client,
      'copy (select pg_temp.noisy(g) from generate_series(1, 50) g) to stdout',
    );
    expect(count).toBe(50);
    expect(rows).toEqual(Array.from({ length: 50 }, (_, i) => `${i + 1}\n`));
  });
});
