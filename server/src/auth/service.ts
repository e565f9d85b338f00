import { decodeLossless, type Session } from '@campo/shared';
import type { Db } from '../db/kysely.ts';
import { DomainError } from '../errors.ts';
import { type UserRow, userById, userByLogin } from '../users/service.ts';
import type { AuthContext } from './claims.ts';
import { createHashGate, type HashGate } from './hash-gate.ts';
import { dummyHash, verifyPassword } from './password.ts';
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
 * `address`: the client's address, for the limits of attempts (throttle.ts). `gate` bounds how
 * many passwords this process hashes at once (hash-gate.ts).
 */
export async function login(
  db: Db,
  signer: TokenSigner,
  login: string,
  password: string,
  address = 'desconhecido',
  gate: HashGate = defaultGate,
): Promise<Session> {
  // Counted before the password is checked, so simultaneous guesses cannot all slip through.
  await reserveLoginAttempt(db, login, address);
  const user = await userByLogin(db, login);
  let ok: boolean;
  try {
    // Verify against a dummy hash when the login is unknown: same work, so timing reveals nothing.
    const stored = user?.senha_hash ?? (await dummyHash());
    ok = await gate.run(() => verifyPassword(password, stored));
  } catch (err) {
    // Too busy to check: the attempt does not count against the user.
    await releaseLoginAttempt(db, login, address, false);
    throw err;
  }
  if (!user || !ok || !user.ativo) throw invalidCredentials();
  await releaseLoginAttempt(db, login, address, true);
  return issue(signer, user);
}

export async function devLogin(db: Db, signer: TokenSigner, login: string): Promise<Session> {
  const user = await userByLogin(db, login);
  if (!user?.ativo) throw invalidCredentials();
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
      hit = { row: await userById(db, claims.userId), at: Date.now() };
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
