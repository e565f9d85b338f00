// Every request that reads or writes tenant data runs inside withScope: one transaction whose
// first statement sets campo.id_empresa (and campo.cod_vendedor for a representative). The
// row-level security policies on the app tables read those settings, so a query that forgets
// its tenant filter still sees only the caller's rows (defence in depth; see docs/security.md).
import { type RawBuilder, sql, type Transaction } from 'kysely';
import { ownRepresentative } from '../auth/authorize.ts';
import type { AuthContext } from '../auth/claims.ts';
import type { Db } from './kysely.ts';
import { PREPARED } from './prepared.ts';
import type { DB } from './types.ts';

export type Tx = Transaction<DB>;

export interface Scope {
  idEmpresa: number;
  /** Set for representatives only: their rows, and no other representative's. */
  codVendedor: number | null;
}

export function scopeOf(auth: AuthContext): Scope {
  return { idEmpresa: auth.idEmpresa, codVendedor: ownRepresentative(auth) };
}

/**
 * Advisory-lock namespace (classid) under which every Campo transaction registers its backend
 * for its whole life: the replication pull reads the transaction ids of the registered
 * backends from pg_locks, so it waits for Campo's own writers only — never for the ERP's
 * long transactions (server/src/sync/queries.ts).
 */
export const WRITER_LOCK_NS = 1128353104;

export function withScope<T>(db: Db, scope: Scope, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (tx) => {
    await sql`${sql.raw(PREPARED)}select ${scopeSettings(scope)}`.execute(tx);
    return fn(tx);
  });
}

/**
 * withScope whose first statement also selects `first` (select-list items, evaluated after the
 * scope's settings), and hands its row to fn: one round trip less for the busiest route, the
 * order, which takes its key's lock there.
 */
export function withScopeAnd<T, R>(
  db: Db,
  scope: Scope,
  first: RawBuilder<R>,
  fn: (tx: Tx, row: R) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (tx) => {
    const { rows } = await sql<R>`${sql.raw(PREPARED)}select ${scopeSettings(scope)}, ${first}`.execute(tx);
    return fn(tx, rows[0] as R);
  });
}

function scopeSettings(scope: Scope) {
  // The business calendar is São Paulo's: current_date in views (rules in force, today's
  // positivation) and timestamps written into the ERP follow it, whatever the server's zone.
  // The shared lock registers the transaction before it can take an xid (see WRITER_LOCK_NS).
  return sql`set_config('campo.id_empresa', ${String(scope.idEmpresa)}, true),
             set_config('campo.cod_vendedor', ${scope.codVendedor === null ? '' : String(scope.codVendedor)}, true),
             set_config('TimeZone', 'America/Sao_Paulo', true),
             pg_advisory_xact_lock_shared(${WRITER_LOCK_NS}, pg_backend_pid())`;
}
