// withScopePipelined sends a transaction's statements in batches, each one round trip with one
// Sync (the order's two round trips, test/hot-path-plans.pg.test.ts): here, what a batch must
// keep of a transaction run one statement at a time. The statements run in the order sent,
// under the scope; a failure rolls everything back, whether its statement was awaited or not;
// the connection goes back to the pool idle, or is replaced when a failed batch may have left a
// statement it prepared unprepared.
import { sql } from 'kysely';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { createDb, type Db } from './kysely.ts';
import { createPool } from './pool.ts';
import { PREPARED } from './prepared.ts';
import { withScopePipelined } from './scope.ts';

const db = useTestDatabase();

describe('withScopePipelined', () => {
  let pool: pg.Pool;
  let kdb: Db;
  const scope = { idEmpresa: 7, codVendedor: 3 };
  const rows = async () => (await pool.query<{ x: number }>('select x from pipelined order by x')).rows.map((r) => r.x);

  beforeAll(async () => {
    await db.pool.query('create table pipelined (x integer primary key, empresa text)');
    // One connection: every transaction below reuses the one before it left in the pool.
    pool = createPool(db.url, 1);
    kdb = createDb(pool);
  });

  afterAll(async () => {
    await pool?.end();
  });

  it('runs statements sent together in order, under the scope, and commits with the last one', async () => {
    const out = await withScopePipelined(kdb, scope, sql<{ one: number }>`1 as one`, async (p, first) => {
      const a = p.send(sql`insert into pipelined values (1, current_setting('campo.id_empresa'))`);
      const b = p.send(sql<{ n: number }>`select count(*)::int as n from pipelined`);
      expect((await first).one).toBe(1);
      await a;
      const [[last]] = await Promise.all([
        p.send(
          sql<{
            n: number;
          }>`insert into pipelined values (2, null) returning (select ${(await b)[0]?.n ?? -1}::int) as n`,
        ),
        p.commit(),
      ]);
      return last?.n;
    });
    // The count was read after the first insert, sent before it was answered.
    expect(out).toBe(1);
    expect(await rows()).toEqual([1, 2]);
    expect((await pool.query('select empresa from pipelined where x = 1')).rows[0]?.empresa).toBe('7');
  });

  it('rolls back when a statement sent with COMMIT fails, and answers with its error', async () => {
    await expect(
      withScopePipelined(kdb, scope, sql`1 as one`, async (p) => {
        void p.send(sql`insert into pipelined values (3, null)`);
        await Promise.all([p.send(sql`insert into pipelined values (1, null)`), p.commit()]);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await rows()).toEqual([1, 2]);
  });

  it('rolls back a statement never awaited that failed, and what fn sent when it throws', async () => {
    await expect(
      withScopePipelined(kdb, scope, sql`1 as one`, async (p) => {
        void p.send(sql`insert into pipelined values (1, null)`);
        void p.send(sql`insert into pipelined values (4, null)`);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    await expect(
      withScopePipelined(kdb, scope, sql`1 as one`, async (p) => {
        void p.send(sql`insert into pipelined values (5, null)`);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await rows()).toEqual([1, 2]);
  });

  it('replaces the connection after a failed batch that prepared statements, so none is left half-prepared', async () => {
    const pid = async () => (await pool.query<{ p: number }>('select pg_backend_pid() as p')).rows[0]?.p;
    const before = await pid();
    // Never run before: the batch prepares it, but PostgreSQL skips its Parse after the failure.
    const marked = sql<{
      x: number;
    }>`${sql.raw(PREPARED)}select x from pipelined where x = ${1} and ${'never'}::text <> ''`;
    await expect(
      withScopePipelined(kdb, scope, sql`1 as one`, async (p) => {
        await Promise.all([p.send(sql`${sql.raw(PREPARED)}select 1 / 0`), p.send(marked), p.commit()]);
      }),
    ).rejects.toMatchObject({ code: '22012' });
    expect(await pid()).not.toBe(before);
    const out = await withScopePipelined(kdb, scope, sql`1 as one`, async (p) => p.send(marked));
    expect(out).toEqual([{ x: 1 }]);
  });

  it("keeps the connection when the batch's ReadyForQuery comes in a later read than its answers", async () => {
    // Statement statistics sent as notices: PostgreSQL flushes each notice at once, so the
    // COMMIT's answer (and its notice) and the Sync's ReadyForQuery leave in two writes.
    const url = new URL(db.url);
    url.searchParams.set('options', '-c log_statement_stats=on -c client_min_messages=log');
    const noisy = createPool(url.toString(), 1);
    try {
      const ndb = createDb(noisy);
      const pids = new Set<number>();
      for (let i = 0; i < 20; i++) {
        await withScopePipelined(ndb, scope, sql<{ pid: number }>`pg_backend_pid() as pid`, async (p, first) => {
          pids.add((await first).pid);
          await Promise.all([p.send(sql`select count(*) from pipelined`), p.commit()]);
        });
      }
      expect(pids.size).toBe(1);
    } finally {
      await noisy.end();
    }
  });

  it('gives the connection back idle, outside any transaction', async () => {
    const client = await pool.connect();
    try {
      expect(client.getTransactionStatus()).toBe('I');
      expect(
        (await client.query<{ s: string }>("select current_setting('campo.id_empresa', true) as s")).rows[0]?.s,
      ).toBe('');
    } finally {
      client.release();
    }
  });
});
