// User management, shared by the `campo user` CLI and (later) the admin screens, so both follow
// the same rules: a representative or supervisor login must point at a real ERP record of the
// same tenant, and every credential change revokes the tokens already issued.
import { encodeLossless, type UserCreate, ZUserCreate } from '@campo/shared';
import { sql } from 'kysely';
import { hashPassword } from '../auth/password.ts';
import type { Db } from '../db/kysely.ts';
import { DomainError } from '../errors.ts';
import { insertUser, selectUsersByLogin, updateActive, updatePassword } from './queries.ts';

// The refusals are DomainErrors worded for the operator at the CLI, who reads the detail; each
// names its field of the input (UserCreate) in `errors`, which the admin's routes answer as the
// request body's (admin.ts).

const loginTaken = (user: UserCreate) =>
  new DomainError('USER_EXISTS', `o login ${user.login} já existe na empresa ${user.idEmpresa}`, {
    errors: [{ path: 'login', message: 'já existe nesta empresa: escolha outro' }],
  });

const notInErp = (path: 'idEmpresa' | 'codVendedor' | 'codSupervisor', detail: string, message: string) =>
  new DomainError('ERP_RECORD_NOT_FOUND', detail, { errors: [{ path, message }] });

async function erpRecordMissing(db: Db, user: UserCreate): Promise<DomainError | null> {
  const tenant = await sql<{ ok: boolean }>`
    select exists (select 1 from app.vw_empresas where id_empresa = ${user.idEmpresa}) as ok`.execute(db);
  if (!tenant.rows[0]?.ok) {
    return notInErp('idEmpresa', `empresa ${user.idEmpresa} não existe no ERP`, 'empresa não encontrada no ERP');
  }
  if (user.codVendedor !== null) {
    const rep = await sql<{ ok: boolean }>`
      select exists (select 1 from app.vw_vendedores
                      where id_empresa = ${user.idEmpresa} and cod_vendedor = ${user.codVendedor}) as ok`.execute(db);
    if (!rep.rows[0]?.ok) {
      return notInErp(
        'codVendedor',
        `vendedor ${user.codVendedor} não existe na empresa ${user.idEmpresa}`,
        'vendedor não encontrado no ERP desta empresa',
      );
    }
  }
  if (user.codSupervisor !== null) {
    const sup = await sql<{ ok: boolean }>`
      select exists (select 1 from app.vw_supervisores
                      where id_empresa = ${user.idEmpresa} and cod_supervisor = ${user.codSupervisor}) as ok`.execute(
      db,
    );
    if (!sup.rows[0]?.ok) {
      return notInErp(
        'codSupervisor',
        `supervisor ${user.codSupervisor} não existe na empresa ${user.idEmpresa}`,
        'supervisor não encontrado no ERP desta empresa',
      );
    }
  }
  return null;
}

export async function addUser(db: Db, input: unknown): Promise<{ id: number; login: string }> {
  const parsed = ZUserCreate.safeParse(input);
  if (!parsed.success) {
    const { issues } = parsed.error;
    throw new DomainError('VALIDATION_FAILED', issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '), {
      errors: issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    });
  }
  const user = parsed.data;
  // Logins are unique per tenant (migration 0016): only this tenant's logins can be in the way.
  if ((await selectUsersByLogin(db, user.login, user.idEmpresa)).length > 0) throw loginTaken(user);
  const missing = await erpRecordMissing(db, user);
  if (missing) throw missing;
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
    if ((err as { code?: string }).code === '23505') throw loginTaken(user);
    throw err;
  }
}

/**
 * The one user a login names, in `idEmpresa` when given. Without it, a login held in several
 * tenants is refused (LOGIN_COMPANY_REQUIRED, naming them: the callers are the ops CLI, which
 * sees every tenant, and the admin's routes, which always pass their own tenant).
 */
async function oneUser(db: Db, login: string, idEmpresa: number | undefined): Promise<{ id: number }> {
  const name = login.trim().toLowerCase();
  const rows = await selectUsersByLogin(db, name, idEmpresa);
  const [row] = rows;
  if (!row) {
    throw new DomainError(
      'NOT_FOUND',
      idEmpresa === undefined ? `o login ${login} não existe` : `o login ${login} não existe na empresa ${idEmpresa}`,
    );
  }
  if (rows.length > 1) {
    const tenants = rows.map((r) => r.id_empresa).join(', ');
    throw new DomainError(
      'LOGIN_COMPANY_REQUIRED',
      `o login ${login} existe em mais de uma empresa (${tenants}): diga qual com --empresa`,
      { errors: [{ path: 'idEmpresa', message: 'escolha a empresa' }] },
    );
  }
  return row;
}

export async function resetPassword(db: Db, login: string, password: string, idEmpresa?: number): Promise<void> {
  if (password.length < 8) {
    throw new DomainError('VALIDATION_FAILED', 'a senha precisa de pelo menos 8 caracteres', {
      errors: [{ path: 'password', message: 'pelo menos 8 caracteres' }],
    });
  }
  const user = await oneUser(db, login, idEmpresa);
  await updatePassword(db, user.id, await hashPassword(password));
}

export async function setUserActive(db: Db, login: string, active: boolean, idEmpresa?: number): Promise<void> {
  const user = await oneUser(db, login, idEmpresa);
  await updateActive(db, user.id, active);
}
