// The order events reach people's devices: a new order its approvers, a decision its
// representative. Checked end to end against the local push service, which verifies VAPID
// and decrypts what it receives.
import type { Order } from '@campo/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { aPricedClient, postOrder } from '../../../test/support/builders.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { serverRolePool, useTestDatabase } from '../../../test/support/pg.ts';
import { type LocalPushService, startLocalPushService } from '../../../test/support/push-service.ts';
import { apiAs, logInAs } from '../../../test/support/session.ts';
import { generateVapidKeys } from '../notifications/vapid.ts';
import { createPushDrainer } from '../notifications/worker.ts';

const db = useTestDatabase();
const vapid = { ...generateVapidKeys(), subject: 'mailto:ti@distribuidora.test' };
const quiet = { info() {}, warn() {}, error() {} };

describe('order push notifications', () => {
  let push: LocalPushService;
  afterAll(async () => push?.close());

  it('tells the supervisor of a new order and the representative of its approval', async () => {
    push = await startLocalPushService();
    const erp = await provisionedErp(db.pool);
    const rep = erp.reps[0] as (typeof erp.reps)[number];
    const app = testApp(db.pool, { push: { vapid, endpointHosts: ['127.0.0.1'] } });
    const repToken = await logInAs(app, db.pool, {
      login: 'rep@push-o.test',
      role: 'representative',
      idEmpresa: rep.idEmpresa,
      codVendedor: rep.codVendedor,
    });
    const supToken = await logInAs(app, db.pool, {
      login: 'sup@push-o.test',
      role: 'supervisor',
      idEmpresa: rep.idEmpresa,
      codSupervisor: rep.codSupervisor,
    });
    const repDevice = push.newDevice(vapid.publicKey);
    const supDevice = push.newDevice(vapid.publicKey);
    expect((await apiAs(app, repToken)('POST', '/notifications/subscriptions', repDevice.subscription)).status).toBe(
      201,
    );
    expect((await apiAs(app, supToken)('POST', '/notifications/subscriptions', supDevice.subscription)).status).toBe(
      201,
    );
    const drain = () =>
      createPushDrainer({ pool: serverRolePool(db.url), vapid, agent: push.agent, log: quiet }).drainOnce();

    const client = await aPricedClient(db.pool, rep);
    const res = await postOrder(apiAs(app, repToken), {
      idCliente: client.idCliente,
      itens: [{ idProduto: client.products[0]?.id as number, quantidade: 2 }],
    });
    expect(res.status).toBe(201);
    const order = (await res.json()) as Order;
    await drain();
    const toSup = push.received.filter((r) => r.endpoint === supDevice.endpoint).map((r) => r.message);
    expect(toSup).toEqual([
      expect.objectContaining({
        type: 'order.pending_approval',
        url: `/pedidos/${order.id}`,
        title: expect.stringContaining(String(order.numPedSar)),
      }),
    ]);
    expect(push.received.filter((r) => r.endpoint === repDevice.endpoint)).toHaveLength(0);

    expect((await apiAs(app, supToken)('POST', `/orders/${order.id}/approve`)).status).toBe(200);
    await drain();
    const toRep = push.received.filter((r) => r.endpoint === repDevice.endpoint).map((r) => r.message);
    expect(toRep).toEqual([expect.objectContaining({ type: 'order.approved', url: `/pedidos/${order.id}` })]);
    expect(push.refused).toEqual([]);
  });
});
