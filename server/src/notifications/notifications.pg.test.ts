// /notifications against a real LATIN1 PostgreSQL, through the API as the server's role (so
// row-level security binds): registering devices (one record per device, moving between
// users and tenants), forgetting them, the VAPID key with push on and off, and the
// pending-approval badge per role, checked against orders this test wrote itself.
import { createECDH, randomBytes } from 'node:crypto';
import type { PendingCount, Problem, PushSubscriptionSaved, VapidPublicKey } from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { anOrder, signedIn } from '../../../test/support/builders.ts';
import { type ErpPeople, provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { apiAs, logInAs } from '../../../test/support/session.ts';
import { DEVICES_PER_USER_MAX } from './queries.ts';
import { generateVapidKeys } from './vapid.ts';

const db = useTestDatabase();
type Api = ReturnType<typeof apiAs>;

const ALLOWED_HOST = 'push.test.example';

/** A subscription as PushSubscription.toJSON() gives it, with fresh browser-like keys. */
function browserSubscription(endpoint = `https://${ALLOWED_HOST}/wpush/${randomBytes(12).toString('base64url')}`) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint,
    expirationTime: null,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

interface Registration {
  id_empresa: number;
  usuario: string;
  p256dh: string;
  auth: string;
  user_agent: string | null;
}

describe('/notifications', () => {
  const vapid = { ...generateVapidKeys(), subject: 'mailto:ti@distribuidora.test' };
  let app: ReturnType<typeof testApp>;
  let erp: ErpPeople;
  let t1: number;
  let t2: number;
  let repA: ErpPeople['reps'][number];
  let repB: ErpPeople['reps'][number];
  const api = {} as Record<
    'rep' | 'rep2' | 'supervisor' | 'otherSupervisor' | 'manager' | 'admin' | 'foreign' | 'foreignAdmin',
    Api
  >;
  const logins = {
    rep: 'rep@notif.test',
    rep2: 'rep2@notif.test',
    supervisor: 'sup@notif.test',
    otherSupervisor: 'sup2@notif.test',
    manager: 'ger@notif.test',
    admin: 'adm@notif.test',
    foreign: 'rep@outra.test',
    foreignAdmin: 'adm@outra.test',
  };

  const registrations = async (endpoint: string) =>
    (
      await db.pool.query<Registration>(
        'select id_empresa, usuario, p256dh, auth, user_agent from app.push_inscricoes where endpoint = $1',
        [endpoint],
      )
    ).rows;

  beforeAll(async () => {
    erp = await provisionedErp(db.pool);
    [t1, t2] = erp.tenants as [number, number];
    const inT1 = erp.reps.filter((r) => r.idEmpresa === t1);
    repA = inT1[0] as typeof repA;
    repB = inT1.find((r) => r.codSupervisor !== repA.codSupervisor) as typeof repB;
    const foreignRep = erp.reps.find((r) => r.idEmpresa === t2);
    if (!repA || !repB || !foreignRep) throw new Error('the tiny fixture lacks two teams and two tenants');
    const rep2 = inT1.find((r) => r.codVendedor !== repA.codVendedor) as typeof repA;

    app = testApp(db.pool, { push: { vapid, endpointHosts: [ALLOWED_HOST] } });
    const users = {
      rep: { role: 'representative', idEmpresa: t1, codVendedor: repA.codVendedor },
      rep2: { role: 'representative', idEmpresa: t1, codVendedor: rep2.codVendedor },
      supervisor: { role: 'supervisor', idEmpresa: t1, codSupervisor: repA.codSupervisor },
      otherSupervisor: { role: 'supervisor', idEmpresa: t1, codSupervisor: repB.codSupervisor },
      manager: { role: 'manager', idEmpresa: t1 },
      admin: { role: 'admin', idEmpresa: t1 },
      foreign: { role: 'representative', idEmpresa: t2, codVendedor: foreignRep.codVendedor },
      foreignAdmin: { role: 'admin', idEmpresa: t2 },
    } as const;
    for (const [who, user] of Object.entries(users) as [keyof typeof users, (typeof users)[keyof typeof users]][]) {
      api[who] = await signedIn(app, db.pool, { ...user, login: logins[who] });
    }
  });

  describe('GET /notifications/vapid-public-key', () => {
    it("gives the server's public key to every role", async () => {
      for (const who of ['rep', 'supervisor', 'manager', 'admin'] as const) {
        const res = await api[who]('GET', '/notifications/vapid-public-key');
        expect(res.status).toBe(200);
        expect((await res.json()) as VapidPublicKey).toEqual({ publicKey: vapid.publicKey });
      }
    });

    it('answers 503 PUSH_DISABLED, for the key and for subscribing, when the server has no VAPID keys', async () => {
      const off = testApp(db.pool);
      const token = await logInAs(off, db.pool, { login: 'semvapid@notif.test', role: 'manager', idEmpresa: t1 });
      const call = apiAs(off, token);
      const key = await call('GET', '/notifications/vapid-public-key');
      expect(key.status).toBe(503);
      expect(((await key.json()) as Problem).code).toBe('PUSH_DISABLED');
      const sub = browserSubscription();
      const res = await call('POST', '/notifications/subscriptions', sub);
      expect(res.status).toBe(503);
      expect(await registrations(sub.endpoint)).toEqual([]);
      // Forgetting a device still works, so logout never fails because push is off.
      expect((await call('DELETE', '/notifications/subscriptions', { endpoint: sub.endpoint })).status).toBe(204);
    });
  });

  describe('POST /notifications/subscriptions', () => {
    it('registers a device for the caller, in the caller tenant', async () => {
      const sub = browserSubscription();
      const res = await api.rep('POST', '/notifications/subscriptions', sub);
      expect(res.status).toBe(201);
      const body = (await res.json()) as PushSubscriptionSaved;
      expect(body.endpoint).toBe(sub.endpoint);
      expect(Math.abs(Date.parse(body.subscribedAt) - Date.now())).toBeLessThan(60_000);
      expect(await registrations(sub.endpoint)).toEqual([
        { id_empresa: t1, usuario: logins.rep, p256dh: sub.keys.p256dh, auth: sub.keys.auth, user_agent: null },
      ]);
    });

    it('keeps one record per device: re-subscribing updates the keys (200)', async () => {
      const first = browserSubscription();
      expect((await api.rep('POST', '/notifications/subscriptions', first)).status).toBe(201);
      const again = browserSubscription(first.endpoint);
      const res = await api.rep('POST', '/notifications/subscriptions', again);
      expect(res.status).toBe(200);
      expect(await registrations(first.endpoint)).toEqual([
        { id_empresa: t1, usuario: logins.rep, p256dh: again.keys.p256dh, auth: again.keys.auth, user_agent: null },
      ]);
    });

    it('moves a device to the user who subscribes it now, in the same tenant and across tenants', async () => {
      const sub = browserSubscription();
      await api.rep('POST', '/notifications/subscriptions', sub);
      expect((await api.supervisor('POST', '/notifications/subscriptions', sub)).status).toBe(200);
      expect((await registrations(sub.endpoint)).map((r) => [r.id_empresa, r.usuario])).toEqual([
        [t1, logins.supervisor],
      ]);
      // Another tenant cannot see the first registration (row-level security); it is
      // released all the same, and the device now belongs to that tenant's user alone.
      expect((await api.foreign('POST', '/notifications/subscriptions', sub)).status).toBe(201);
      expect((await registrations(sub.endpoint)).map((r) => [r.id_empresa, r.usuario])).toEqual([[t2, logins.foreign]]);
    });

    it('keeps the user agent, so support can tell devices apart', async () => {
      const sub = browserSubscription();
      const token = await logInAs(app, db.pool, { login: 'ua@notif.test', role: 'manager', idEmpresa: t1 });
      const res = await app.request('/api/v1/notifications/subscriptions', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'user-agent': 'Mozilla/5.0 (Linux; Android 14)   Chrome/131',
        },
        body: JSON.stringify(sub),
      });
      expect(res.status).toBe(201);
      expect((await registrations(sub.endpoint))[0]?.user_agent).toBe('Mozilla/5.0 (Linux; Android 14) Chrome/131');
    });

    it('keeps the newest devices of a user only', async () => {
      const subs = Array.from({ length: DEVICES_PER_USER_MAX + 2 }, () => browserSubscription());
      for (const sub of subs) expect((await api.rep2('POST', '/notifications/subscriptions', sub)).status).toBe(201);
      const { rows } = await db.pool.query<{ endpoint: string }>(
        'select endpoint from app.push_inscricoes where usuario = $1 order by endpoint',
        [logins.rep2],
      );
      const newest = subs.slice(-DEVICES_PER_USER_MAX).map((s) => s.endpoint);
      expect(rows.map((r) => r.endpoint)).toEqual([...newest].sort());
    });

    it.each([
      ['an http endpoint', { endpoint: `http://${ALLOWED_HOST}/x` }, 'body.endpoint'],
      ['an endpoint of an unknown push service', { endpoint: 'https://10.0.0.7/internal' }, 'body.endpoint'],
      ['an endpoint longer than 1024', { endpoint: `https://${ALLOWED_HOST}/${'a'.repeat(1024)}` }, 'body.endpoint'],
      ['a p256dh of 64 bytes', { keys: { p256dh: randomBytes(64).toString('base64url') } }, 'body.keys.p256dh'],
      [
        'a p256dh that is not a P-256 point',
        { keys: { p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url') } },
        'body.keys.p256dh',
      ],
      ['an auth of 15 bytes', { keys: { auth: randomBytes(15).toString('base64url') } }, 'body.keys.auth'],
      ['an auth that is not base64url', { keys: { auth: 'não é base64url!!!!!!!' } }, 'body.keys.auth'],
    ])('refuses %s with 400 naming the field', async (_what, change, path) => {
      const base = browserSubscription();
      const body = {
        ...base,
        ...('endpoint' in change ? { endpoint: change.endpoint } : {}),
        keys: { ...base.keys, ...('keys' in change ? change.keys : {}) },
      };
      const res = await api.rep('POST', '/notifications/subscriptions', body);
      expect(res.status).toBe(400);
      const problem = (await res.json()) as Problem;
      expect(problem.code).toBe('VALIDATION_FAILED');
      expect(problem.errors?.map((e) => e.path)).toContain(path);
      expect(await registrations(body.endpoint)).toEqual([]);
    });
  });

  describe('DELETE /notifications/subscriptions', () => {
    it("removes the caller's own device, and nobody else's, answering 204 either way", async () => {
      const sub = browserSubscription();
      await api.rep('POST', '/notifications/subscriptions', sub);
      expect((await api.manager('DELETE', '/notifications/subscriptions', { endpoint: sub.endpoint })).status).toBe(
        204,
      );
      expect(await registrations(sub.endpoint)).toHaveLength(1);
      expect((await api.rep('DELETE', '/notifications/subscriptions', { endpoint: sub.endpoint })).status).toBe(204);
      expect(await registrations(sub.endpoint)).toEqual([]);
      expect((await api.rep('DELETE', '/notifications/subscriptions', { endpoint: sub.endpoint })).status).toBe(204);
    });

    it('refuses a body without an https endpoint', async () => {
      const res = await api.rep('DELETE', '/notifications/subscriptions', { endpoint: 'nada' });
      expect(res.status).toBe(400);
    });
  });

  describe('GET /notifications/pending-count', () => {
    it('counts what each role may approve', async () => {
      expect((await db.pool.query('select count(*)::int as n from app.pedidos')).rows[0].n).toBe(0);
      // Orders written as the owner: pending (situa 1) and approved (2) for three
      // representatives of two teams in t1, and pending ones in t2.
      const plan: { rep: ErpPeople['reps'][number]; pending: number; approved: number }[] = [];
      const reps = erp.reps.filter(
        (r, i, all) => all.findIndex((o) => o.idEmpresa === r.idEmpresa && o.codVendedor === r.codVendedor) === i,
      );
      for (const [i, rep] of reps.entries()) plan.push({ rep, pending: (i % 4) + 1, approved: i % 3 });
      let n = 0;
      for (const p of plan) {
        for (const [situa, count] of [
          [1, p.pending],
          [2, p.approved],
        ] as const) {
          for (let k = 0; k < count; k++) {
            await anOrder(db.pool, p.rep, { situa, numPedSar: ++n, client: { idCliente: 1, razaoSocial: 'Cliente' } });
          }
        }
      }
      // A representative is in a supervisor's team when any of its ERP records names that supervisor.
      const inTeam = (codVendedor: number, idEmpresa: number, codSupervisor: number) =>
        erp.reps.some(
          (r) => r.idEmpresa === idEmpresa && r.codVendedor === codVendedor && r.codSupervisor === codSupervisor,
        );
      const pendingOf = (pred: (p: (typeof plan)[number]) => boolean) =>
        plan.filter(pred).reduce((sum, p) => sum + p.pending, 0);

      const expected = {
        rep: 0,
        supervisor: pendingOf((p) => p.rep.idEmpresa === t1 && inTeam(p.rep.codVendedor, t1, repA.codSupervisor)),
        otherSupervisor: pendingOf((p) => p.rep.idEmpresa === t1 && inTeam(p.rep.codVendedor, t1, repB.codSupervisor)),
        manager: pendingOf((p) => p.rep.idEmpresa === t1),
        admin: pendingOf((p) => p.rep.idEmpresa === t1),
        foreignAdmin: pendingOf((p) => p.rep.idEmpresa === t2),
        foreign: 0,
      };
      expect(expected.supervisor).toBeGreaterThan(0);
      expect(expected.supervisor).toBeLessThan(expected.manager);
      for (const [who, count] of Object.entries(expected) as [keyof typeof expected, number][]) {
        const res = await api[who]('GET', '/notifications/pending-count');
        expect(res.status, who).toBe(200);
        expect((await res.json()) as PendingCount, who).toEqual({ count });
      }
    });
  });
});
