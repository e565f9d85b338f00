// The database going away under load (docs/reliability.md, "The database away"): every backend
// of the server's role killed, then PostgreSQL stopped (fast, then immediate) and started again,
// while several clients place orders, pull, push and read. `campo serve` runs as a real process
// (its pool, change hub, push worker and refresh schedule) on a PostgreSQL of this file's own,
// since the run's shared one cannot be stopped. No answer is a 500: each failure is 503
// DATABASE_UNAVAILABLE with Retry-After; readiness answers 503 while the database is down and
// 200 once it is back; the same process then serves normally; the outage is logged once per
// outage, never as an error; and every order acknowledged exists exactly once.
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Session, SYNC_PROTOCOL_VERSION, SYNC_VERSION_HEADER } from '@campo/shared';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../server/src/db/embedded-postgres.ts';
import { createDb } from '../server/src/db/kysely.ts';
import { generateVapidKeys } from '../server/src/notifications/vapid.ts';
import { addUser } from '../server/src/users/service.ts';
import { aCard } from './support/builders.ts';
import { orderableClient, provisionedErp } from './support/erp.ts';
import { asServerRole, SERVER_ROLE } from './support/pg.ts';
import { eventually, openDevice } from './support/replication.ts';
import { serveProcess } from './support/serve.ts';
import { type SseEvent, sse } from './support/sse.ts';

const DATABASE = 'campo_db_unavailable';
// Not `fast`: with synchronous_commit off an immediate stop loses commits already answered,
// which is the loss this file looks for. fsync off only trusts the OS, which keeps running.
const SETTINGS = ['fsync=off', 'full_page_writes=off'];

type Kind = 'order' | 'pull' | 'push' | 'read';

interface Answer {
  kind: Kind;
  status: number;
  code: string | undefined;
  retryAfter: string | null;
  /** Which disruption was under way or last (0: none yet). */
  disruption: number;
}

