import { decodeLossless, type Session } from '@campo/shared';
import type { Db } from '../db/kysely.ts';
import { DomainError } from '../errors.ts';
import type { AuthContext } from '../http/env.ts';
import { createHashGate, type HashGate } from './hash-gate.ts';
import { dummyHash, verifyPassword } from './password.ts';
import {
  selectLoginCandidates,
  selectMostSharedLogin,
  selectTenantNames,
  selectUserById,
  type UserRow,
} from './queries.ts';
import { releaseLoginAttempt, reserveLoginAttempt } from './throttle.ts';
import type { TokenSigner } from './tokens.ts';

const invalidCredentials = () => new DomainError('INVALID_CREDENTIALS', 'Confira o login e a senha.');

async function issue(signer: TokenSigner, user: UserRow): Promise<Session> {
  const { token, expiresAt } = await signer.sign({
    userId: user.id,
    role: user.papel,
    idEmpresa: user.id_empresa,
    codVendedor: user.cod_vendedor,
    codSupervisor: user.cod_supervisor,
    tokenVersion: user.versao_token,
  });
  return {
    token,
    expiresAt: expiresAt.toISOString(),
    user: {
      id: user.id,
      login: user.login,
      name: decodeLossless(user.nome),
      role: user.papel,
      idEmpresa: user.id_empresa,
      codVendedor: user.cod_vendedor,
      codSupervisor: user.cod_supervisor,
    },
  };
}

/** Shared by the callers that pass no gate of their own (the app makes one per instance). */
const defaultGate = createHashGate();

/**
 * At most this many users holding one login get their password checked when the person names no
 * company (the oldest first); beyond it, the company must be named. Five companies sharing one
 * login is far past anything seen: it bounds the work an anonymous request can cause.
 */
export const MAX_LOGIN_CANDIDATES = 5;

export interface Credentials {
  login: string;
  password: string;
  /** The tenant (head-office id_empresa) the person names; needed only for an ambiguous login. */
  empresa?: number | undefined;
}

/** The same login and password open several companies: the person picks one (no secret is told). */
async function companyRequired(db: Db, users: UserRow[]): Promise<DomainError> {
  const ids = users.map((u) => u.id_empresa);
  const names = new Map((await selectTenantNames(db, ids)).map((t) => [t.id_empresa, t.nome]));
  return new DomainError(
    'LOGIN_COMPANY_REQUIRED',
    'Este login e senha abrem mais de uma empresa. Escolha em qual entrar.',
    {
      companies: ids.map((id) => ({ idEmpresa: id, name: names.get(id) ?? `Empresa ${id}` })),
      errors: [{ path: 'body.empresa', message: 'escolha a empresa' }],
    },
  );
}

/**
 * `address`: the client's address, for the limits of attempts (throttle.ts). `gate` bounds how
 * many passwords this process hashes at once (hash-gate.ts).
 *
 * A login is unique per tenant only (migration 0016), so it may name several users. The password
 * is checked against each active one, and the number of checks never depends on the login: it is
 * 1 when a company is named, else the most users any active login is shared by (capped), with a
 * dummy hash filling in for missing users. An unknown login, a wrong password and a login held in
 * three companies thus cost the same and get the same 401 (docs/security.md).
 */
export async function login(
  db: Db,
  signer: TokenSigner,
  credentials: Credentials,
  address = 'desconhecido',
  gate: HashGate = defaultGate,
): Promise<Session> {
  const { login, password, empresa } = credentials;
  // Counted before the password is checked, so simultaneous guesses cannot all slip through. The
  // key is the login, whatever company is named: naming another one buys no more guesses.
  await reserveLoginAttempt(db, login, address);
  let matched: UserRow[];
  try {
    const checks = empresa === undefined ? Math.min(await selectMostSharedLogin(db), MAX_LOGIN_CANDIDATES) : 1;
    const candidates = await selectLoginCandidates(db, login, empresa, checks);
    const dummy = await dummyHash();
    // One slot of the gate for all the checks: the gate bounds the cores spent hashing.
    matched = await gate.run(async () => {
      const found: UserRow[] = [];
      for (let i = 0; i < checks; i++) {
        const user = candidates[i];
        // Every check runs, even after a match, so the time taken says nothing about which did.
        const ok = await verifyPassword(password, user?.senha_hash ?? dummy);
        if (user && ok) found.push(user);
      }
      return found;
    });
  } catch (err) {
    // Too busy to check: the attempt does not count against the user.
    await releaseLoginAttempt(db, login, address, false);
    throw err;
  }
  const [user] = matched;
  if (!user) throw invalidCredentials();
  // The password was right: the failures before it no longer count, whatever comes next.
  await releaseLoginAttempt(db, login, address, true);
  if (matched.length > 1) throw await companyRequired(db, matched);
  return issue(signer, user);
}

export async function devLogin(db: Db, signer: TokenSigner, login: string, empresa?: number): Promise<Session> {
  const users = await selectLoginCandidates(db, login, empresa, MAX_LOGIN_CANDIDATES);
  const [user] = users;
  if (!user) throw invalidCredentials();
  if (users.length > 1) throw await companyRequired(db, users);
  return issue(signer, user);
}

/**
 * Resolves a bearer token to the caller. The user row is read (briefly cached) on every request,
 * so a disabled user or a reset password cuts off old tokens within the cache's lifetime.
 */
export function createAuthenticator(db: Db, signer: TokenSigner, cacheMs = 2000) {
  const cache = new Map<number, { row: UserRow | undefined; at: number }>();
  return async function authenticate(token: string): Promise<AuthContext | null> {
    const claims = await signer.verify(token);
    if (!claims) return null;
    let hit = cache.get(claims.userId);
    if (!hit || Date.now() - hit.at > cacheMs) {
      hit = { row: await selectUserById(db, claims.userId), at: Date.now() };
      cache.set(claims.userId, hit);
      if (cache.size > 10_000) cache.clear();
    }
    const user = hit.row;
    if (!user?.ativo || user.versao_token !== claims.tokenVersion) return null;
    return {
      userId: user.id,
      login: user.login,
      name: decodeLossless(user.nome),
      role: user.papel,
      idEmpresa: user.id_empresa,
      codVendedor: user.cod_vendedor,
      codSupervisor: user.cod_supervisor,
    };
  };
}
export type Authenticator = ReturnType<typeof createAuthenticator>;
