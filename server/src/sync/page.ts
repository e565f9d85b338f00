// The pull's fast path (docs/sync.md, "Pull throughput"): one page of stored documents read as
// bytes and copied to the answer. PostgreSQL sends the page's stored JSON through COPY ... TO
// STDOUT (binary), read off the socket as it comes (db/copy-out.ts): no row object, no UTF-8
// decoding into a string and encoding back, no JSON.parse or stringify per document. Node's
// work per document is one copy, from the socket's chunk into a block, and the blocks' one copy
// into the answer.
import { readCp1252 } from '@campo/shared';
import type pg from 'pg';
import { copyOut } from '../db/copy-out.ts';
import { PREPARED } from '../db/prepared.ts';
import { scopeParameters, scopeSettingsSql } from '../db/scope.ts';
import { type ChangeWindow, HORIZON_SQL } from './queries.ts';

export interface BytePage {
  /** Rows in the page. */
  n: number;
  /**
   * The page holds a deletion or a row written before the log kept documents: `documents` is
   * then empty and the caller builds the page itself (service.ts).
   */
  special: boolean;
  /** Rows after the page's end are held back by a Campo transaction still in progress. */
  heldBack: boolean;
  last: { xid: number; revisao: number } | null;
  /**
   * `before`, the documents' stored JSON with commas between them (UTF-8, as PostgreSQL sent
   * them), then `after`, in one new buffer; once per page.
   */
  join(before: Buffer, after: Buffer): Buffer<ArrayBuffer>;
}

/** An integer for a SQL literal; anything else is a bug upstream, never interpolated. */
function int(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`not an integer: ${value}`);
  return String(value);
}

/**
 * What a pull read on the primary lets a hot standby answer (docs/deployment.md, "Scaling past
 * one machine", 3): the horizon, then the primary's WAL insert position, read in that order. Every
 * Campo transaction below the horizon had finished when it was read, so its commit record lies
 * before `lsn`; a standby that has replayed up to `lsn` sees every change-log row below the
 * horizon, in its final state as of then, as the primary would.
 */
export interface ReplicaMark {
  horizon: number;
  /** pg_current_wal_insert_lsn() read after the horizon (the insert position covers commits not yet flushed). */
  lsn: string;
}

/** Reads a ReplicaMark on the primary: two statements, sent at once, run in order. */
export async function readReplicaMark(pool: pg.Pool): Promise<ReplicaMark> {
  const results = (await pool.query(
    `select ${HORIZON_SQL}::text as horizon; select pg_current_wal_insert_lsn()::text as lsn`,
  )) as unknown as [pg.QueryResult<{ horizon: string }>, pg.QueryResult<{ lsn: string }>];
  const lsn = results[1].rows[0]?.lsn ?? '';
  if (!LSN.test(lsn)) throw new Error(`pull: not a WAL position: ${lsn}`);
  return { horizon: Number(results[0].rows[0]?.horizon), lsn };
}

const LSN = /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/i;

const SCOPE_AND_HORIZON = `${PREPARED}select ${scopeSettingsSql()},
       ${HORIZON_SQL}::text as horizon`;
const SCOPE_AND_REPLAYED = `${PREPARED}select ${scopeSettingsSql(1, { writerLock: false })},
       coalesce(pg_last_wal_replay_lsn() >= $3::pg_lsn, false) as replayed`;

/**
 * Reads one page: the transaction with the caller's scope and the horizon (read in its own
 * statement, before the page's snapshot, as queries.ts explains), the page (its first
 * SHORT_PAGE rows prepared, the rest of a long page through COPY), and the commit.
 */
export async function copyPage(pool: pg.Pool, w: Omit<ChangeWindow, 'horizon'>): Promise<BytePage> {
  return (await readPage(pool, w, null)) as BytePage;
}

/**
 * The same page read on a hot standby with the horizon the primary gave: null, having read
 * nothing, while the standby has not replayed up to the mark's position. The check is its own
 * statement, before the page's (read committed: each statement takes a new snapshot), so the
 * page's snapshot includes all the check saw replayed.
 */