describe('the database away under load', () => {
  let dataDir = '';
  let postgres: EmbeddedPostgres;
  let port = 0;
  let owner: pg.Pool;
  let served: Awaited<ReturnType<typeof serveProcess>>;
  let log = '';
  let stderr = '';
  let token = '';
  let session: Session;
  let orderBody: { idCliente: number; itens: { idProduto: number; quantidade: number }[] };

  const startPostgres = async () => {
    postgres = await startEmbeddedPostgres({ dataDir, port, settings: SETTINGS });
    port = postgres.port;
  };
  const dbUrl = () => postgres.url(DATABASE);

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'campo-db-away-'));
    await startPostgres();
    const admin = new pg.Client({ connectionString: postgres.url() });
    await admin.connect();
    await admin.query(`create role ${SERVER_ROLE} login password '${SERVER_ROLE}'`);
    await admin.query(`create database ${DATABASE} encoding 'LATIN1' lc_collate 'C' lc_ctype 'C' template template0`);
    await admin.end();
    owner = new pg.Pool({ connectionString: dbUrl(), max: 2 });
    // The restarts end its idle connections too.
    owner.on('error', () => undefined);
    const erp = await provisionedErp(owner);
    const rep = erp.reps[0];
    if (!rep) throw new Error('no representative in the fixture');
    const orderable = await orderableClient(owner, rep);
    orderBody = { idCliente: orderable.idCliente, itens: [{ idProduto: orderable.idProduto, quantidade: 1 }] };
    await addUser(createDb(owner), {
      login: 'rep@db-away.test',
      name: 'Rep',
      role: 'representative',
      idEmpresa: rep.idEmpresa,
      codVendedor: rep.codVendedor,
      codSupervisor: null,
      password: 'db-away-password',
    });
    await addUser(createDb(owner), {
      login: 'sup@db-away.test',
      name: 'Sup',
      role: 'supervisor',
      idEmpresa: rep.idEmpresa,
      codVendedor: null,
      codSupervisor: rep.codSupervisor,
      password: 'db-away-password',
    });
    const vapid = generateVapidKeys();
    served = await serveProcess({
      DATABASE_URL: asServerRole(dbUrl()),
      // The push worker and the refresh schedule run beside the requests, as in production.
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      VAPID_SUBJECT: 'mailto:ti@distribuidora.test',
      SYNC_REFRESH_SECONDS: '1',
    });
    served.child.stdout?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
    served.child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const login = await fetch(`${served.base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'rep@db-away.test', password: 'db-away-password' }),
    });
    expect(login.status).toBe(200);
    session = (await login.json()) as Session;
    token = session.token;
  }, 120_000);

  afterAll(async () => {
    served?.child.kill('SIGTERM');
    await served?.exited;
    await owner?.end();
    await postgres?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 DATABASE_UNAVAILABLE with Retry-After, never 500, and recovers by itself', async () => {
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${served.base}/api/v1${path}`, {
        ...init,
        headers: {
          authorization: `Bearer ${token}`,
          [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION),
          ...(init.body ? { 'content-type': 'application/json' } : {}),
          ...init.headers,
        },
      });
    const answers: Answer[] = [];
    const networkFailures: string[] = [];
    const orders = new Map<string, number>();
    const cards = new Map<string, number>();
    let disruption = 0;
    // Waits for what the answers show (so many more successes, so many 503s), not for time.
    const waiters = new Set<{ test: () => boolean; resolve: () => void }>();
    // A process that died (an unhandled 'error' or rejection) ends every wait with what it said.
    const died = served.exited.then(() => {
      throw new Error(
        `campo serve exited (${served.child.exitCode ?? served.child.signalCode}): ${stderr.slice(-3000)}`,
      );
    });
    died.catch(() => undefined);
    const readiness = async () => Promise.race([died, fetch(`${served.base}/api/v1/health`).then((res) => res.status)]);
    const until = (test: () => boolean, what: string, ms = 60_000) =>
      Promise.race([
        died,
        new Promise<void>((resolve, reject) => {
          if (test()) return resolve();
          const timer = setTimeout(() => {
            waiters.delete(w);
            reject(new Error(`timed out waiting for ${what}`));
          }, ms);
          const w = {
            test,
            resolve: () => {
              clearTimeout(timer);
              resolve();
            },
          };
          waiters.add(w);
        }),
      ]);
    const count = (f: (a: Answer) => boolean) => answers.filter(f).length;
    const ok = (kind: Kind) => count((a) => a.kind === kind && a.status < 300);
    const moreOk = async (kind: Kind, n: number) => {
      const target = ok(kind) + n;
      await until(() => ok(kind) >= target, `${n} more ${kind} answered`);
    };
    const record = async (kind: Kind, res: Response) => {
      let code: string | undefined;
      if (res.status >= 300) code = ((await res.json().catch(() => ({}))) as { code?: string }).code;
      else await res.arrayBuffer();
      answers.push({ kind, status: res.status, code, retryAfter: res.headers.get('retry-after'), disruption });
      for (const w of [...waiters])
        if (w.test()) {
          waiters.delete(w);
          w.resolve();
        }
      return res.status;
    };

    const once = async (kind: Kind): Promise<number> => {
      if (kind === 'order') {
        const key = randomUUID();
        const res = await api('/orders', {
          method: 'POST',
          headers: { 'idempotency-key': key },
          body: JSON.stringify(orderBody),
        });
        const status = await record(kind, res);
        orders.set(key, status);
        return status;
      }
      // Past SHORT_PAGE (200) documents a pull reads its page with COPY (db/copy-out.ts).
      if (kind === 'pull') return record(kind, await api('/sync/pedidos/pull?limit=1000'));
      if (kind === 'push') {
        const id = randomUUID();
        const card = aCard({ id, nomeProspect: 'Padaria São João' });
        const res = await api('/sync/funil/push', {
          method: 'POST',
          body: JSON.stringify([{ assumedMasterState: null, newDocumentState: card }]),
        });
        const status = await record(kind, res);
        cards.set(id, status);
        return status;
      }
      const paths = ['/clients?pageSize=20', '/catalog?pageSize=20', '/orders?pageSize=20', '/auth/me'];
      return record(kind, await api(paths[Math.floor(Math.random() * paths.length)] as string));
    };

    // Six clients, each at its own pace: two placing orders, one pulling, one pushing, two reading.
    let stopping = false;
    const client = async (kind: Kind) => {
      while (!stopping) {
        try {
          const status = await once(kind);
          // After a refusal a phone waits (Retry-After); this one a little, to keep the load bounded.
          await new Promise((r) => setTimeout(r, status === 503 ? 50 : 5));
        } catch (err) {
          networkFailures.push(`${kind}: ${String(err)}`);
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    };
    const kinds: Kind[] = ['order', 'order', 'pull', 'push', 'read', 'read'];

    // The change stream: its LISTEN connection must come back after each disruption, and say so (resync).
    const streamRes = await api('/sync/stream', { headers: { accept: 'text/event-stream' } });
    expect(streamRes.status).toBe(200);
    const stream = sse(streamRes);
    await stream.until((e) => e.event === 'resync');
    const resyncs: number[] = [];
    let streamEnded = false;
    let closing = false;
    const listening = (async () => {
      try {
        for (;;) {
          const [e] = (await stream.until(() => true, 600_000)) as SseEvent[];
          if (e?.event === 'resync') {
            resyncs.push(disruption);
            for (const w of [...waiters])
              if (w.test()) {
                waiters.delete(w);
                w.resolve();
              }
          }
        }
      } catch {
        streamEnded = !closing;
      }
    })();
    const resyncAfter = (n: number) =>
      until(() => resyncs.some((d) => d >= n), `the stream's resync after disruption ${n}`);

    const running = kinds.map(client);
    // Enough orders that the pulls read through COPY when the connections go.
    await moreOk('order', 250);
    for (const kind of new Set(kinds)) await moreOk(kind, 3);

    // 1. Every backend of the server's role killed, three times, in the middle of the load.
    const terminate = async () => {
      const admin = new pg.Client({ connectionString: postgres.url() });
      await admin.connect();
      const { rows } = await admin.query<{ n: number }>(
        'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where usename = $1',
        [SERVER_ROLE],
      );
      await admin.end();
      return rows[0]?.n ?? 0;
    };
    for (let round = 0; round < 3; round++) {
      disruption++;
      expect(await terminate()).toBeGreaterThan(0);
      await moreOk('order', 5);
    }
    await resyncAfter(1);

    // 2. PostgreSQL stopped (fast, then immediate) and started again on the same port.
    for (const immediate of [false, true]) {
      disruption++;
      const from = disruption;
      // Counted as any 5xx, so that code answering something else gets to the assertions below.
      const before = count((a) => a.status >= 500);
      await postgres.stop({ immediate });
      while ((await readiness()) !== 503) await new Promise((r) => setTimeout(r, 20));
      await until(() => count((a) => a.status >= 500) >= before + 10, 'ten refusals while the database is down');
      await startPostgres();
      while ((await readiness()) !== 200) await new Promise((r) => setTimeout(r, 20));
      for (const kind of new Set(kinds)) await moreOk(kind, 3);
      await resyncAfter(from);
    }

    stopping = true;
    await Promise.all(running);
    closing = true;
    await stream.close();
    await listening;

    // The same process, never restarted, serves every kind of request normally.
    expect(served.child.exitCode).toBeNull();
    for (const kind of new Set(kinds)) expect(await once(kind), kind).toBeLessThan(300);
    expect(await readiness()).toBe(200);

    expect(networkFailures).toEqual([]);
    // The stream stayed open through it all: only its LISTEN connection was lost, and found again.
    expect(streamEnded).toBe(false);
    const failed = answers.filter((a) => a.status >= 300);
    expect(failed.filter((a) => a.status === 500)).toEqual([]);
    for (const a of failed) {
      expect(a).toMatchObject({ status: 503, code: 'DATABASE_UNAVAILABLE' });
      expect(Number(a.retryAfter)).toBeGreaterThan(0);
    }
    // The restarts alone refuse requests for a while.
    expect(failed.filter((a) => a.disruption > 3).length).toBeGreaterThanOrEqual(20);

    // Nothing acknowledged was lost, nothing doubled; what was refused is sent again, as a phone
    // does, and then exists once too.
    const exists = async (sql: string, keys: string[]) => {
      const { rows } = await owner.query<{ key: string; n: number }>(sql, [keys]);
      return new Map(rows.map((r) => [r.key, r.n]));
    };
    const ordersByKey = (keys: string[]) =>
      exists(
        `select k.key, count(p.id)::int as n from unnest($1::text[]) as k(key)
           left join app.chaves_idempotencia c on c.chave = k.key
           left join app.pedidos p on p.id = c.id_pedido
          group by k.key`,
        keys,
      );
    const acknowledged = [...orders].filter(([, s]) => s === 201).map(([k]) => k);
    expect(acknowledged.length).toBeGreaterThan(20);
    const counted = await ordersByKey(acknowledged);
    expect(acknowledged.filter((k) => counted.get(k) !== 1)).toEqual([]);
    const refused = [...orders].filter(([, s]) => s !== 201).map(([k]) => k);
    for (const key of refused) {
      const res = await api('/orders', {
        method: 'POST',
        headers: { 'idempotency-key': key },
        body: JSON.stringify(orderBody),
      });
      expect(res.status, await res.clone().text()).toBe(201);
    }
    const all = await ordersByKey([...orders.keys()]);
    expect([...orders.keys()].filter((k) => all.get(k) !== 1)).toEqual([]);
    const takenCards = [...cards].filter(([, s]) => s === 200).map(([id]) => id);
    const { rows: stored } = await owner.query<{ n: number }>(
      'select count(*)::int as n from app.oportunidades where id = any($1::uuid[])',
      [takenCards],
    );
    expect(stored[0]?.n).toBe(takenCards.length);

    // Logged once per outage, as what it is: a warning and its end, no error, no stack trace.
    const lines = log
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { level: string; msg: string });
    expect(lines.filter((l) => l.level === 'error' || l.level === 'fatal')).toEqual([]);
    // Warnings only for the outage itself and the listener's drops; an order committed just before
    // its client's document could be written may leave that document to the next refresh.
    const warned = new Set(lines.filter((l) => l.level === 'warn').map((l) => l.msg));
    warned.delete('sync listener dropped; reconnecting');
    warned.delete('orders: the client document was left to the next refresh');
    expect([...warned]).toEqual(['database unavailable: answering 503 DATABASE_UNAVAILABLE until it is back']);
    const listenerDrops = lines.filter((l) => l.msg === 'sync listener dropped; reconnecting');
    expect(listenerDrops.length).toBeLessThanOrEqual(disruption);
    const down = lines.filter((l) => l.msg.startsWith('database unavailable'));
    const back = lines.filter((l) => l.msg === 'database available again');
    expect(down.length).toBeGreaterThanOrEqual(2);
    expect(down.length).toBeLessThanOrEqual(disruption);
    expect(back.length).toBe(down.length);
    expect(failed.length).toBeGreaterThan(down.length);
  }, 300_000);
  it('a phone keeps its outbox, says the server is unavailable, and syncs by itself once it is back', async () => {
    // What the phone's change stream was answered, to wait for it to meet the outage.
    const streamAnswers: { status: number; code?: string }[] = [];
    const watching: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (String(input).endsWith('/sync/stream') && res.status !== 200) {
        const body = (await res.clone().json()) as { code?: string };
        streamAnswers.push({ status: res.status, ...(body.code ? { code: body.code } : {}) });
      }
      return res;
    };
    const device = await openDevice({
      user: { id: session.user.id, idEmpresa: session.user.idEmpresa, role: 'representative' },
      baseUrl: served.base,
      token,
      fetch: watching,
      collections: ['pedidos'],
      // The stream is reopened every second, so it meets the outage; a server without a change
      // hub would make it poll every ten minutes, which this test would not outlast.
      streamStaleMs: 1000,
      pollMs: 600_000,
    });
    try {
      await device.replication.awaitInitialSync();
      await eventually('the change stream to open', () => device.replication.syncState.get().live);
      await postgres.stop({ immediate: true });
      const id = await device.outbox?.queueOrder({
        idCliente: orderBody.idCliente,
        itens: orderBody.itens.map((i) => ({ ...i, descontoPercent: 0 })),
      });
      if (!id) throw new Error('no outbox');
      const seen = await eventually('the phone to say the server is unavailable', () => {
        const { error } = device.replication.syncState.get();
        return error?.code === 'DATABASE_UNAVAILABLE' ? error : undefined;
      });
      expect(seen).toMatchObject({
        kind: 'server',
        message: 'Servidor indisponível; tentaremos de novo em instantes.',
      });
      // The stream reopened during the outage (once the server's 2 s cache of the user ran out).
      await eventually('the change stream to meet the outage', () => streamAnswers.length > 0);
      expect(streamAnswers[0]).toEqual({ status: 503, code: 'DATABASE_UNAVAILABLE' });
      // Waiting (queued, or in a push not answered yet), never refused.
      expect(['queued', 'sent']).toContain((await device.outbox?.listOutbox())?.find((e) => e.id === id)?.state);

      await startPostgres();
      const accepted = await eventually('the queued order to be accepted', async () => {
        const entry = (await device.outbox?.listOutbox())?.find((e) => e.id === id);
        return entry?.state === 'accepted' ? entry : undefined;
      });
      expect(accepted.status).toBe('pending_approval');
      // The stream is back too: the outage was a failure to retry, not a server without a stream.
      await eventually('the change stream to open again', () => device.replication.syncState.get().live);
      await eventually('the error to clear', () => device.replication.syncState.get().error === null);
    } finally {
      await device.close();
    }
  }, 120_000);
  it('too many connections: 503 as well, and an approval that cannot connect is no ERP refusal', async () => {
    const as = async (login: string) => {
      const res = await fetch(`${served.base}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login, password: 'db-away-password' }),
      });
      const { token: t } = (await res.json()) as Session;
      return (path: string, init: RequestInit = {}) =>
        fetch(`${served.base}/api/v1${path}`, {
          ...init,
          headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json', ...init.headers },
        });
    };
    const rep = await as('rep@db-away.test');
    const sup = await as('sup@db-away.test');
    const created = await rep('/orders', {
      method: 'POST',
      headers: { 'idempotency-key': randomUUID() },
      body: JSON.stringify(orderBody),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    // The supervisor's session is read now: the server keeps it 2 s, so the approval below
    // reaches the order's transaction, which then cannot connect.
    expect((await sup(`/orders/${id}`)).status).toBe(200);
    const admin = new pg.Client({ connectionString: postgres.url() });
    await admin.connect();
    try {
      await admin.query(`alter role ${SERVER_ROLE} connection limit 0`);
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where usename = $1', [SERVER_ROLE]);
      // 53300 (too many connections for role) has a string code like an ERP trigger's error.
      const approval = await sup(`/orders/${id}/approve`, { method: 'POST', body: '{}' });
      expect(approval.status).toBe(503);
      expect(approval.headers.get('retry-after')).toBe('5');
      expect(await approval.json()).toMatchObject({ code: 'DATABASE_UNAVAILABLE' });
      expect((await fetch(`${served.base}/api/v1/health`)).status).toBe(503);
    } finally {
      await admin.query(`alter role ${SERVER_ROLE} connection limit -1`);
      await admin.end();
    }
    const { rows } = await owner.query<{ situa: number }>('select situa from app.pedidos where id = $1', [id]);
    expect(rows[0]?.situa).toBe(1);
    const again = await sup(`/orders/${id}/approve`, { method: 'POST', body: '{}' });
    expect(again.status, await again.clone().text()).toBe(200);
  });
});
