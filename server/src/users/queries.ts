import { losslessLikePattern } from '@campo/shared';
import type { Insertable } from 'kysely';
import { sql } from 'kysely';
import type { Db } from '../db/kysely.ts';
import type { AppUsuarios } from '../db/types.ts';

/**
 * Every user holding a login, oldest first, in one tenant when `idEmpresa` is given: a login is
 * unique only within its tenant (migration 0016), so across tenants there may be several.
 */
export function selectUsersByLogin(
  db: Db,
  login: string,
  idEmpresa: number | undefined,
): Promise<{ id: number; id_empresa: number; login: string }[]> {
  let q = db.selectFrom('app.usuarios').select(['id', 'id_empresa', 'login']).where('login', '=', login);
  if (idEmpresa !== undefined) q = q.where('id_empresa', '=', idEmpresa);
  return q.orderBy('id').execute();
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
  role?: AppUsuarios['papel'] | undefined;
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