export function copyReplicaPage(
  pool: pg.Pool,
  w: Omit<ChangeWindow, 'horizon'>,
  mark: ReplicaMark,
): Promise<BytePage | null> {
  if (!LSN.test(mark.lsn)) throw new Error(`pull: not a WAL position: ${mark.lsn}`);
  return readPage(pool, w, mark);
}

async function readPage(
  pool: pg.Pool,
  w: Omit<ChangeWindow, 'horizon'>,
  mark: ReplicaMark | null,
): Promise<BytePage | null> {
  const client = await pool.connect();
  let failed: Error | undefined;
  try {
    const colecao = client.escapeLiteral(w.colecao);
    const codVendedor = w.codVendedor === null ? '' : int(w.codVendedor);
    // As withScope: the settings row-level security reads, São Paulo's calendar, and the
    // registration of the transaction (a pull takes no xid, but the rule is one for all; a
    // standby takes no such lock, and has no Campo writers to register against). Prepared,
    // BEGIN on its own: a round trip costs PostgreSQL less than planning the horizon's read.
    const settings = scopeParameters(w);
    let horizon: string;
    await client.query('begin');
    if (mark === null) {
      const { rows } = await client.query<{ horizon: string }>(SCOPE_AND_HORIZON, settings);
      horizon = int(Number(rows[0]?.horizon));
    } else {
      // Null on a server that is not a standby: never taken as replayed.
      const { rows } = await client.query<{ replayed: boolean }>(SCOPE_AND_REPLAYED, [...settings, mark.lsn]);
      if (rows[0]?.replayed !== true) {
        await client.query('rollback');
        return null;
      }
      horizon = int(mark.horizon);
    }
    const short = await shortPage(client, w, horizon);
    if (short) {
      await client.query('commit');
      return short;
    }
    const scope = w.tenantWideOnly
      ? 'and escopo is null'
      : w.codVendedor !== null
        ? `and (escopo is null or escopo = ${codVendedor})`
        : '';
    const after = `(${int(w.after.xid)}::bigint, ${int(w.after.revisao)}::bigint)`;
    const where = `id_empresa = ${int(w.idEmpresa)} and colecao = ${colecao} and (xid, revisao) > ${after} ${scope}`;
    // One row per document, straight off the index in commit order, then one last row
    // (xid null) that says whether later rows are held back by a transaction in progress.
    const page = new CopiedPage();
    await copyOut(
      client,
      `copy (
        with pagina as (
          select xid, revisao, excluido or dados is null as especial, dados from app.sync_alteracoes
           where ${where} and xid < ${horizon}
           order by xid, revisao
           limit ${int(w.limit)})
        select * from pagina
        union all
        select null, null, exists (select 1 from app.sync_alteracoes where ${where} and xid >= ${horizon}), null
      ) to stdout (format binary)`,
      page.row,
    );
    await client.query('commit');
    return page.done();
  } catch (err) {
    failed = err as Error;
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    // A connection that failed mid-COPY is not handed to the next request.
    client.release(failed);
  }
}

/**
 * Most pulls are a device catching up: a few rows, often none. COPY cannot be prepared, so its
 * statement is planned on every pull (0.25 ms of planning for 0.04 ms of running on an empty
 * page), which the ERP's CPU pays on every device's every pull. A prepared statement reads the
 * page first, up to SHORT_PAGE rows and one more: when that one more is not there, the rows
 * are the whole page and the answer; when it is, the page is long, the statement sends nothing
 * but the count (so a long page costs Node nothing twice), and COPY reads it.
 */
export const SHORT_PAGE = 200;

const SHORT_PAGE_SQL = {
  tenant: '',
  rep: 'and (escopo is null or escopo = $8)',
  tenantWideOnly: 'and escopo is null',
} as const;

/**
 * $6: rows to read; $7: the most the page may hold for them to be sent. The last row: (null,
 * count, held back, null); a long page skips the held-back check, which COPY makes again.
 */
