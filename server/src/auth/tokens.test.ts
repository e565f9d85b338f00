import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenSigner, type TokenClaims } from './tokens.ts';

const claims: TokenClaims = {
  userId: 7,
  role: 'representative',
  idEmpresa: 1,
  codVendedor: 12,
  codSupervisor: null,
  tokenVersion: 3,
};

describe('tokens', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('verifies its own tokens, again and again, and nothing else', async () => {
    const signer = createTokenSigner('s'.repeat(40), 1);
    const { token } = await signer.sign(claims);
    expect(await signer.verify(token)).toEqual(claims);
    expect(await signer.verify(token)).toEqual(claims);
    const [head, body, signature] = token.split('.') as [string, string, string];
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await signer.verify(`${head}.${body}.${flipped}`)).toBeNull();
    expect(await createTokenSigner('t'.repeat(40), 1).verify(token)).toBeNull();
  });

  it('stops accepting a token once it expires, even one it verified before', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-23T10:00:00Z'));
    const signer = createTokenSigner('s'.repeat(40), 1);
    const { token, expiresAt } = await signer.sign(claims);
    expect(await signer.verify(token)).toEqual(claims);
    vi.setSystemTime(new Date(expiresAt.getTime() + 1000));
    expect(await signer.verify(token)).toBeNull();
    // A fresh signer (another process) refuses it too, through jose's own check.
    expect(await createTokenSigner('s'.repeat(40), 1).verify(token)).toBeNull();
  });
});
