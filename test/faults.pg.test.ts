// Idempotency under faults (docs/reliability.md): a server process killed with SIGKILL in the
// middle of an order load, and a database connection killed in the middle of an order's
// transaction. Whatever the client saw acknowledged exists exactly once; whatever it did not
// see is replayed with the same Idempotency-Key and then exists exactly once; nothing is half
// written and no key stays stuck.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from './support/app.ts';
import { postOrder } from './support/builders.ts';
import { orderableClient, provisionedErp } from './support/erp.ts';
import { asServerRole, useTestDatabase } from './support/pg.ts';
import { serveProcess } from './support/serve.ts';
import { apiAs, logInAs } from './support/session.ts';

const db = useTestDatabase();

/** The backend waiting on one of the tenant's advisory locks (held by the test), once it waits. */
async function waitingOnAdvisoryLock(idEmpresa: number): Promise<number | undefined> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await db.pool.query<{ pid: number }>(
      `select pid from pg_locks where locktype = 'advisory' and not granted and objid = $1`,
      [idEmpresa],
    );
    if (rows[0]) return rows[0].pid;
    await new Promise((r) => setTimeout(r, 25));
  }
  return undefined;
}

describe('orders under faults', () => {
  let rep: { idEmpresa: number; codVendedor: number };
  let body: { idCliente: number; itens: { idProduto: number; quantidade: number }[] };
  let token: string;
  let supervisorToken: string;

  const countByKey = async (keys: string[]) => {
    const { rows } = await db.pool.query<{ chave: string; n: number }>(
      `select k.chave, count(p.id)::int as n
         from unnest($1::text[]) as k(chave)
         left join app.chaves_idempotencia c on c.chave = k.chave
         left join app.pedidos p on p.id = c.id_pedido
        group by k.chave`,
      [keys],
    );
    return new Map(rows.map((r) => [r.chave, r.n]));
  };

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const r = erp.reps[0];
    if (!r) throw new Error('no representative');
    rep = { idEmpresa: r.idEmpresa, codVendedor: r.codVendedor };
    const orderable = await orderableClient(db.pool, rep);
    body = { idCliente: orderable.idCliente, itens: [{ idProduto: orderable.idProduto, quantidade: 1 }] };
    token = await logInAs(testApp(db.pool), db.pool, {
      login: 'rep@faults.test',
      role: 'representative',
      ...rep,
    });
    supervisorToken = await logInAs(testApp(db.pool), db.pool, {
      login: 'sup@faults.test',
      role: 'supervisor',
      idEmpresa: r.idEmpresa,
      codSupervisor: r.codSupervisor,
    });
  });

  it('SIGKILL during an order load: acknowledged orders exist once, replayed ones exist once', async () => {
    const first = await serveProcess({ DATABASE_URL: asServerRole(db.url) });
    const port = Number(new URL(first.base).port);
    const keys = Array.from({ length: 60 }, () => randomUUID());
    const acknowledged = new Set<string>();
    const post = (base: string, key: string) =>
      fetch(`${base}/api/v1/orders`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(body),
      });
    // Eight clients in flight at a time; the process is killed once a third has been answered.
    let next = 0;
    let killed = false;
    const worker = async () => {
      while (next < keys.length && !killed) {
        const key = keys[next++] as string;
        try {
          const res = await post(first.base, key);
          if (res.status === 201) acknowledged.add(key);
          if (acknowledged.size >= 20 && !killed) {
            killed = true;
            first.child.kill('SIGKILL');
          }
        } catch {
          // No answer: the client replays it below.
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    if (!killed) first.child.kill('SIGKILL');
    await first.exited;
    expect(acknowledged.size).toBeGreaterThanOrEqual(20);
    expect(acknowledged.size).toBeLessThan(keys.length);

    // The client replays everything it did not see answered, on a new process.
    const second = await serveProcess({ DATABASE_URL: asServerRole(db.url) }, port);
    try {
      for (const key of keys.filter((k) => !acknowledged.has(k))) {
        const res = await post(second.base, key);
        expect([200, 201]).toContain(res.status);
      }
      // And, as a phone would after a flaky network, the acknowledged ones once more.
      for (const key of [...acknowledged].slice(0, 5)) {
        const res = await post(second.base, key);
        expect(res.status).toBe(201);
        expect(res.headers.get('idempotent-replayed')).toBe('true');
      }
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
    const counts = await countByKey(keys);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    const total = await db.pool.query(
      `select count(*)::int as n from app.pedidos p join app.chaves_idempotencia k on k.id_pedido = p.id
        where k.chave = any($1::text[])`,
      [keys],
    );
    expect(total.rows[0].n).toBe(keys.length);
  });

  it('a database connection killed mid-transaction leaves nothing half written and the key free', async () => {
    const app = testApp(db.pool);
    const key = randomUUID();
    const holder = await db.pool.connect();
    try {
      // Hold the order's last step (the replication log of the tenant's orders) so the
      // transaction waits there, with the order, its lines and its history already written.
      await holder.query('begin');
      await holder.query('select pg_advisory_xact_lock(hashtext($1), $2)', ['campo.sync:pedidos', rep.idEmpresa]);
      const pending = app.request('/api/v1/orders', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(body),
      });
      const victim = await waitingOnAdvisoryLock(rep.idEmpresa);
      expect(victim).toBeDefined();
      const written = await db.pool.query('select count(*)::int as n from app.pedidos');
      await db.pool.query('select pg_terminate_backend($1)', [victim]);
      const res = await pending;
      // The connection lost, not a bug: 503 DATABASE_UNAVAILABLE, which the phone retries.
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(await res.json()).toMatchObject({ code: 'DATABASE_UNAVAILABLE' });
      await holder.query('commit');
      // Nothing of it: no order, no key.
      const after = await db.pool.query('select count(*)::int as n from app.pedidos');
      expect(after.rows[0].n).toBe(written.rows[0].n);
      expect((await countByKey([key])).get(key)).toBe(0);
    } finally {
      await holder.query('rollback').catch(() => undefined);
      holder.release();
    }
    // The key is not stuck: the same request now creates the order.
    const retry = await app.request('/api/v1/orders', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    });
    expect(retry.status, await retry.clone().text()).toBe(201);
    expect((await countByKey([key])).get(key)).toBe(1);
  });
  it('an approval whose connection is killed answers 503 and stays pending; the retry approves', async () => {
    const app = testApp(db.pool);
    const created = await postOrder(apiAs(app, token), body);
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const approve = () =>
      app.request(`/api/v1/orders/${id}/approve`, {
        method: 'POST',
        headers: { authorization: `Bearer ${supervisorToken}`, 'content-type': 'application/json' },
        body: '{}',
      });
    const holder = await db.pool.connect();
    try {
      // The approval's write to the orders' change log waits here, the ERP order already written.
      await holder.query('begin');
      await holder.query('select pg_advisory_xact_lock(hashtext($1), $2)', ['campo.sync:pedidos', rep.idEmpresa]);
      const pending = approve();
      const victim = await waitingOnAdvisoryLock(rep.idEmpresa);
      expect(victim).toBeDefined();
      await db.pool.query('select pg_terminate_backend($1)', [victim]);
      const res = await pending;
      // Not a bug and not an ERP refusal: the same approval, sent again, goes through.
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ code: 'DATABASE_UNAVAILABLE' });
      await holder.query('commit');
    } finally {
      await holder.query('rollback').catch(() => undefined);
      holder.release();
    }
    const { rows } = await db.pool.query<{ situa: number }>('select situa from app.pedidos where id = $1', [id]);
    expect(rows[0]?.situa).toBe(1);
    const retry = await approve();
    expect(retry.status, await retry.clone().text()).toBe(200);
  });
});
