import { decodeLossless, type Session } from '@campo/shared';
import type { Db } from '../db/kysely.ts';
import { DomainError } from '../errors.ts';
import type { AuthContext } from '../http/env.ts';
import { createHashGate, type HashGate } from './hash-gate.ts';
import { dummyHash, verifyPassword } from './password.ts';
import { selectLoginCandidates, selectMostSharedLogin, selectUserById, type UserRow } from './queries.ts';
import { attemptKeys, releaseLoginAttempt, reserveLoginAttempt } from './throttle.ts';
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

/**
 * A login held in several companies, sent without one: the person names the company (its code,
 * the head office's id_empresa). It names no company: the caller has proven to belong to none,
 * and which companies hold a login is theirs to know (docs/security.md, "Logins are per tenant").
 */
const companyRequired = () =>
  new DomainError('LOGIN_COMPANY_REQUIRED', 'Este login existe em mais de uma empresa. Informe o código da sua.', {
    errors: [{ path: 'body.empresa', message: 'informe o código da empresa' }],
  });

/**
 * `address`: the client's address, for the limits of attempts (throttle.ts). `gate` bounds how
 * many passwords this process hashes at once (hash-gate.ts).
 *
 * A login is unique per tenant only (migration 0016), so it may name several users. With a
 * company named, the password is checked against that tenant's user alone. Without one, it is
 * checked against each active user holding the login, and the number of checks never depends on
 * the login: it is the most users any active login is shared by (capped), with a dummy hash
 * filling in for missing users. An unknown login, a wrong password and a login held in three
 * companies thus cost the same and get the same 401.
 *
 * Without a company, a login held by several users never logs in: when the password opens any
 * of them the answer is 409 LOGIN_COMPANY_REQUIRED, the same whichever and however many it
 * opens, naming no company. Whoever controls one of those users (another tenant's admin, who
 * sets its password to a guess) learns nothing of the others' passwords from it (issue 50,
 * docs/security.md).
 */
export async function login(
  db: Db,
  signer: TokenSigner,
  credentials: Credentials,
  address = 'desconhecido',
  gate: HashGate = defaultGate,
): Promise<Session> {
  const { login, password, empresa } = credentials;
  const keys = attemptKeys(login, empresa, address);
  // Counted before the password is checked, so simultaneous guesses cannot all slip through.
  await reserveLoginAttempt(db, keys);
  let candidates: UserRow[];
  let matched: UserRow[];
  try {
    const checks = empresa === undefined ? Math.min(await selectMostSharedLogin(db), MAX_LOGIN_CANDIDATES) : 1;
    candidates = await selectLoginCandidates(db, login, empresa, checks);
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
    // Too busy to check: the attempt does not count against anyone.
    await releaseLoginAttempt(db, keys, 'unchecked');
    throw err;
  }
  const [user] = matched;
  if (!user) throw invalidCredentials();
  // Held by several and no company named: the attempt stays counted (it was a guess at all of
  // them) and no count is cleared, so neither the answer nor the limits tell which it opened.
  if (empresa === undefined && candidates.length > 1) throw companyRequired();
  // The user's own failures no longer count; those against anyone else still do.
  await releaseLoginAttempt(db, keys, 'succeeded');
  return issue(signer, user);
}

export async function devLogin(db: Db, signer: TokenSigner, login: string, empresa?: number): Promise<Session> {
  const users = await selectLoginCandidates(db, login, empresa, MAX_LOGIN_CANDIDATES);
  const [user] = users;
  if (!user) throw invalidCredentials();
  if (users.length > 1) throw companyRequired();
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
