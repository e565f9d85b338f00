// Named prepared statements for the hot paths, opted into statement by statement. Apart from
// pool.ts (which sets the driver's type parsers for the whole process), so that test pools can
// use it without them.
import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * Opens a statement that runs as a named prepared statement: parsed and planned once per
 * connection, then executed from PostgreSQL's plan cache (a generic plan after the first five
 * executions, when it costs no more than the custom ones). For the hot paths (an order, the
 * request scope): planning their views every time cost more PostgreSQL CPU than running them,
 * and that CPU is the ERP's. Only for statements whose text is fixed (lists as one array
 * parameter, never `in ($1, $2, ...)`): each distinct text stays prepared for the life of the
 * connection.
 */
export const PREPARED = '/*prepared*/ ';

/** Whether the text opens with PREPARED (after Kysely's leading whitespace, if any). */
const isMarked = (text: string) => text.slice(0, 24).includes(PREPARED);

/** A marked text's prepared statement: its name, and the text PostgreSQL is sent (compactSql). */
interface Prepared {
  name: string;
  text: string;
}

const names = new Map<string, Prepared>();
function prepared(text: string): Prepared {
  let found = names.get(text);
  if (found === undefined) {
    found = { name: `campo_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`, text: compactSql(text) };
    names.set(text, found);
  }
  return found;
}

/**
 * The text with its layout taken out: runs of whitespace outside quotes become one space, and
 * `--` comments go. PostgreSQL copies a prepared statement's text at every Bind and into
 * pg_stat_activity at every Bind and Execute (pg_stat_statements too, per call), and a third of
 * the order's indented statements was layout. Left as written when the text holds
 * what this does not read (a backslash, which an E'' string escapes with, or a dollar quote).
 */
export function compactSql(text: string): string {
  if (text.includes('\\') || /\$(?!\d)/.test(text)) return text;
  let out = '';
  let i = 0;
  let space = false;
  const n = text.length;
  while (i < n) {
    const c = text[i] as string;
    if (c === ' ' || c === '\n' || c === '\t' || c === '\r') {
      space = true;
      i++;
    } else if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end;
      space = true;
    } else {
      // A quoted run ('' doubles a quote inside, and so reads as two runs back to back).
      let end = i + 1;
      if (c === "'" || c === '"') {
        end = text.indexOf(c, i + 1) + 1;
        if (end === 0) return text;
      } else if (c === '/' && text[i + 1] === '*') {
        end = text.indexOf('*/', i + 2) + 2;
        if (end === 1) return text;
      }
      if (space && out !== '') out += ' ';
      space = false;
      out += text.slice(i, end);
      i = end;
    }
  }
  return out;
}

type Query = (config: unknown, values?: unknown, callback?: unknown) => unknown;

/**
 * Makes the pool's connections send the statements marked PREPARED (Kysely's `sql`, or
 * `modifyFront` on a builder) as named ones. createPool does it; tests' own pools too.
 */
export function prepareMarkedStatements(pool: pg.Pool): void {
  pool.on('connect', preparing);
}

/** The connections that send marked statements as named ones. */
const preparingClients = new WeakSet<pg.ClientBase>();

/**
 * The prepared statement a batch (db/batch.ts) runs `text` as on `client`: the same name and
 * sent text client.query gives it, or '' (unnamed, planned each time) and the text as it is when
 * the text is not marked or the client's pool does not prepare.
 */
export function statementOf(client: pg.ClientBase, text: string): Prepared {
  return preparingClients.has(client) && isMarked(text) ? prepared(text) : { name: '', text };
}

function preparing(client: pg.PoolClient): void {
  preparingClients.add(client);
  const query = client.query.bind(client) as Query;
  (client as unknown as { query: Query }).query = (config, values, callback) =>
    typeof config === 'string' && isMarked(config)
      ? query({ ...prepared(config), values }, callback)
      : query(config, values, callback);
}
