import { losslessLikePattern } from '@campo/shared';
import type { Insertable, Selectable } from 'kysely';
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
 * Every user holding a login, oldest first, in one tenant when `idEmpresa` is given: a login is
 * unique only within its tenant (migration 0016), so across tenants there may be several.
 */
export function selectUsersByLogin(
  db: Db,
  login: string,
  opts: { idEmpresa?: number | undefined; activeOnly?: boolean; limit?: number } = {},
): Promise<UserRow[]> {
  let q = db.selectFrom('app.usuarios').select(columns).where('login', '=', login);
  if (opts.idEmpresa !== undefined) q = q.where('id_empresa', '=', opts.idEmpresa);
  if (opts.activeOnly) q = q.where('ativo', '=', true);
  q = q.orderBy('id');
  if (opts.limit !== undefined) q = q.limit(opts.limit);
  return q.execute() as Promise<UserRow[]>;
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

/** The display names of head offices, for a login that must choose its company. */
export function selectTenantNames(db: Db, ids: number[]): Promise<{ id_empresa: number; nome: string | null }[]> {
  return db
    .selectFrom('app.vw_empresas')
    .select(['id_empresa', (eb) => eb.fn.coalesce('nome_fantasia', 'razao_social').as('nome')])
    .where('matriz', '=', true)
    .where('id_empresa', 'in', ids)
    .orderBy('id_empresa')
    .execute() as Promise<{ id_empresa: number; nome: string | null }[]>;
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

export function insertUser(db: Db, row: Insertable<AppUsuarios>): Promise<{ id: number }> {
  return db.insertInto('app.usuarios').values(row).returning('id').executeTakeFirstOrThrow();
}

/** A new password also bumps the token version: every token issued before stops working. */
export function updatePassword(db: Db, id: number, senhaHash: string): Promise<{ id: number } | undefined> {
  return db
    .updateTable('app.usuarios')
    .set({ senha_hash: senhaHash, versao_token: sql`versao_token + 1`, atualizado_em: sql`now()` })
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
}

export function updateActive(db: Db, id: number, ativo: boolean): Promise<{ id: number } | undefined> {
  return db
    .updateTable('app.usuarios')
    .set({ ativo, versao_token: sql`versao_token + 1`, atualizado_em: sql`now()` })
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
}

// The admin's user list and lookups: always inside one tenant. app.usuarios has no row-level
// policy (a login is looked up before any tenant is known), so the tenant filter written here
// is the only one: every statement below takes it.

const listColumns = [
  'id',
  'login',
  'nome',
  'papel',
  'cod_vendedor',
  'cod_supervisor',
  'ativo',
  'criado_em',
  'atualizado_em',
] as const;

export interface UserFilters {
  q?: string | undefined;
  role?: UserRow['papel'] | undefined;
  active?: boolean | undefined;
}

function tenantUsers(db: Db, idEmpresa: number, f: UserFilters) {
  let q = db.selectFrom('app.usuarios').where('id_empresa', '=', idEmpresa);
  if (f.role) q = q.where('papel', '=', f.role);
  if (f.active !== undefined) q = q.where('ativo', '=', f.active);
  if (f.q) {
    // Names are stored escaped (encodeLossless): the term is escaped the same way, so "€" or
    // "😀" find what was typed, and NUL or a character LATIN1 lacks never reaches PostgreSQL.
    const like = losslessLikePattern(f.q.toLowerCase());
    q = q.where((eb) => eb.or([eb('login', 'like', like), eb(eb.fn('lower', ['nome']), 'like', like)]));
  }
  return q;
}

export async function countTenantUsers(db: Db, idEmpresa: number, f: UserFilters): Promise<number> {
  const row = await tenantUsers(db, idEmpresa, f)
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export function selectTenantUsers(db: Db, idEmpresa: number, f: UserFilters, limit: number, offset: number) {
  return tenantUsers(db, idEmpresa, f)
    .select(listColumns)
    .orderBy('nome')
    .orderBy('login')
    .limit(limit)
    .offset(offset)
    .execute();
}

export function selectTenantUser(db: Db, idEmpresa: number, id: number) {
  return db
    .selectFrom('app.usuarios')
    .select(listColumns)
    .where('id_empresa', '=', idEmpresa)
    .where('id', '=', id)
    .executeTakeFirst();
}
