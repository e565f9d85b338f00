// The admin's user management over HTTP. It runs the same service functions as the `campo user`
// CLI (service.ts), so both keep the same rules; what HTTP adds is the tenant: an admin only
// ever sees or changes logins of their own company, and a login of another tenant is answered
// exactly like one that does not exist (404), so ids cannot be probed across tenants. Logins are
// unique per tenant, so creating one depends on the admin's own tenant alone.
import {
  decodeLossless,
  type UserCreateRequest,
  type UserListQuery,
  type UserPage,
  type UserView,
} from '@campo/shared';
import { scopeOf } from '../auth/authorize.ts';
import type { Db } from '../db/kysely.ts';
import { type Tx, withScope } from '../db/scope.ts';
import { DomainError, notFound } from '../errors.ts';
import type { AuthContext } from '../http/env.ts';
import { countTenantUsers, selectTenantUser, selectTenantUsers } from './queries.ts';
import { addUser, resetPassword, setUserActive } from './service.ts';

type Row = NonNullable<Awaited<ReturnType<typeof selectTenantUser>>>;

function view(row: Row): UserView {
  return {
    id: row.id,
    login: row.login,
    name: decodeLossless(row.nome),
    role: row.papel,
    codVendedor: row.cod_vendedor,
    codSupervisor: row.cod_supervisor,
    active: row.ativo,
    createdAt: row.criado_em.toISOString(),
    updatedAt: row.atualizado_em.toISOString(),
  };
}

/**
 * The service's refusals (worded for the CLI) as the admin's problems: the fields they name are
 * the request body's, and the detail speaks to the admin.
 */
function asProblem(err: unknown): unknown {
  if (!(err instanceof DomainError)) return err;
  const errors = err.extra.errors?.map((e) => ({ ...e, path: `body.${e.path}` }));
  switch (err.code) {
    case 'USER_EXISTS':
      // Logins are unique per tenant (migration 0016): only a login of the admin's own tenant is
      // taken here, so the answer tells nothing about other tenants (docs/security.md).
      return new DomainError('LOGIN_UNAVAILABLE', 'Este login já existe nesta empresa. Escolha outro.', { errors });
    case 'ERP_RECORD_NOT_FOUND': {
      const what = errors?.[0]?.path === 'body.codSupervisor' ? 'supervisor' : 'vendedor';
      return new DomainError('ERP_RECORD_NOT_FOUND', `Este ${what} não existe na empresa.`, { errors });
    }
    case 'NOT_FOUND':
      return notFound('Usuário');
    case 'VALIDATION_FAILED':
    case 'LOGIN_COMPANY_REQUIRED':
      return new DomainError('VALIDATION_FAILED', err.detail, errors ? { errors } : {});
    default:
      return err;
  }
}

async function tenantUser(tx: Tx, auth: AuthContext, id: number): Promise<Row> {
  const row = await selectTenantUser(tx, auth.idEmpresa, id);
  if (!row) throw notFound('Usuário');
  return row;
}

export function listUsers(db: Db, auth: AuthContext, query: UserListQuery): Promise<UserPage> {
  const filters = {
    q: query.q,
    role: query.role,
    active: query.active === undefined ? undefined : query.active === 'true',
  };
  return withScope(db, scopeOf(auth), async (tx) => {
    const [total, rows] = await Promise.all([
      countTenantUsers(tx, auth.idEmpresa, filters),
      selectTenantUsers(tx, auth.idEmpresa, filters, query.pageSize, (query.page - 1) * query.pageSize),
    ]);
    return { items: rows.map(view), page: query.page, pageSize: query.pageSize, total };
  });
}

export function getUser(db: Db, auth: AuthContext, id: number): Promise<UserView> {
  return withScope(db, scopeOf(auth), async (tx) => view(await tenantUser(tx, auth, id)));
}

export function createUser(db: Db, auth: AuthContext, body: UserCreateRequest): Promise<UserView> {
  return withScope(db, scopeOf(auth), async (tx) => {
    try {
      const { id } = await addUser(tx, { ...body, idEmpresa: auth.idEmpresa });
      return view(await tenantUser(tx, auth, id));
    } catch (err) {
      throw asProblem(err);
    }
  });
}

export function setActive(db: Db, auth: AuthContext, id: number, active: boolean): Promise<UserView> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const row = await tenantUser(tx, auth, id);
    // An admin disabling themself would lock the tenant out of user management mid-session.
    if (!active && row.id === auth.userId) {
      throw new DomainError('CANNOT_DISABLE_SELF', 'Peça a outro administrador para desativar o seu login.');
    }
    try {
      await setUserActive(tx, row.login, active, auth.idEmpresa);
    } catch (err) {
      throw asProblem(err);
    }
    return view(await tenantUser(tx, auth, id));
  });
}

export function resetUserPassword(db: Db, auth: AuthContext, id: number, password: string): Promise<void> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const row = await tenantUser(tx, auth, id);
    try {
      await resetPassword(tx, row.login, password, auth.idEmpresa);
    } catch (err) {
      throw asProblem(err);
    }
  });
}
