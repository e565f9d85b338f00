import type { Insertable, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Db } from '../db/kysely.ts';
import type { UsuariosTable } from '../db/types.ts';

export type UserRow = Selectable<UsuariosTable>;

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

export function selectUserByLogin(db: Db, login: string): Promise<UserRow | undefined> {
  return db.selectFrom('app.usuarios').select(columns).where('login', '=', login).executeTakeFirst() as Promise<
    UserRow | undefined
  >;
}

export function selectUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('app.usuarios').select(columns).where('id', '=', id).executeTakeFirst() as Promise<
    UserRow | undefined
  >;
}

export function insertUser(db: Db, row: Insertable<UsuariosTable>): Promise<{ id: number }> {
  return db.insertInto('app.usuarios').values(row).returning('id').executeTakeFirstOrThrow();
}

/** A new password also bumps the token version: every token issued before stops working. */
export function updatePassword(db: Db, login: string, senhaHash: string): Promise<{ id: number } | undefined> {
  return db
    .updateTable('app.usuarios')
    .set({ senha_hash: senhaHash, versao_token: sql`versao_token + 1`, atualizado_em: sql`now()` })
    .where('login', '=', login)
    .returning('id')
    .executeTakeFirst();
}

export function updateActive(db: Db, login: string, ativo: boolean): Promise<{ id: number } | undefined> {
  return db
    .updateTable('app.usuarios')
    .set({ ativo, versao_token: sql`versao_token + 1`, atualizado_em: sql`now()` })
    .where('login', '=', login)
    .returning('id')
    .executeTakeFirst();
}
