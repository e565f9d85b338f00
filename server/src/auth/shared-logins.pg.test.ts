// A login held in several tenants (logins are unique per tenant, migration 0016): the login
// screen takes login and password, asks for the company (naming none) when the password opens
// any of the login's users, whichever and however many, and answers an unknown login and a
// wrong password alike, with the same number of password checks. No answer and no limit depends
// on another tenant's password (issue 50).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Problem } from '@campo/shared';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { apiAs } from '../../../test/support/session.ts';
import { createDb } from '../db/kysely.ts';
import { addUser, resetPassword } from '../users/service.ts';
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
    // The attack of issue 50: tenant 1's admin creates a user with the login of tenant 2's
    // representative, and guesses the representative's password through it.
    await add('alvo@compartilhado.test', t2, 'segredo-da-vitima');
    await add('alvo@compartilhado.test', t1, 'senha-do-atacante');
  });

  beforeEach(async () => {
    await db.pool.query('delete from app.tentativas_login');
    vi.mocked(verifyPassword).mockClear();
  });

  it('logs a login held by one user in without company, and asks for it for a shared one', async () => {
    expect(
      await loggedInto(await post('/auth/login', { login: 'so.um@compartilhado.test', password: 'senha-do-so-um' })),
    ).toBe(t1);
    for (const password of ['senha-do-joao-1', 'senha-do-joao-2']) {
      const asked = await post('/auth/login', { login: 'JOAO@compartilhado.test', password });
      expect(asked.status).toBe(409);
      expect(((await asked.json()) as Problem).code).toBe('LOGIN_COMPANY_REQUIRED');
    }
    expect(
      await loggedInto(
        await post('/auth/login', { login: 'joao@compartilhado.test', password: 'senha-do-joao-1', empresa: t1 }),
      ),
    ).toBe(t1);
    expect(
      await loggedInto(
        await post('/auth/login', { login: 'JOAO@compartilhado.test', password: 'senha-do-joao-2', empresa: t2 }),
      ),
    ).toBe(t2);
    // The password of one tenant's user, naming the other tenant: the usual 401.
    const crossed = await post('/auth/login', {
      login: 'joao@compartilhado.test',
      password: 'senha-do-joao-1',
      empresa: t2,
    });
    expect(crossed.status).toBe(401);
  });

  it('asks for the company, naming none, when one password opens two, then logs into the one named', async () => {
    const both = await post('/auth/login', { login: 'maria@compartilhado.test', password: 'mesma-senha-123' });
    expect(both.status).toBe(409);
    const problem = (await both.json()) as Problem;
    expect(problem.code).toBe('LOGIN_COMPANY_REQUIRED');
    expect(problem).not.toHaveProperty('companies');
    expect(problem.errors?.map((e) => e.path)).toEqual(['body.empresa']);
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

  it("keeps the limit of attempts per tenant's user and address, and one for attempts without company", async () => {
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      const empresa = i % 2 ? { empresa: t2 } : {};
      expect(
        (await post('/auth/login', { login: 'joao@compartilhado.test', password: 'errada', ...empresa })).status,
      ).toBe(401);
    }
    // One attempt per request, not per candidate: for the company's user when one is named, else
    // for the login's users at once.
    const { rows } = await db.pool.query("select chave, falhas from app.tentativas_login where chave like 'joao@%'");
    expect(Object.fromEntries(rows.map((r) => [r.chave.split('|')[1], r.falhas]))).toEqual({
      [String(t2)]: LOGIN_MAX_FAILURES / 2,
      '*': LOGIN_MAX_FAILURES / 2,
    });
    for (let i = 0; i < LOGIN_MAX_FAILURES / 2; i++) {
      expect(
        (await post('/auth/login', { login: 'joao@compartilhado.test', password: 'errada', empresa: t2 })).status,
      ).toBe(401);
    }
    // Past the limit, even the right password is refused: a guesser is not told when it hit.
    const refused = await post('/auth/login', {
      login: 'joao@compartilhado.test',
      password: 'senha-do-joao-2',
      empresa: t2,
    });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as Problem).code).toBe('TOO_MANY_LOGIN_ATTEMPTS');
  });

  it('dev-login needs the company for a login held in several, and names none', async () => {
    const dev = testApp(db.pool, { devLogin: true });
    const both = await post('/auth/dev-login', { login: 'joao@compartilhado.test' }, dev);
    expect(both.status).toBe(409);
    const problem = (await both.json()) as Problem;
    expect(problem.code).toBe('LOGIN_COMPANY_REQUIRED');
    expect(problem).not.toHaveProperty('companies');
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
      await loggedInto(
        await post('/auth/login', { login: 'joao@compartilhado.test', password: 'senha-nova-do-joao', empresa: t2 }),
      ),
    ).toBe(t2);
    expect(
      await loggedInto(
        await post('/auth/login', { login: 'joao@compartilhado.test', password: 'senha-do-joao-1', empresa: t1 }),
      ),
    ).toBe(t1);
  });

  describe("another tenant's admin holding a user of the same login", () => {
    const login = 'alvo@compartilhado.test';
    const setOwn = (password: string) => resetPassword(createDb(db.pool), login, password, t1);
    const strip = async (res: Response) => {
      const { requestId: _r, instance: _i, ...rest } = (await res.json()) as Problem;
      return { ...rest, status: res.status };
    };

    it("learns nothing of the other tenant's password from a login without company", async () => {
      const answers = [];
      try {
        for (const guess of ['palpite-errado-1', 'segredo-da-vitima']) {
          // The admin sets its own user's password to the guess and logs in with it.
          await setOwn(guess);
          await db.pool.query('delete from app.tentativas_login');
          answers.push(await strip(await post('/auth/login', { login, password: guess })));
        }
      } finally {
        await setOwn('senha-do-atacante');
      }
      // Before issue 50: 200 for a wrong guess, 409 naming tenant 2 for the right one.
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[0]).toMatchObject({ status: 409, code: 'LOGIN_COMPANY_REQUIRED' });
      // No company is named: the caller has proven to belong to none but its own.
      expect(answers[0]).not.toHaveProperty('companies');
    }, 240_000);

    it("counts guesses against the other tenant's user, never cleared by its own user's success", async () => {
      for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
        expect((await post('/auth/login', { login, password: `palpite-${i}-x`, empresa: t2 })).status).toBe(401);
        // A success of the admin's own user, from the same address, clears only its own count.
        expect(await loggedInto(await post('/auth/login', { login, password: 'senha-do-atacante', empresa: t1 }))).toBe(
          t1,
        );
      }
      // Before issue 50 every success cleared the login's count: the 30th guess got the token.
      const right = await post('/auth/login', { login, password: 'segredo-da-vitima', empresa: t2 });
      expect(right.status).toBe(429);
      expect(((await right.json()) as Problem).code).toBe('TOO_MANY_LOGIN_ATTEMPTS');
    }, 240_000);

    it('limits guesses without company, each a guess at every user of the login', async () => {
      for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
        expect((await post('/auth/login', { login, password: `palpite-${i}-y` })).status).toBe(401);
      }
      // The victim's password, which would answer 409 (it opens one of the users): refused.
      expect((await post('/auth/login', { login, password: 'segredo-da-vitima' })).status).toBe(429);
      // The 409 clears nothing: a right password there proves nothing of whose it is.
      await db.pool.query('delete from app.tentativas_login');
      for (let i = 0; i < LOGIN_MAX_FAILURES - 1; i++) {
        expect((await post('/auth/login', { login, password: `palpite-${i}-v` })).status).toBe(401);
      }
      expect((await post('/auth/login', { login, password: 'senha-do-atacante' })).status).toBe(409);
      expect((await post('/auth/login', { login, password: 'senha-do-atacante' })).status).toBe(429);
    }, 240_000);

    it("clears a user's count on that user's own success only", async () => {
      for (let i = 0; i < LOGIN_MAX_FAILURES - 1; i++) {
        expect((await post('/auth/login', { login, password: `palpite-${i}-z`, empresa: t2 })).status).toBe(401);
        expect((await post('/auth/login', { login, password: `palpite-${i}-z`, empresa: t1 })).status).toBe(401);
      }
      expect(await loggedInto(await post('/auth/login', { login, password: 'segredo-da-vitima', empresa: t2 }))).toBe(
        t2,
      );
      // Tenant 2's user starts again; tenant 1's keeps its failures.
      for (let i = 0; i < LOGIN_MAX_FAILURES - 1; i++) {
        expect((await post('/auth/login', { login, password: `palpite-${i}-w`, empresa: t2 })).status).toBe(401);
      }
      expect((await post('/auth/login', { login, password: 'errada-de-novo', empresa: t1 })).status).toBe(401);
      expect((await post('/auth/login', { login, password: 'senha-do-atacante', empresa: t1 })).status).toBe(429);
    }, 240_000);
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
