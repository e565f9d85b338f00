// Limits that protect the server (docs/security.md): the request body size, and failed logins
// per login and client address.
import type { Problem } from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { logInAs, SESSION_PASSWORD } from '../../../test/support/session.ts';
import { LOGIN_MAX_FAILURES } from '../auth/throttle.ts';
import { BODY_LIMIT_BYTES } from './middleware.ts';

const db = useTestDatabase();

describe('limits', () => {
  let app: ReturnType<typeof testApp>;
  let token: string;

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const rep = erp.reps[0];
    if (!rep) throw new Error('no representative');
    app = testApp(db.pool);
    token = await logInAs(app, db.pool, {
      login: 'rep@limites.test',
      role: 'representative',
      idEmpresa: rep.idEmpresa,
      codVendedor: rep.codVendedor,
    });
    await logInAs(app, db.pool, { login: 'outro@limites.test', role: 'manager', idEmpresa: rep.idEmpresa });
  });

  const loginAs = (login: string, password: string) =>
    app.request('/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login, password }),
    });

  it('refuses a body over 1 MiB with 413, before reading it; a replication push may be larger', async () => {
    const big = JSON.stringify({ observacao: 'x'.repeat(BODY_LIMIT_BYTES) });
    const res = await app.request('/api/v1/orders', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'idempotency-key': 'chave-grande-1',
      },
      body: big,
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as Problem).code).toBe('PAYLOAD_TOO_LARGE');
    // 2 MiB of pushed documents reach validation (more than 100 rows: 400), not the size limit.
    const rows = Array.from({ length: 101 }, (_, i) => ({
      assumedMasterState: null,
      newDocumentState: { id: `doc-${i}-abcdefgh`, filler: 'y'.repeat(20_000) },
    }));
    const push = await app.request('/api/v1/sync/pedidos/push', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(rows),
    });
    expect(push.status).toBe(400);
    expect(((await push.json()) as Problem).code).toBe('VALIDATION_FAILED');
  });

  it(`stops a login after ${LOGIN_MAX_FAILURES} failures with 429 and Retry-After, for that login only`, async () => {
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      expect((await loginAs('rep@limites.test', 'senha-errada')).status).toBe(401);
    }
    // Even the right password waits: guessing must not be told when it succeeded.
    const blocked = await loginAs('rep@limites.test', SESSION_PASSWORD);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await blocked.json()) as Problem).code).toBe('TOO_MANY_LOGIN_ATTEMPTS');
    expect((await loginAs('outro@limites.test', SESSION_PASSWORD)).status).toBe(200);
    // Once the window has passed, the right password works and clears the count.
    await db.pool.query("update app.tentativas_login set janela_inicio = now() - interval '16 minutes'");
    expect((await loginAs('rep@limites.test', SESSION_PASSWORD)).status).toBe(200);
    const left = await db.pool.query("select count(*)::int as n from app.tentativas_login where chave like 'rep@%'");
    expect(left.rows[0].n).toBe(0);
  });
});
