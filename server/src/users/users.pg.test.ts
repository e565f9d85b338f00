// The admin's user routes against a real database: the tenant wall, the CLI's rules through
// HTTP, and that disabling or resetting really revokes the tokens already handed out.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { signedIn } from '../../../test/support/builders.ts';
import { type ErpPeople, provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { apiAs, logInAs } from '../../../test/support/session.ts';

const db = useTestDatabase();
const campo = fileURLToPath(new URL('../../bin/campo.mjs', import.meta.url));

interface UserBody {
  id: number;
  login: string;
  name: string;
  role: string;
  codVendedor: number | null;
  codSupervisor: number | null;
  active: boolean;
}

describe('user management over HTTP', () => {
  let app: ReturnType<typeof testApp>;
  let erp: ErpPeople;
  let admin: ReturnType<typeof apiAs>;
  let foreignAdmin: ReturnType<typeof apiAs>;
  let manager: ReturnType<typeof apiAs>;
  let adminId: number;
  let t1: number;
  let t2: number;

  beforeAll(async () => {
    erp = await provisionedErp(db.pool);
    [t1, t2] = erp.tenants as [number, number];
    app = testApp(db.pool);
    admin = await signedIn(app, db.pool, { login: 'adm@usuarios.test', role: 'admin', idEmpresa: t1 });
    foreignAdmin = await signedIn(app, db.pool, { login: 'adm2@usuarios.test', role: 'admin', idEmpresa: t2 });
    manager = await signedIn(app, db.pool, { login: 'ger@usuarios.test', role: 'manager', idEmpresa: t1 });
    const me = (await (await admin('GET', '/auth/me')).json()) as { id: number };
    adminId = me.id;
  });

  it('creates a representative tied to an ERP code of the tenant, and lists it', async () => {
    const rep = erp.reps.find((r) => r.idEmpresa === t1) as ErpPeople['reps'][number];
    const res = await admin('POST', '/usuarios', {
      login: 'Nova.Rep@Usuarios.test',
      name: 'Joana Conceição',
      role: 'representative',
      codVendedor: rep.codVendedor,
      password: 'senha-da-joana-1',
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as UserBody;
    expect(created).toMatchObject({
      login: 'nova.rep@usuarios.test',
      name: 'Joana Conceição',
      role: 'representative',
      codVendedor: rep.codVendedor,
      codSupervisor: null,
      active: true,
    });
    expect(res.headers.get('location')).toBe(`/api/v1/usuarios/${created.id}`);
    expect(JSON.stringify(created)).not.toContain('senha');

    const list = await admin('GET', '/usuarios?q=concei&pageSize=10');
    expect(list.status).toBe(200);
    const page = (await list.json()) as { items: UserBody[]; total: number; pageSize: number };
    expect(page.items.map((u) => u.login)).toEqual(['nova.rep@usuarios.test']);
    expect(page.total).toBe(1);
    expect(page.pageSize).toBe(10);

    // The new login works.
    const login = await app.request('/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'nova.rep@usuarios.test', password: 'senha-da-joana-1' }),
    });
    expect(login.status).toBe(200);
  });

  it('refuses bad input field by field, a taken login and an ERP code of another tenant', async () => {
    const bad = await admin('POST', '/usuarios', { login: 'x', name: '', role: 'supervisor', password: 'curta' });
    expect(bad.status).toBe(400);
    const problem = (await bad.json()) as { errors: { path: string; message: string }[] };
    const paths = problem.errors.map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['body.login', 'body.name', 'body.password', 'body.codSupervisor']));

    const taken = await admin('POST', '/usuarios', {
      login: 'ger@usuarios.test',
      name: 'Outro',
      role: 'manager',
      password: 'senha-longa-1',
    });
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { code: string }).code).toBe('LOGIN_UNAVAILABLE');

    // A supervisor code that only exists in the other tenant.
    const t1Codes = new Set(erp.supervisors.filter((s) => s.idEmpresa === t1).map((s) => s.codSupervisor));
    const foreignOnly = erp.supervisors.find((s) => s.idEmpresa === t2 && !t1Codes.has(s.codSupervisor));
    const code = foreignOnly?.codSupervisor ?? 999_999;
    const missing = await admin('POST', '/usuarios', {
      login: 'sup.fantasma@usuarios.test',
      name: 'Fantasma',
      role: 'supervisor',
      codSupervisor: code,
      password: 'senha-longa-1',
    });
    expect(missing.status).toBe(400);
    const p = (await missing.json()) as { code: string; errors: { path: string }[] };
    expect(p.code).toBe('ERP_RECORD_NOT_FOUND');
    expect(p.errors[0]?.path).toBe('body.codSupervisor');
  });

  it('keeps a name as typed, whatever LATIN1 lacks, and finds it by any part; NUL in a search is a 400', async () => {
    const name = 'Ana D’Ávila — 😀 €';
    const res = await admin('POST', '/usuarios', {
      login: 'ana@usuarios.test',
      name,
      role: 'manager',
      password: 'senha-da-ana-12',
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as UserBody).name).toBe(name);
    for (const q of ['€', '😀', 'D’', 'ana d’']) {
      const found = await admin('GET', `/usuarios?q=${encodeURIComponent(q)}`);
      expect(found.status, q).toBe(200);
      const items = ((await found.json()) as { items: UserBody[] }).items;
      expect(
        items.map((u) => u.name),
        q,
      ).toContain(name);
    }
    const nul = await admin('GET', '/usuarios?q=a%00b');
    expect(nul.status).toBe(400);
    expect(((await nul.json()) as { code: string }).code).toBe('INVALID_CHARACTER');
    // The name comes back exact in the session too.
    const login = await app.request('/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'ana@usuarios.test', password: 'senha-da-ana-12' }),
    });
    expect(((await login.json()) as { user: { name: string } }).user.name).toBe(name);
  });

  it('campo user add keeps a name LATIN1 lacks instead of crashing', async () => {
    const run = spawnSync(
      process.execPath,
      [
        campo,
        'user',
        'add',
        '--login',
        'cli@usuarios.test',
        '--name',
        'Ana D’Ávila 😀',
        '--role',
        'manager',
        '--empresa',
        String(t1),
        '--password-stdin',
      ],
      {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: db.url },
        input: 'senha-da-cli-123\n',
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const listed = await admin('GET', '/usuarios?q=cli%40usuarios');
    expect(((await listed.json()) as { items: UserBody[] }).items[0]?.name).toBe('Ana D’Ávila 😀');
  });

  it('keeps each admin inside their own tenant', async () => {
    const mine = (await (await admin('GET', '/usuarios?pageSize=100')).json()) as { items: UserBody[] };
    const theirs = (await (await foreignAdmin('GET', '/usuarios?pageSize=100')).json()) as { items: UserBody[] };
    expect(mine.items.map((u) => u.login)).not.toContain('adm2@usuarios.test');
    expect(theirs.items.map((u) => u.login)).toEqual(['adm2@usuarios.test']);
    const target = mine.items.find((u) => u.login === 'ger@usuarios.test') as UserBody;
    expect((await foreignAdmin('GET', `/usuarios/${target.id}`)).status).toBe(404);
    expect((await foreignAdmin('PUT', `/usuarios/${target.id}/ativo`, { active: false })).status).toBe(404);
    expect((await foreignAdmin('PUT', `/usuarios/${target.id}/senha`, { password: 'tomada-123' })).status).toBe(404);
    expect((await manager('GET', '/usuarios')).status).toBe(403);
  });

  it('disables a login (its token stops working), enables it again, and resets a password', async () => {
    const rep = erp.reps.filter((r) => r.idEmpresa === t1)[1] as ErpPeople['reps'][number];
    const token = await logInAs(app, db.pool, {
      login: 'rep.desligado@usuarios.test',
      role: 'representative',
      idEmpresa: t1,
      codVendedor: rep.codVendedor,
    });
    const asRep = apiAs(app, token);
    expect((await asRep('GET', '/auth/me')).status).toBe(200);
    const list = (await (await admin('GET', '/usuarios?q=desligado')).json()) as { items: UserBody[] };
    const id = list.items[0]?.id as number;

    const off = await admin('PUT', `/usuarios/${id}/ativo`, { active: false });
    expect(off.status).toBe(200);
    expect(((await off.json()) as UserBody).active).toBe(false);
    const { rows } = await db.pool.query('select ativo from app.usuarios where id = $1', [id]);
    expect(rows[0].ativo).toBe(false);
    // The auth middleware caches a user row for up to 2 s.
    await expect.poll(async () => (await asRep('GET', '/auth/me')).status, { timeout: 5_000 }).toBe(401);
    expect((await admin('GET', '/usuarios?active=false')).status).toBe(200);
    const disabled = (await (await admin('GET', '/usuarios?active=false')).json()) as { items: UserBody[] };
    expect(disabled.items.map((u) => u.id)).toEqual([id]);

    const on = await admin('PUT', `/usuarios/${id}/ativo`, { active: true });
    expect(((await on.json()) as UserBody).active).toBe(true);

    expect((await admin('PUT', `/usuarios/${id}/senha`, { password: 'curta' })).status).toBe(400);
    expect((await admin('PUT', `/usuarios/${id}/senha`, { password: 'senha-nova-do-rep' })).status).toBe(204);
    const relog = await app.request('/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'rep.desligado@usuarios.test', password: 'senha-nova-do-rep' }),
    });
    expect(relog.status).toBe(200);
  });

  it('does not let an admin disable themself', async () => {
    const res = await admin('PUT', `/usuarios/${adminId}/ativo`, { active: false });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { code: string }).code).toBe('CANNOT_DISABLE_SELF');
  });

  it('lists the directory of the tenant for the selectors', async () => {
    const reps = (await (await manager('GET', '/vendedores')).json()) as { items: { codVendedor: number }[] };
    expect(reps.items.length).toBe(erp.reps.filter((r) => r.idEmpresa === t1).length);
    const pautas = (await (await manager('GET', '/pautas')).json()) as { items: { idPauta: number }[] };
    const { rows } = await db.pool.query(
      'select count(distinct id_pauta)::int as n from app.vw_pautas where id_empresa = $1',
      [t1],
    );
    expect(pautas.items).toHaveLength(rows[0].n);
    const sups = (await (await admin('GET', '/supervisores')).json()) as { items: { codSupervisor: number }[] };
    expect(sups.items.length).toBe(erp.supervisors.filter((s) => s.idEmpresa === t1).length);
  });

  it('lets an admin take a login another tenant holds (logins are per tenant), and refuses one of its own', async () => {
    const body = (login: string) => ({ login, name: 'Tentativa', role: 'manager', password: 'senha-longa-1' });
    // adm2 is tenant 2's admin: taking it in tenant 1 tells nothing about tenant 2.
    const foreign = await admin('POST', '/usuarios', body('adm2@usuarios.test'));
    expect(foreign.status).toBe(201);
    const free = await admin('POST', '/usuarios', body('livre@usuarios.test'));
    expect(free.status).toBe(201);
    const own = await admin('POST', '/usuarios', body('ger@usuarios.test'));
    expect(own.status).toBe(409);
    const problem = (await own.json()) as { code: string; errors: { path: string }[] };
    expect(problem.code).toBe('LOGIN_UNAVAILABLE');
    expect(problem.errors[0]?.path).toBe('body.login');
    // Each tenant sees its own holder only; the other tenant's user is untouched.
    const mine = (await (await admin('GET', '/usuarios?q=adm2')).json()) as { items: UserBody[] };
    const theirs = (await (await foreignAdmin('GET', '/usuarios?q=adm2')).json()) as { items: UserBody[] };
    expect(mine.items.map((u) => [u.login, u.role])).toEqual([['adm2@usuarios.test', 'manager']]);
    expect(theirs.items.map((u) => [u.login, u.role])).toEqual([['adm2@usuarios.test', 'admin']]);
    expect((await foreignAdmin('GET', '/auth/me')).status).toBe(200);
  });

  it('refuses the loser of two simultaneous creations of one login in a tenant with the same 409, not a 500', async () => {
    const body = { login: 'corrida@usuarios.test', name: 'Corrida', role: 'manager', password: 'senha-longa-1' };
    const [a, b] = await Promise.all([admin('POST', '/usuarios', body), admin('POST', '/usuarios', body)]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const loser = (a.status === 409 ? a : b) as Response;
    expect(((await loser.json()) as { code: string }).code).toBe('LOGIN_UNAVAILABLE');
    // The same login in the other tenant is its own.
    expect((await foreignAdmin('POST', '/usuarios', body)).status).toBe(201);
  });

  it("resets the password and disables only the tenant's own holder of a shared login", async () => {
    const body = { login: 'dupla@usuarios.test', name: 'Dupla', role: 'manager', password: 'senha-dupla-1' };
    const [mineRes, theirsRes] = [
      await admin('POST', '/usuarios', body),
      await foreignAdmin('POST', '/usuarios', body),
    ];
    expect([mineRes.status, theirsRes.status]).toEqual([201, 201]);
    const mine = (await mineRes.json()) as UserBody;
    const theirs = (await theirsRes.json()) as UserBody;
    const versions = async () =>
      (
        await db.pool.query<{ id: number; ativo: boolean; versao_token: number }>(
          'select id::int, ativo, versao_token from app.usuarios where login = $1 order by id',
          ['dupla@usuarios.test'],
        )
      ).rows;
    const before = await versions();
    expect((await admin('PUT', `/usuarios/${mine.id}/senha`, { password: 'senha-nova-dupla' })).status).toBe(204);
    expect((await admin('PUT', `/usuarios/${mine.id}/ativo`, { active: false })).status).toBe(200);
    const after = await versions();
    expect(after.find((r) => r.id === theirs.id)).toEqual({ id: theirs.id, ativo: true, versao_token: 1 });
    expect(after.find((r) => r.id === theirs.id)).toEqual(before.find((r) => r.id === theirs.id));
    expect(after.find((r) => r.id === mine.id)?.ativo).toBe(false);
  });
});
