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

export function createTokenSigner(secret: string, ttlHours: number): TokenSigner {
  const key = new TextEncoder().encode(secret);
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
        .sign(key);
      return { token, expiresAt };
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
        const userId = Number(payload.sub);
        if (!Number.isSafeInteger(userId) || typeof payload.ver !== 'number') return null;
        return {
          userId,
          role: payload.role as Role,
          idEmpresa: Number(payload.id_empresa),
          codVendedor: (payload.cod_vendedor as number | null) ?? null,
          codSupervisor: (payload.cod_supervisor as number | null) ?? null,
          tokenVersion: payload.ver,
        };
      } catch {
        return null;
      }
    },
  };
}
