import pg from 'pg';

// The ERP database is LATIN1. The connection speaks UTF8 and PostgreSQL converts on the way in
// and out, so JavaScript strings stay Unicode; text that cannot be held in LATIN1 must be made
// safe before it is sent (see the transliteration module).
export function createPool(connectionString: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, application_name: 'campo', client_encoding: 'UTF8' });
  // A client that loses its connection emits 'error': the pool forwards it here while the client
  // is idle, but not while a request holds it (a connection killed mid-transaction, a failover),
  // and an 'error' nobody listens to kills the process. The request itself fails with its own
  // error and rolls back; the client is discarded when released.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return pool;
}

// bigint ids stay far below 2^53, and numeric values (money, percentages) are compared and
// summed in SQL or rounded explicitly; numbers are simpler for every caller than strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));
