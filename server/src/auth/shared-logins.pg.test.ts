// A login held in several tenants (logins are unique per tenant, migration 0016): the login
// screen still takes login and password, finds the one user they open, asks for the company only
// when the same password opens several, and answers an unknown login and a wrong password alike,
// with the same number of password checks.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Problem } from '@campo/shared';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { apiAs } from '../../../test/support/session.ts';
import { createDb } from '../db/kysely.ts';
import { addUser } from '../users/service.ts';
import { verifyPassword } from './password.ts';
import { LOGIN_MAX_FAILURES } from './throttle.ts';

// Counts the password checks; each still runs the real scrypt.
vi.mock('./password.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('./password.ts')>();
  return { ...real, verifyPassword: vi.fn(real.verifyPassword) };
});

const db = useTestDatabase();
const campo = fileURLToPath(new URL('../../bin/campo.mjs', import.meta.url));

describe('a login held in several tenants', () => {
  let app: ReturnType<typeof testApp>;
  let t1: number;
  let t2: number;

  const add = (login: string, idEmpresa: number, password: string) =>
    addUser(createDb(db.pool), { login, name: login, role: 'manager', idEmpresa, password });
  const post = (path: string, body: unknown, on = app) => apiAs(on, null)('POST', path, body);
  const loggedInto = async (res: Response) => {
    expect(res.status).toBe(200);
    return ((await res.json()) as { user: { idEmpresa: number } }).user.idEmpresa;
  };

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    [t1, t2] = erp.tenants as [number, number];
    app = testApp(db.pool);
    await add('joao@compartilhado.test', t1, 'senha-do-joao-1');
    await add('joao@compartilhado.test', t2, 'senha-do-joao-2');
    await add('maria@compartilhado.test', t1, 'mesma-senha-123');
    await add('maria@compartilhado.test', t2, 'mesma-senha-123');
    await add('so.um@compartilhado.test', t1, 'senha-do-so-um');
  });

  beforeEach(async () => {
    await db.pool.query('delete from app.tentativas_login');
    vi.mocked(verifyPassword).mockClear();
  });

  it('logs into the tenant whose password was given', async () => {
    expect(
      await loggedInto(await post('/auth/login', { login: 'joao@compartilhado.test', password: 'senha-do-joao-1' })),
    ).toBe(t1);
    expect(
      await loggedInto(await post('/auth/login', { login: 'JOAO@compartilhado.test', password: 'senha-do-joao-2' })),
    ).toBe(t2);
    expect(
      await loggedInto(await post('/auth/login', { login: 'so.um@compartilhado.test', password: 'senha-do-so-um' })),
    ).toBe(t1);
  });

  it('asks for the company when one password opens two, then logs into the one named', async () => {
    const both = await post('/auth/login', { login: 'maria@compartilhado.test', password: 'mesma-senha-123' });
    expect(both.status).toBe(409);
    const problem = (await both.json()) as Problem & { companies: { idEmpresa: number; name: string }[] };
    expect(problem.code).toBe('LOGIN_COMPANY_REQUIRED');
    expect(problem.companies.map((c) => c.idEmpresa)).toEqual([t1, t2]);
    for (const c of problem.companies) expect(c.name.length).toBeGreaterThan(0);
    const second = await post('/auth/login', {
      login: 'maria@compartilhado.test',
      password: 'mesma-senha-123',
      empresa: t2,
    });
    expect(await loggedInto(second)).toBe(t2);
    // A company the login is not in, or a wrong password with the company: the usual 401.
    const nowhere = await post('/auth/login', {
      login: 'so.um@compartilhado.test',
      password: 'senha-do-so-um',
      empresa: t2,
    });
    expect(nowhere.status).toBe(401);
    const wrong = await post('/auth/login', {
      login: 'maria@compartilhado.test',
      password: 'errada-1234',
      empresa: t1,
    });
    expect(((await wrong.json()) as Problem).code).toBe('INVALID_CREDENTIALS');
  });

  it('answers an unknown login, a wrong password and a shared login alike, after as many password checks', async () => {
    const strip = async (res: Response) => {
      const { requestId: _r, instance: _i, ...rest } = (await res.json()) as Problem;
      // The body's status is the HTTP status (docs/security.md, "Errors").
      return { ...rest, status: res.status };
    };
    const checksOf = async (body: unknown) => {
      vi.mocked(verifyPassword).mockClear();
      const answer = await strip(await post('/auth/login', body));
      return { answer, checks: vi.mocked(verifyPassword).mock.calls.length };
    };
    const unknown = await checksOf({ login: 'ninguem@compartilhado.test', password: 'qualquer-senha' });
    const single = await checksOf({ login: 'so.um@compartilhado.test', password: 'qualquer-senha' });
    const shared = await checksOf({ login: 'joao@compartilhado.test', password: 'qualquer-senha' });
    expect(unknown.answer).toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS' });
    expect(single.answer).toEqual(unknown.answer);
    expect(shared.answer).toEqual(unknown.answer);
    // Two tenants share a login here, so every login without a company checks two passwords.
    expect([unknown.checks, single.checks, shared.checks]).toEqual([2, 2, 2]);
    const right = await checksOf({ login: 'so.um@compartilhado.test', password: 'senha-do-so-um' });
    expect(right.checks).toBe(2);
    // Naming the company narrows it to one check, whatever the login.
    const named = await checksOf({ login: 'ninguem@compartilhado.test', password: 'x', empresa: t1 });
    expect(named.checks).toBe(1);
  });

  it('keeps the limit of attempts per login and address, whatever company is named', async () => {
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      const empresa = i % 2 ? { empresa: t2 } : {};
      expect(
        (await post('/auth/login', { login: 'joao@compartilhado.test', password: 'errada', ...empresa })).status,
      ).toBe(401);
    }
    // One attempt per request, not per candidate.
    const { rows } = await db.pool.query("select falhas from app.tentativas_login where chave like 'joao@%'");
    expect(rows.map((r) => r.falhas)).toEqual([LOGIN_MAX_FAILURES]);
    for (const body of [
      { login: 'joao@compartilhado.test', password: 'senha-do-joao-2' },
      { login: 'joao@compartilhado.test', password: 'senha-do-joao-2', empresa: t2 },
    ]) {
      const refused = await post('/auth/login', body);
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as Problem).code).toBe('TOO_MANY_LOGIN_ATTEMPTS');
    }
  });

  it('dev-login needs the company for a login held in several', async () => {
    const dev = testApp(db.pool, { devLogin: true });
    const both = await post('/auth/dev-login', { login: 'joao@compartilhado.test' }, dev);
    expect(both.status).toBe(409);
    expect(((await both.json()) as Problem).code).toBe('LOGIN_COMPANY_REQUIRED');
    expect(
      await loggedInto(await post('/auth/dev-login', { login: 'joao@compartilhado.test', empresa: t2 }, dev)),
    ).toBe(t2);
  });

  it('campo user reset-password asks which tenant for a shared login, and changes only that one', async () => {
    const run = (...args: string[]) =>
      spawnSync(
        process.execPath,
        [campo, 'user', 'reset-password', 'joao@compartilhado.test', '--password-stdin', ...args],
        {
          env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: db.url },
          input: 'senha-nova-do-joao\n',
          encoding: 'utf8',
          timeout: 30_000,
        },
      );
    const ambiguous = run();
    expect(ambiguous.status).toBe(3);
    expect(ambiguous.stderr).toContain(`mais de uma empresa (${t1}, ${t2})`);
    const done = run('--empresa', String(t2));
    expect(done.stderr).toBe('');
    expect(done.status).toBe(0);
    expect(
      await loggedInto(await post('/auth/login', { login: 'joao@compartilhado.test', password: 'senha-nova-do-joao' })),
    ).toBe(t2);
    expect(
      await loggedInto(await post('/auth/login', { login: 'joao@compartilhado.test', password: 'senha-do-joao-1' })),
    ).toBe(t1);
  });

  it('keeps one holder of a login per tenant in the database itself', async () => {
    await expect(add('joao@compartilhado.test', t1, 'outra-senha-1')).rejects.toMatchObject({ code: 'USER_EXISTS' });
    await expect(
      db.pool.query(
        `insert into app.usuarios (id_empresa, login, nome, papel, senha_hash) values ($1, 'joao@compartilhado.test', 'x', 'manager', 'x')`,
        [t1],
      ),
    ).rejects.toMatchObject({ code: '23505' });
  });
});
