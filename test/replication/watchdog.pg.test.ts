// The replication's watchdog (client/src/db/sync-watchdog.ts) on a real store and server: a push
// whose request never ends (RxDB issue #7259) is restarted and the order is created once; a push
// that keeps failing for want of a server is busy, not stalled, and is left to RxDB's retries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWatchdog, type Watchdog } from '../../client/src/db/sync-watchdog.ts';
import { ordersOf } from '../support/builders.ts';
import { orderableClient, provisionedErp } from '../support/erp.ts';
import { useTestDatabase } from '../support/pg.ts';
import { type Device, eventually, openDevice, servedApp } from '../support/replication.ts';
import { logInAs } from '../support/session.ts';

const db = useTestDatabase();

describe('client replication: the watchdog', () => {
  let served: Awaited<ReturnType<typeof servedApp>>;
  let device: Device;
  let watchdog: Watchdog;
  let t1: number;
  let rep: number;
  let idCliente: number;
  let idProduto: number;
  /** The next orders push is held unanswered while `stall.next` is set. */
  const stall = { next: false, held: 0, release: [] as (() => void)[] };

  const ordersOfRep = () => ordersOf(db.pool, t1, rep);

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    [t1] = erp.tenants as [number];
    const first = erp.reps.find((r) => r.idEmpresa === t1);
    if (!first) throw new Error('no representative in the fixture');
    rep = first.codVendedor;
    ({ idCliente, idProduto } = await orderableClient(db.pool, { idEmpresa: t1, codVendedor: rep }));
    served = await servedApp(db, {
      wrap: (app) => async (req) => {
        if (stall.next && req.method === 'POST' && new URL(req.url).pathname.endsWith('/sync/pedidos/push')) {
          stall.next = false;
          stall.held++;
          await new Promise<void>((resolve) => stall.release.push(resolve));
          return new Response(null, { status: 503 });
        }
        return app(req);
      },
    });
    const token = await logInAs(served.app, db.pool, {
      login: 'rep@watchdog.test',
      role: 'representative',
      idEmpresa: t1,
      codVendedor: rep,
    });
    device = await openDevice({
      user: { id: 1, idEmpresa: t1, role: 'representative' },
      baseUrl: served.server.url,
      token,
    });
    await device.replication.awaitInitialSync();
    watchdog = startWatchdog(device.db, device.replication, { thresholdMs: 500 });
  });

  afterAll(async () => {
    watchdog?.stop();
    for (const release of stall.release.splice(0)) release();
    await device?.close();
    await served?.close();
  });

  const draft = () => ({ idCliente, itens: [{ idProduto, quantidade: 1, descontoPercent: 0 }] });

  it('restarts a push whose request never ends, and the order is created once', async () => {
    const before = await ordersOfRep();
    stall.next = true;
    const id = await device.outbox?.queueOrder(draft());
    if (!id) throw new Error('no outbox');
    await eventually('the push to be held', () => stall.held === 1);
    await eventually('the order to reach the server', async () => (await ordersOfRep()) === before + 1);
    expect(device.replication.health.get().push.pedidos?.restarts).toBe(1);
    expect(stall.held).toBe(1);
    // Answered: the device no longer counts it as waiting.
    await eventually('the order to be answered', async () => {
      const e = (await device.outbox?.listOutbox())?.find((o) => o.id === id);
      return e?.state === 'accepted';
    });
    expect(device.replication.health.get().items[`pedidos:${id}`]).toBeUndefined();
  });

  it('leaves alone a push that keeps failing while the server is down', async () => {
    await served.server.stop();
    const id = await device.outbox?.queueOrder(draft());
    if (!id) throw new Error('no outbox');
    // RxDB tries again every 200 ms here: well past the watchdog's 500 ms, it is still trying.
    await eventually('several tries', () => (device.replication.health.get().items[`pedidos:${id}`]?.tries ?? 0) >= 6);
    expect(device.replication.health.get().push.pedidos?.restarts).toBe(1);
    expect(device.replication.health.get().items[`pedidos:${id}`]?.lastError?.kind).toBe('offline');
    await served.server.start();
    await eventually('the order to be answered', async () => {
      const e = (await device.outbox?.listOutbox())?.find((o) => o.id === id);
      return e?.state === 'accepted';
    });
  });
});
