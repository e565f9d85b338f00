import type { Session } from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { apiAs } from '../../../test/support/session.ts';
import { createDb } from '../db/kysely.ts';
import { addUser, resetPassword, setUserActive } from '../users/service.ts';

const db = useTestDatabase();

const post = (app: ReturnType<typeof testApp>, path: string, body: unknown) => apiAs(app, null)('POST', path, body);

describe('auth', () => {
  let rep: { idEmpresa: number; codVendedor: number };

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    rep = erp.reps[0] as { idEmpresa: number; codVendedor: number };
    await addUser(createDb(db.pool), {
      login: 'Ana@Campo.test',
      name: 'Ana Conceição',
      role: 'representative',
      idEmpresa: rep.idEmpresa,
      codVendedor: rep.codVendedor,
      password: 'senha-forte-1',
    });
  });

  it('logs in with the right password and the token opens /auth/me', async () => {
    const app = testApp(db.pool);
    const res = await post(app, '/auth/login', { login: 'ana@campo.test', password: 'senha-forte-1' });
    expect(res.status).toBe(200);
    const session = (await res.json()) as Session;
    expect(session.user).toMatchObject({
      role: 'representative',
      idEmpresa: rep.idEmpresa,
      codVendedor: rep.codVendedor,
    });
    const me = await app.request('/api/v1/auth/me', { headers: { authorization: `Bearer ${session.token}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ login: 'ana@campo.test', name: 'Ana Conceição' });
  });

  it('refuses a wrong password and an unknown login alike', async () => {
    const app = testApp(db.pool);
    for (const body of [
      { login: 'ana@campo.test', password: 'errada' },
      { login: 'ninguem@campo.test', password: 'senha-forte-1' },
    ]) {
      const res = await post(app, '/auth/login', body);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(await res.json()).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    }
  });

  it('refuses a user of another role code shape before touching the database', async () => {
    await expect(
      addUser(createDb(db.pool), {
        login: 'x@campo.test',
        name: 'X',
        role: 'representative',
        idEmpresa: rep.idEmpresa,
        password: 'senha-forte-1',
      }),
    ).rejects.toThrow(/codVendedor/);
    await expect(
      addUser(createDb(db.pool), {
        login: 'y@campo.test',
        name: 'Y',
        role: 'representative',
        idEmpresa: rep.idEmpresa,
        codVendedor: 999_999,
        password: 'senha-forte-1',
      }),
    ).rejects.toThrow(/999999/);
  });

  it('dev-login answers only when enabled', async () => {
    const off = await post(testApp(db.pool), '/auth/dev-login', { login: 'ana@campo.test' });
    expect(off.status).toBe(404);
    const on = await post(testApp(db.pool, { devLogin: true }), '/auth/dev-login', { login: 'ana@campo.test' });
    expect(on.status).toBe(200);
    expect(((await on.json()) as Session).user.login).toBe('ana@campo.test');
  });

  it('revokes tokens when the user is disabled or the password reset', async () => {
    const app = testApp(db.pool);
    const session = (await (
      await post(app, '/auth/login', { login: 'ana@campo.test', password: 'senha-forte-1' })
    ).json()) as Session;
    const me = () => app.request('/api/v1/auth/me', { headers: { authorization: `Bearer ${session.token}` } });
    expect((await me()).status).toBe(200);

    await setUserActive(createDb(db.pool), 'ana@campo.test', false);
    // A fresh app has no cache: the check reads the user row.
    const fresh = testApp(db.pool);
    const revoked = await fresh.request('/api/v1/auth/me', { headers: { authorization: `Bearer ${session.token}` } });
    expect(revoked.status).toBe(401);
    expect((await post(fresh, '/auth/login', { login: 'ana@campo.test', password: 'senha-forte-1' })).status).toBe(401);

    await setUserActive(createDb(db.pool), 'ana@campo.test', true);
    const again = await fresh.request('/api/v1/auth/me', { headers: { authorization: `Bearer ${session.token}` } });
    expect(again.status).toBe(401);

    const second = (await (
      await post(fresh, '/auth/login', { login: 'ana@campo.test', password: 'senha-forte-1' })
    ).json()) as Session;
    await resetPassword(createDb(db.pool), 'ana@campo.test', 'outra-senha-2');
    const afterReset = testApp(db.pool);
    expect(
      (await afterReset.request('/api/v1/auth/me', { headers: { authorization: `Bearer ${second.token}` } })).status,
    ).toBe(401);
    expect((await post(afterReset, '/auth/login', { login: 'ana@campo.test', password: 'outra-senha-2' })).status).toBe(
      200,
    );
  });

  it('refuses tokens signed with another secret, malformed headers and no header', async () => {
    const app = testApp(db.pool);
    const other = testApp(db.pool, { jwtSecret: 'another-secret-that-is-long-enough-xxxxx' });
    const forged = (await (
      await post(other, '/auth/login', { login: 'ana@campo.test', password: 'outra-senha-2' })
    ).json()) as Session;
    for (const authorization of [`Bearer ${forged.token}`, 'Bearer nope', 'Basic YTpi', '']) {
      const res = await app.request('/api/v1/auth/me', { headers: authorization ? { authorization } : {} });
      expect(res.status).toBe(401);
    }
  });
});
