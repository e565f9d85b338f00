// Limits that protect the server (docs/security.md): the request body size, and failed logins
// per login and client address.
import type { Problem } from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { logInAs, SESSION_PASSWORD } from '../../../test/support/session.ts';
import { ADDRESS_MAX_FAILURES, LOGIN_MAX_FAILURES } from '../auth/throttle.ts';
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

  const loginAs = (login: string, password: string, on = app, forwardedFor?: string) =>
    on.request('/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
      body: JSON.stringify({ login, password }),
    });
  const failuresOf = async (key: string) =>
    (await db.pool.query('select falhas from app.tentativas_login where chave = $1', [key])).rows[0]?.falhas as
      | number
      | undefined;

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
    // Refused in middleware, before any route: the API's headers are still there.
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-store');
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

  it('counts simultaneous wrong passwords before checking them: 40 at once, then the right one is refused', async () => {
    await db.pool.query('delete from app.tentativas_login');
    // A gate that lets every check wait its turn: on a busy machine the default one answers some
    // of the 40 with 503 LOGIN_BUSY (not counted), which is not what this test is about.
    const patient = testApp(db.pool, { loginHashGate: { maxWaitMs: 60_000 } });
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => loginAs('rep@limites.test', 'senha-errada-em-paralelo', patient)),
    );
    const statuses = answers.map((r) => r.status);
    // At most LOGIN_MAX_FAILURES were checked at all; the others were refused before scrypt.
    expect(statuses.filter((s) => s === 401).length).toBe(LOGIN_MAX_FAILURES);
    expect(statuses.filter((s) => s === 429).length).toBe(40 - LOGIN_MAX_FAILURES);
    const right = await loginAs('rep@limites.test', SESSION_PASSWORD, patient);
    expect(right.status).toBe(429);
    expect(((await right.json()) as Problem).code).toBe('TOO_MANY_LOGIN_ATTEMPTS');
    await db.pool.query('delete from app.tentativas_login');
  });

  it('TRUST_PROXY=N takes the address the Nth proxy from the right added, not what the client wrote first', async () => {
    await db.pool.query('delete from app.tentativas_login');
    const behindOne = testApp(db.pool, { trustProxy: 1 });
    // The client forges a first entry each time; the balancer appends the real one.
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      const res = await loginAs('rep@limites.test', 'senha-errada', behindOne, `10.9.9.${i}, 203.0.113.7`);
      expect(res.status).toBe(401);
    }
    expect(await failuresOf('rep@limites.test|*|203.0.113.7')).toBe(LOGIN_MAX_FAILURES);
    const forged = await loginAs('rep@limites.test', SESSION_PASSWORD, behindOne, '198.51.100.1, 203.0.113.7');
    expect(forged.status).toBe(429);
    // Two proxies (a CDN, then the balancer): the CDN's entry names the client.
    const behindTwo = testApp(db.pool, { trustProxy: 2 });
    expect((await loginAs('rep@limites.test', 'x', behindTwo, '10.0.0.1, 192.0.2.44, 172.31.0.5')).status).toBe(401);
    expect(await failuresOf('rep@limites.test|*|192.0.2.44')).toBe(1);
    // Without TRUST_PROXY the header is ignored.
    expect((await loginAs('rep@limites.test', 'x', app, '192.0.2.99')).status).toBe(401);
    expect(await failuresOf('rep@limites.test|*|192.0.2.99')).toBeUndefined();
    await db.pool.query('delete from app.tentativas_login');
  });

  it(`stops one address after ${ADDRESS_MAX_FAILURES} failures across many logins (spraying), for that address only`, async () => {
    await db.pool.query('delete from app.tentativas_login');
    // A long wait for the hashing slot: this is about the count, not about the server being busy.
    const behindOne = testApp(db.pool, { trustProxy: 1, loginHashGate: { maxWaitMs: 60_000 } });
    const sprayer = '203.0.113.66';
    const answers = await Promise.all(
      Array.from({ length: ADDRESS_MAX_FAILURES }, (_, i) =>
        loginAs(`alvo${i}@limites.test`, 'senha123', behindOne, sprayer),
      ),
    );
    expect(answers.every((r) => r.status === 401)).toBe(true);
    const refused = await loginAs('outro@limites.test', SESSION_PASSWORD, behindOne, sprayer);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as Problem).code).toBe('TOO_MANY_LOGIN_ATTEMPTS');
    expect((await loginAs('outro@limites.test', SESSION_PASSWORD, behindOne, '203.0.113.67')).status).toBe(200);
    await db.pool.query('delete from app.tentativas_login');
  });

  it('bounds concurrent password checks: the excess gets 503 LOGIN_BUSY with Retry-After, and it does not count', async () => {
    await db.pool.query('delete from app.tentativas_login');
    // One check at a time and no waiting: of simultaneous logins, those that find the slot taken are refused.
    const narrow = testApp(db.pool, { loginHashGate: { concurrency: 1, maxWaitMs: 0 } });
    const answers = await Promise.all(Array.from({ length: 6 }, () => loginAs('outro@limites.test', 'errada', narrow)));
    const busy = answers.filter((r) => r.status === 503);
    const checked = answers.filter((r) => r.status === 401).length;
    expect(busy.length).toBeGreaterThan(0);
    expect(checked).toBeGreaterThan(0);
    const first = busy[0] as Response;
    expect(first.headers.get('retry-after')).toBe('1');
    expect(((await first.json()) as Problem).code).toBe('LOGIN_BUSY');
    // Only the attempts that were checked count against the login.
    expect(await failuresOf('outro@limites.test|*|desconhecido')).toBe(checked);
    await db.pool.query('delete from app.tentativas_login');
  });
});
