// Bearer tokens: HS256 JWTs signed with JWT_SECRET. The token names the user and the version of
// their credentials; the auth middleware checks both against the user row, so disabling a user
// or resetting a password revokes every token already issued.
import type { Role } from '@campo/shared';
import { jwtVerify, SignJWT } from 'jose';

const ISSUER = 'campo';
const AUDIENCE = 'campo-api';

export interface TokenClaims {
  userId: number;
  role: Role;
  idEmpresa: number;
  codVendedor: number | null;
  codSupervisor: number | null;
  tokenVersion: number;
}

export interface TokenSigner {
  sign(claims: TokenClaims): Promise<{ token: string; expiresAt: Date }>;
  verify(token: string): Promise<TokenClaims | null>;
}

/** Verified tokens kept by their text, so a device's next request skips the HMAC (most requests). */
const VERIFIED_MAX = 10_000;

export function createTokenSigner(secret: string, ttlHours: number): TokenSigner {
  // Imported once: given the raw bytes, jose imports a key for every signature it checks.
  const key = crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  // The same token text verified once verifies again until it expires: the signature, issuer
  // and audience cannot change. Revocation is the middleware's check of the user row, after this.
  const verified = new Map<string, { claims: TokenClaims; exp: number }>();
  return {
    async sign(claims) {
      const expiresAt = new Date(Date.now() + ttlHours * 3_600_000);
      const token = await new SignJWT({
        role: claims.role,
        id_empresa: claims.idEmpresa,
        cod_vendedor: claims.codVendedor,
        cod_supervisor: claims.codSupervisor,
        ver: claims.tokenVersion,
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(claims.userId))
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(await key);
      return { token, expiresAt };
    },
    async verify(token) {
      const known = verified.get(token);
      if (known) {
        if (known.exp > Date.now() / 1000) return known.claims;
        verified.delete(token);
        return null;
      }
      try {
        const { payload } = await jwtVerify(token, await key, {
          issuer: ISSUER,
          audience: AUDIENCE,
          algorithms: ['HS256'],
        });
        const userId = Number(payload.sub);
        if (!Number.isSafeInteger(userId) || typeof payload.ver !== 'number' || typeof payload.exp !== 'number') {
          return null;
        }
        const claims: TokenClaims = {
          userId,
          role: payload.role as Role,
          idEmpresa: Number(payload.id_empresa),
          codVendedor: (payload.cod_vendedor as number | null) ?? null,
          codSupervisor: (payload.cod_supervisor as number | null) ?? null,
          tokenVersion: payload.ver,
        };
        // Bounded: the oldest entry goes first (a Map iterates in insertion order).
        if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
        verified.set(token, { claims, exp: payload.exp });
        return claims;
      } catch {
        return null;
      }
    },
  };
}
