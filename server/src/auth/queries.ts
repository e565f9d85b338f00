// What a login and every authenticated request read of app.usuarios: the users a login names,
// and the user row behind a token. The users domain, which writes the table, keeps its own
// statements. A login is looked up before any tenant is known, so these run outside withScope
// (app.usuarios has no row-level policy).
import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Db } from '../db/kysely.ts';
import { PREPARED } from '../db/prepared.ts';
import type { AppUsuarios } from '../db/types.ts';

export type UserRow = Selectable<AppUsuarios>;

const columns = [
  'id',
  'id_empresa',
  'login',
  'nome',
  'papel',
  'cod_vendedor',
  'cod_supervisor',
  'senha_hash',
  'ativo',
  'versao_token',
] as const;

/**
 * The users a login may name at the login screen: the active ones holding it, in `idEmpresa`
 * when the person said which company, oldest first, at most `limit`. A login is unique only
 * within its tenant (migration 0016), so across tenants there may be several.
 */
export function selectLoginCandidates(
  db: Db,
  login: string,
  idEmpresa: number | undefined,
  limit: number,
): Promise<UserRow[]> {
  let q = db.selectFrom('app.usuarios').select(columns).where('login', '=', login);
  if (idEmpresa !== undefined) q = q.where('id_empresa', '=', idEmpresa);
  return q.where('ativo', '=', true).orderBy('id').limit(limit).execute() as Promise<UserRow[]>;
}

/**
 * The most tenants any one active login is shared by (at least 1): how many passwords a login
 * without a company checks, whatever the login typed, so the time taken tells nothing about it.
 */
export async function selectMostSharedLogin(db: Db): Promise<number> {
  const row = await db
    .selectFrom('app.usuarios')
    .where('ativo', '=', true)
    .groupBy('login')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .orderBy('n', 'desc')
    .limit(1)
    .executeTakeFirst();
  return Math.max(1, Number(row?.n ?? 1));
}

/** Every authenticated request's token check: prepared, as its planning cost more than its execution. */
export function selectUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db
    .selectFrom('app.usuarios')
    .modifyFront(sql.raw(PREPARED))
    .select(columns)
    .where('id', '=', id)
    .executeTakeFirst() as Promise<UserRow | undefined>;
}
