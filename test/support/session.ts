// Logging in as a role, for API tests: the user is created the way ops create one (the users
// service, so a representative or supervisor must exist in the ERP) and the token comes from
// the real POST /auth/login, so every test goes through the production auth path.
import type { Role, Session, SyncClient, SyncPull } from '@campo/shared';
import type pg from 'pg';
import { createDb } from '../../server/src/db/kysely.ts';
import { addUser } from '../../server/src/users/service.ts';
import type { testApp } from './app.ts';

type App = ReturnType<typeof testApp>;

export const SESSION_PASSWORD = 'session-password-1';

export interface SessionUser {
  login: string;
  role: Role;
  idEmpresa: number;
  codVendedor?: number;
  codSupervisor?: number;
  name?: string;
}

/** Creates the user (on the superuser pool used for set-up) and returns a bearer token for it. */
export async function logInAs(app: App, pool: pg.Pool, user: SessionUser): Promise<string> {
  await addUser(createDb(pool), {
    login: user.login,
    name: user.name ?? user.login,
    role: user.role,
    idEmpresa: user.idEmpresa,
    codVendedor: user.codVendedor ?? null,
    codSupervisor: user.codSupervisor ?? null,
    password: SESSION_PASSWORD,
  });
  const res = await app.request('/api/v1/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    // Naming the company: a login another test made in another tenant too needs it (409 otherwise).
    body: JSON.stringify({ login: user.login, password: SESSION_PASSWORD, empresa: user.idEmpresa }),
  });
  if (res.status !== 200) throw new Error(`login of ${user.login} answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as Session).token;
}

/**
 * A client of the API under /api/v1 that sends the token and JSON bodies, and any other
 * headers a call names (an Idempotency-Key, a forwarded address).
 */
export function apiAs(app: App, token: string | null) {
  return (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    app.request(`/api/v1${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
}

/**
 * Every clientes document the caller pulls from the beginning, page after page: what their
 * phone's first download would hold.
 */
export async function pullClients(api: ReturnType<typeof apiAs>): Promise<SyncClient[]> {
  const docs: SyncClient[] = [];
  let checkpoint = '';
  for (let i = 0; i < 100; i++) {
    const res = await api(
      'GET',
      `/sync/clientes/pull?limit=500${checkpoint ? `&checkpoint=${encodeURIComponent(checkpoint)}` : ''}`,
    );
    if (res.status !== 200) throw new Error(`pull of clientes answered ${res.status}: ${await res.text()}`);
    const page = (await res.json()) as SyncPull;
    docs.push(...(page.documents as SyncClient[]));
    checkpoint = page.checkpoint;
    if (page.documents.length < 500) break;
  }
  return docs;
}