function shortPageSql(scope: keyof typeof SHORT_PAGE_SQL): string {
  const where = `id_empresa = $1 and colecao = $2 and (xid, revisao) > ($3::bigint, $4::bigint) ${SHORT_PAGE_SQL[scope]}`;
  return `${PREPARED}
    with pagina as materialized (
      select xid, revisao, excluido or dados is null as especial, dados from app.sync_alteracoes
       where ${where} and xid < $5::bigint
       order by xid, revisao
       limit $6),
    contagem as (select count(*) as n from pagina)
    select xid::text, revisao::text, especial, dados from pagina, contagem where contagem.n <= $7
    union all
    select null, n::text,
           n <= $7 and exists (select 1 from app.sync_alteracoes where ${where} and xid >= $5::bigint), null
      from contagem`;
}
const SHORT_PAGE_STATEMENTS = {
  tenant: shortPageSql('tenant'),
  rep: shortPageSql('rep'),
  tenantWideOnly: shortPageSql('tenantWideOnly'),
};

/** The page when it holds at most SHORT_PAGE rows (or the window's limit, if lower); null when it is longer. */
async function shortPage(client: pg.PoolClient, w: Omit<ChangeWindow, 'horizon'>, horizon: string) {
  const scope = w.tenantWideOnly ? 'tenantWideOnly' : w.codVendedor !== null ? 'rep' : 'tenant';
  // A window of at most SHORT_PAGE rows is read whole; a longer one, one row past SHORT_PAGE.
  const allowed = Math.min(SHORT_PAGE, w.limit);
  const read = w.limit <= SHORT_PAGE ? w.limit : SHORT_PAGE + 1;
  const values: unknown[] = [w.idEmpresa, w.colecao, w.after.xid, w.after.revisao, horizon, read, allowed];
  if (scope === 'rep') values.push(w.codVendedor);
  const { rows } = await client.query<{
    xid: string | null;
    revisao: string | null;
    especial: boolean;
    dados: string | null;
  }>(SHORT_PAGE_STATEMENTS[scope], values);
  const last = rows.pop();
  if (!last || last.xid !== null) throw new Error('pull page: the count row is missing');
  if (Number(last.revisao) > allowed) return null;
  const parts: Buffer[] = [];
  const page: BytePage = {
    n: rows.length,
    special: false,
    heldBack: last.especial,
    last: null,
    join: (before, after) => Buffer.concat([before, ...parts, after]),
  };
  for (const r of rows) {
    page.special ||= r.especial;
    page.last = { xid: Number(r.xid), revisao: Number(r.revisao) };
    if (r.dados !== null) {
      if (parts.length > 0) parts.push(COMMA);
      parts.push(Buffer.from(r.dados, 'utf8'));
    }
  }
  return page;
}

/** Blocks the documents are copied into: a page of 10,000 documents fills about twenty. */
const BLOCK = 256 * 1024;
/**
 * Blocks given back by pages already joined, for the next. New memory outside V8's heap (a
 * Buffer's) counts as "external memory pressure", which Node 26's V8 answers with full
 * mark-compacts: with new blocks for every page, the server spent 75 to 79 ms of CPU per initial
 * sync of the medium fixture, against 54 to 74 with them kept (no difference under Node 22).
 * Up to 16 MiB kept.
 */
const spareBlocks: Buffer[] = [];
const SPARE_BLOCKS = 64;

/**
 * A long page as COPY's binary format sends it, one row per CopyData message (the first after
 * the file's header: an 11-byte signature, flags and a header extension; the trailer, -1, is
 * its own): per row the number of fields and each field as its length (-1: null) and bytes.
 * Each document is copied from the socket's chunk to a block, commas between, and the blocks
 * to the answer; the rest of a row is read where it lies.
 */
class CopiedPage {
  private n = 0;
  private special = false;
  private heldBack: boolean | null = null;
  private last: BytePage['last'] = null;
  private started = false;
  /** Full blocks, each with the bytes it holds. */
  private readonly blocks: { block: Buffer; fill: number }[] = [];
  private block: Buffer | null = null;
  private fill = 0;

  readonly row = (buf: Buffer, start: number, end: number): void => {
    let at = start;
    if (!this.started) {
      this.started = true;
      at += 11 + 4;
      at += 4 + int32(buf, at);
    }
    const fields = int16(buf, at);
    at += 2;
    if (fields === -1) return;
    if (fields !== 4 || this.heldBack !== null) throw new Error('pull page: unexpected COPY row');
    if (int32(buf, at) < 0) {
      // The last row: (null, null, held back, null).
      at += 4 + 4 + 4;
      this.heldBack = buf[at] === 1;
      return;
    }
    const xid = int64(buf, at + 4);
    at += 4 + 8;
    const revisao = int64(buf, at + 4);
    at += 4 + 8 + 4;
    this.special ||= buf[at] === 1;
    at += 1;
    const length = int32(buf, at);
    at += 4;
    if (at + Math.max(length, 0) !== end) throw new Error('pull page: a COPY row of unexpected length');
    this.n++;
    this.last = { xid, revisao };
    if (length >= 0) this.append(buf, at, end);
  };

