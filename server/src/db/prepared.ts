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

const names = new Map<string, string>();
function preparedName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `campo_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
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
 * The prepared statement a batch (db/batch.ts) runs `text` as on `client`: the same name
 * client.query gives it, or '' (unnamed, planned each time) when the text is not marked or the
 * client's pool does not prepare.
 */
export function statementName(client: pg.ClientBase, text: string): string {
  return preparingClients.has(client) && isMarked(text) ? preparedName(text) : '';
}

function preparing(client: pg.PoolClient): void {
  preparingClients.add(client);
  const query = client.query.bind(client) as Query;
  (client as unknown as { query: Query }).query = (config, values, callback) =>
    typeof config === 'string' && isMarked(config)
      ? query({ name: preparedName(config), text: config, values }, callback)
      : query(config, values, callback);
}
