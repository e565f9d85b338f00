import { readCp1252 } from '@campo/shared';
import pg from 'pg';
import { prepareMarkedStatements } from './prepared.ts';

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

// The ERP database is LATIN1, WIN1252 or UTF8. The connection speaks UTF8 and PostgreSQL
// converts on the way in and out, so JavaScript strings stay Unicode; text the database's
// encoding cannot hold must be made safe before it is sent (toErpText, encodeLossless).
export interface PoolOptions {
  prepared?: boolean;
  /** How long opening a connection may take (DATABASE_CONNECT_TIMEOUT_SECONDS); 10 s by default. */
  connectTimeoutMs?: number;
}

export function createPool(connectionString: string, max = 10, options: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    application_name: 'campo',
    client_encoding: 'UTF8',
    connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
  });
  // A client that loses its connection emits 'error': the pool forwards it here while the client
  // is idle, but not while a request holds it (a connection killed mid-transaction, a failover),
  // and an 'error' nobody listens to kills the process. The request itself fails with its own
  // error and rolls back; the client is discarded when released.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  // Off behind a transaction pooler that cannot keep them (PgBouncer before 1.21, or without
  // max_prepared_statements): a statement prepared on one server connection would be executed
  // on another that never saw it. The marked statements are then sent unnamed, planned each time.
  if (options.prepared ?? true) prepareMarkedStatements(pool);
  return pool;
}

// bigint ids stay far below 2^53, and numeric values (money, percentages) are compared and
// summed in SQL or rounded explicitly; numbers are simpler for every caller than strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

// ERP text is read as Windows-1252: old Windows ERPs store curly quotes, "–" and "€" as the
// bytes 0x80-0x9F of their LATIN1 columns, which PostgreSQL hands over as invisible control
// characters that the app would show as nothing and the ERP copy of an order would drop.
// Decoding here covers every text value and every JSON document built in SQL from the views
// (REST answers, replication documents, the PDF), whatever query read it; Campo's own text
// never holds those characters (what it writes is LATIN1 without control characters, or
// escaped: docs/data-model.md).
pg.types.setTypeParser(pg.types.builtins.TEXT, readCp1252);
pg.types.setTypeParser(pg.types.builtins.VARCHAR, readCp1252);
pg.types.setTypeParser(pg.types.builtins.BPCHAR, readCp1252);
pg.types.setTypeParser(pg.types.builtins.JSON, (v) => JSON.parse(readCp1252(v)));
pg.types.setTypeParser(pg.types.builtins.JSONB, (v) => JSON.parse(readCp1252(v)));
