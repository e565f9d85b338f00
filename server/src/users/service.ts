// User management, shared by the `campo user` CLI and (later) the admin screens, so both follow
// the same rules: a representative or supervisor login must point at a real ERP record of the
// same tenant, and every credential change revokes the tokens already issued.
import { encodeLossless, type UserCreate, ZUserCreate } from '@campo/shared';
import { sql } from 'kysely';
import { hashPassword } from '../auth/password.ts';
import type { Db } from '../db/kysely.ts';
import { insertUser, selectUsersByLogin, updateActive, updatePassword } from './queries.ts';

export class UserError extends Error {
  constructor(
    readonly code: 'USER_EXISTS' | 'USER_NOT_FOUND' | 'LOGIN_AMBIGUOUS' | 'ERP_RECORD_NOT_FOUND' | 'INVALID',
    message: string,
  ) {
    super(message);
  }
}

async function erpRecordExists(db: Db, user: UserCreate): Promise<string | null> {
  const tenant = await sql<{ ok: boolean }>`
    select exists (select 1 from app.vw_empresas where id_empresa = ${user.idEmpresa}) as ok`.execute(db);
  if (!tenant.rows[0]?.ok) return `empresa ${user.idEmpresa} não existe no ERP`;
  if (user.codVendedor !== null) {
    const rep = await sql<{ ok: boolean }>`
      select exists (select 1 from app.vw_vendedores
                      where id_empresa = ${user.idEmpresa} and cod_vendedor = ${user.codVendedor}) as ok`.execute(db);
    if (!rep.rows[0]?.ok) return `vendedor ${user.codVendedor} não existe na empresa ${user.idEmpresa}`;
  }
  if (user.codSupervisor !== null) {
    const sup = await sql<{ ok: boolean }>`
      select exists (select 1 from app.vw_supervisores
                      where id_empresa = ${user.idEmpresa} and cod_supervisor = ${user.codSupervisor}) as ok`.execute(
      db,
    );
    if (!sup.rows[0]?.ok) return `supervisor ${user.codSupervisor} não existe na empresa ${user.idEmpresa}`;
  }
  return null;
}

export async function addUser(db: Db, input: unknown): Promise<{ id: number; login: string }> {
  const parsed = ZUserCreate.safeParse(input);
  if (!parsed.success) {
    throw new UserError('INVALID', parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  }
  const user = parsed.data;
  // Logins are unique per tenant (migration 0016): only this tenant's logins can be in the way.
  if ((await selectUsersByLogin(db, user.login, user.idEmpresa)).length > 0) {
    throw new UserError('USER_EXISTS', `o login ${user.login} já existe na empresa ${user.idEmpresa}`);
  }
  const missing = await erpRecordExists(db, user);
  if (missing) throw new UserError('ERP_RECORD_NOT_FOUND', missing);
  const row = {
    id_empresa: user.idEmpresa,
    login: user.login,
    // Campo-only text: kept as typed ("Ana D’Ávila"), escaped for the LATIN1 database.
    nome: encodeLossless(user.name),
    papel: user.role,
    cod_vendedor: user.codVendedor,
    cod_supervisor: user.codSupervisor,
    senha_hash: await hashPassword(user.password),
  };
  try {
    const { id } = await insertUser(db, row);
    return { id, login: user.login };
  } catch (err) {
    // Taken meanwhile by a concurrent creation: the same refusal as the check above, not a 500.
    if ((err as { code?: string }).code === '23505') {
      throw new UserError('USER_EXISTS', `o login ${user.login} já existe na empresa ${user.idEmpresa}`);
    }
    throw err;
  }
}

/**
 * The one user a login names, in `idEmpresa` when given. Without it, a login held in several
 * tenants is refused (LOGIN_AMBIGUOUS, naming them: the callers are the ops CLI, which sees
 * every tenant, and the admin's routes, which always pass their own tenant).
 */
async function oneUser(db: Db, login: string, idEmpresa: number | undefined): Promise<{ id: number }> {
  const name = login.trim().toLowerCase();
  const rows = await selectUsersByLogin(db, name, idEmpresa);
  const [row] = rows;
  if (!row) {
    throw new UserError(
      'USER_NOT_FOUND',
      idEmpresa === undefined ? `o login ${login} não existe` : `o login ${login} não existe na empresa ${idEmpresa}`,
    );
  }
  if (rows.length > 1) {
    const tenants = rows.map((r) => r.id_empresa).join(', ');
    throw new UserError(
      'LOGIN_AMBIGUOUS',
      `o login ${login} existe em mais de uma empresa (${tenants}): diga qual com --empresa`,
    );
  }
  return row;
}

export async function resetPassword(db: Db, login: string, password: string, idEmpresa?: number): Promise<void> {
  if (password.length < 8) throw new UserError('INVALID', 'a senha precisa de pelo menos 8 caracteres');
  const user = await oneUser(db, login, idEmpresa);
  await updatePassword(db, user.id, await hashPassword(password));
}

export async function setUserActive(db: Db, login: string, active: boolean, idEmpresa?: number): Promise<void> {
  const user = await oneUser(db, login, idEmpresa);
  await updateActive(db, user.id, active);
}