  private append(buf: Buffer, start: number, end: number): void {
    const comma = this.fill > 0 || this.blocks.length > 0 ? 1 : 0;
    const need = comma + end - start;
    if (this.block === null || this.fill + need > this.block.length) {
      if (this.block !== null) this.blocks.push({ block: this.block, fill: this.fill });
      this.block = (need <= BLOCK && spareBlocks.pop()) || Buffer.allocUnsafeSlow(Math.max(BLOCK, need));
      this.fill = 0;
    }
    if (comma) this.block[this.fill++] = 0x2c;
    this.fill += buf.copy(this.block, this.fill, start, end);
  }

  done(): BytePage {
    if (this.heldBack === null) throw new Error('pull page: the last COPY row is missing');
    if (this.block !== null) this.blocks.push({ block: this.block, fill: this.fill });
    this.block = null;
    const { n, special, heldBack, last, blocks } = this;
    return {
      n,
      special,
      heldBack,
      last,
      join(before, after) {
        let length = before.length + after.length;
        for (const b of blocks) length += b.fill;
        const out = Buffer.allocUnsafeSlow(length);
        let at = before.copy(out);
        for (const b of blocks) {
          at += b.block.copy(out, at, 0, b.fill);
          if (b.block.length === BLOCK && spareBlocks.length < SPARE_BLOCKS) spareBlocks.push(b.block);
        }
        after.copy(out, at);
        blocks.length = 0;
        return out;
      },
    };
  }
}

// Big-endian integers read byte by byte: through Buffer's readInt16BE, readInt32BE and
// readBigInt64BE (a BigInt per number) a 10,000-row page's integers took 0.5 ms, by hand 0.06 to 0.1.
function int16(buf: Buffer, at: number): number {
  return (((buf[at] as number) << 24) | ((buf[at + 1] as number) << 16)) >> 16;
}
function int32(buf: Buffer, at: number): number {
  return (
    ((buf[at] as number) << 24) |
    ((buf[at + 1] as number) << 16) |
    ((buf[at + 2] as number) << 8) |
    (buf[at + 3] as number)
  );
}
/** A transaction id or revision: below 2^53, as the checkpoint's numbers are. */
function int64(buf: Buffer, at: number): number {
  return int32(buf, at) * 2 ** 32 + (int32(buf, at + 4) >>> 0);
}

const COMMA = Buffer.from(',');

/**
 * What each C1 control character (U+0080-U+009F, UTF-8 C2 80 to C2 9F) becomes when ERP text
 * is read as Windows-1252 (readCp1252, applied by the pool to every text it parses): the
 * bytes skip that parser, so they are mapped here. Undefined ones stay.
 */
const C1_UTF8: (Buffer | null)[] = Array.from({ length: 32 }, (_, i) => {
  const c1 = String.fromCharCode(0x80 + i);
  const mapped = readCp1252(c1);
  return mapped === c1 ? null : Buffer.from(mapped, 'utf8');
});

export function cp1252Utf8(buf: Buffer<ArrayBuffer>): Buffer<ArrayBuffer> {
  let i = buf.indexOf(0xc2);
  if (i < 0) return buf;
  const parts: Buffer[] = [];
  let from = 0;
  for (; i >= 0 && i + 1 < buf.length; i = buf.indexOf(0xc2, i + 1)) {
    const next = buf[i + 1] as number;
    const mapped = next >= 0x80 && next <= 0x9f ? C1_UTF8[next - 0x80] : null;
    if (!mapped) continue;
    parts.push(buf.subarray(from, i), mapped);
    from = i + 2;
  }
  if (from === 0) return buf;
  parts.push(buf.subarray(from));
  return Buffer.concat(parts);
}
