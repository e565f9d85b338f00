// The app's own store writing visits (client/src/db/outbox.ts, issue #42) against a real
// server over HTTP: a check-in and a check-out with a reason that requires a photo, both made
// with the server stopped, reach the server once when it is back, the photo sent before the
// visit's push (PUT /visits/{id}/photo); a photo whose upload fails holds its visit back on the
// phone, never lost, until it goes through.

import type { Visit, VisitReason } from '@campo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkInRefused, visitHeld, visitIsOpen } from '../../client/src/db/outbox.ts';
import type { VisitDoc } from '../../client/src/db/schemas.ts';
import { memoryVisitPhotos } from '../../client/src/db/visit-photos.ts';
import { jpeg } from '../fixtures/images.ts';
import { provisionedErp } from '../support/erp.ts';
import { useTestDatabase } from '../support/pg.ts';
import { eventually, openDevice, servedApp } from '../support/replication.ts';
import { apiAs, logInAs } from '../support/session.ts';

const db = useTestDatabase();

describe("the app's visits, offline and back", () => {
  let served: Awaited<ReturnType<typeof servedApp>>;
  let t1: number;
  let rep: number;
  let token: string;
  let supervisor: ReturnType<typeof apiAs>;
  let clients: number[];
  let comFoto: { id: number; descricao: string };
  let semFoto: { id: number; descricao: string };
  const shop = { latitude: -23.5505, longitude: -46.6333 };
  const user = () => ({ id: 7, idEmpresa: t1, role: 'representative' as const });

  const heldVisits = async (chave: string) =>
    (
      await db.pool.query<{ n: number; fotos: number }>(
        `select (select count(*)::int from app.visitas where chave = $1) as n,
                (select count(*)::int from app.visita_fotos where chave_visita = $1) as fotos`,
        [chave],
      )
    ).rows[0];

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    [t1] = erp.tenants as [number];
    const first = erp.reps.find((r) => r.idEmpresa === t1);
    if (!first) throw new Error('no representative in the fixture');
    rep = first.codVendedor;
    clients = (
      await db.pool.query<{ id: number }>(
        `select id_cliente as id from app.vw_clientes
          where id_empresa = $1 and cod_vendedor = $2 and cadastro_ativo order by 1 limit 2`,
        [t1, rep],
      )
    ).rows.map((r) => r.id);
    await db.pool.query('update public.corrent set latitude = $2, longitude = $3 where id_corrent = any($1)', [
      clients,
      shop.latitude,
      shop.longitude,
    ]);
    served = await servedApp(db);
    token = await logInAs(served.app, db.pool, {
      login: 'rep@visitas-app.test',
      role: 'representative',
      idEmpresa: t1,
      codVendedor: rep,
    });
    supervisor = apiAs(
      served.app,
      await logInAs(served.app, db.pool, {
        login: 'sup@visitas-app.test',
        role: 'supervisor',
        idEmpresa: t1,
        codSupervisor: first.codSupervisor,
      }),
    );
    const manager = apiAs(
      served.app,
      await logInAs(served.app, db.pool, { login: 'ger@visitas-app.test', role: 'manager', idEmpresa: t1 }),
    );
    const created = await manager('POST', '/visit-reasons', { descricao: 'Loja fechada (foto)', exigeFoto: true });
    expect(created.status, await created.clone().text()).toBe(201);
    const reason = (await created.json()) as { id: number; descricao: string };
    comFoto = { id: reason.id, descricao: reason.descricao };
    const list = (await (await manager('GET', '/visit-reasons')).json()) as { items: VisitReason[] };
    const preco = list.items.find((r) => r.codigo === 'preco') as VisitReason;
    semFoto = { id: preco.id, descricao: preco.descricao };
  });

  afterAll(async () => {
    await served?.close();
  });

  it('checks in and out with a photo while the server is stopped, and the server holds the visit once when it is back', async () => {
    const photos = memoryVisitPhotos();
    const device = await openDevice({ user: user(), baseUrl: served.server.url, token, visitPhotos: photos });
    try {
      const outbox = device.outbox;
      if (!outbox) throw new Error('no outbox');
      await device.replication.awaitInitialSync();
      await served.server.stop();
      const near = { latitude: shop.latitude + 40 / 111_195, longitude: shop.longitude, precisao: 9 };
      const id = await outbox.checkIn({
        codVendedor: rep,
        idCliente: clients[0] as number,
        nomeCliente: null,
        posicao: near,
      });
      await expect(
        outbox.checkIn({ codVendedor: rep, idCliente: clients[1] as number, nomeCliente: null, posicao: null }),
      ).rejects.toThrow(/registre a saída/);
      await outbox.checkOut(id, {
        posicao: near,
        motivo: comFoto,
        foto: new Blob([new Uint8Array(jpeg())], { type: 'image/jpeg' }),
      });
      await eventually('the phone to notice it is offline', () => device.replication.syncState.get().online === false);
      expect(await heldVisits(id)).toEqual({ n: 0, fotos: 0 });

      await served.server.start();
      const held = await eventually('the visit on the server, closed', async () => {
        const doc = (await device.db.collections.visitas?.findOne(id).exec())?.toJSON() as VisitDoc | undefined;
        return doc?.estado === 'sem_pedido' && doc.entradaRecebidaEm !== null ? doc : undefined;
      });
      expect(held.recusa ?? null).toBeNull();
      expect(await heldVisits(id)).toEqual({ n: 1, fotos: 1 });
      expect(await photos.get(id)).toBeNull();
      const seen = (await (await supervisor('GET', `/visits?codVendedor=${rep}`)).json()) as { items: Visit[] };
      const visit = seen.items.find((v) => v.id === id);
      expect(visit).toMatchObject({ idMotivo: comFoto.id, foto: true, estado: 'sem_pedido' });
      expect(visit?.distanciaMetros).toBeGreaterThanOrEqual(35);
      expect(visit?.distanciaMetros).toBeLessThanOrEqual(45);
    } finally {
      await device.close();
    }
  });

  it('shows a check-in the server refused as not open, and discards it for good', async () => {
    const foreign = (
      await db.pool.query<{ id: number }>(
        `select id_cliente as id from app.vw_clientes
          where id_empresa = $1 and cod_vendedor <> $2 order by 1 limit 1`,
        [t1, rep],
      )
    ).rows[0]?.id as number;
    const device = await openDevice({ user: user(), baseUrl: served.server.url, token });
    try {
      const outbox = device.outbox;
      if (!outbox) throw new Error('no outbox');
      await device.replication.awaitInitialSync();
      const id = await outbox.checkIn({ codVendedor: rep, idCliente: foreign, nomeCliente: null, posicao: null });
      const refused = await eventually('the refusal on the phone', async () => {
        const doc = (await device.db.collections.visitas?.findOne(id).exec())?.toJSON() as VisitDoc | undefined;
        return doc?.recusa ? doc : undefined;
      });
      expect(refused.recusa?.code).toBe('CLIENT_NOT_IN_PORTFOLIO');
      expect([checkInRefused(refused), visitIsOpen(refused), visitHeld(refused)]).toEqual([true, false, false]);
      // Not open: the representative may check in elsewhere meanwhile.
      const next = await outbox.checkIn({
        codVendedor: rep,
        idCliente: clients[0] as number,
        nomeCliente: null,
        posicao: null,
      });
      await outbox.discardVisit(id);
      await device.replication.syncNow();
      expect(await device.db.collections.visitas?.findOne(id).exec()).toBeNull();
      expect((await heldVisits(id))?.n).toBe(0);
      await outbox.checkOut(next, { posicao: null, motivo: semFoto, foto: null });
      await eventually('the other visit closed on the server', async () => {
        const r = await db.pool.query('select saida_em from app.visitas where chave = $1', [next]);
        return r.rows[0]?.saida_em != null;
      });
    } finally {
      await device.close();
    }
  });

  it('keeps a visit on the phone while its photo cannot be sent, and sends both once it can', async () => {
    const photos = memoryVisitPhotos();
    let failPhotos = true;
    let photoTries = 0;
    const flaky: typeof fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (/\/visits\/[^/]+\/photo$/.test(url)) {
        photoTries++;
        if (failPhotos) return new Response('{}', { status: 503, headers: { 'content-type': 'application/json' } });
      }
      return fetch(input, init);
    };
    const device = await openDevice({
      user: user(),
      baseUrl: served.server.url,
      token,
      visitPhotos: photos,
      fetch: flaky,
    });
    try {
      const outbox = device.outbox;
      if (!outbox) throw new Error('no outbox');
      await device.replication.awaitInitialSync();
      const id = await outbox.checkIn({
        codVendedor: rep,
        idCliente: clients[1] as number,
        nomeCliente: null,
        posicao: null,
      });
      await eventually('the check-in on the server', async () => ((await heldVisits(id))?.n ?? 0) === 1);
      await outbox.checkOut(id, {
        posicao: null,
        motivo: comFoto,
        foto: new Blob([new Uint8Array(jpeg())], { type: 'image/jpeg' }),
      });
      await eventually('a second try of the photo', () => photoTries >= 2);
      const open = await db.pool.query('select saida_em from app.visitas where chave = $1', [id]);
      expect(open.rows[0]?.saida_em).toBeNull();
      expect(await photos.get(id)).not.toBeNull();

      failPhotos = false;
      await eventually('the visit closed on the server', async () => {
        const r = await db.pool.query('select saida_em from app.visitas where chave = $1', [id]);
        return r.rows[0]?.saida_em != null;
      });
      expect(await heldVisits(id)).toEqual({ n: 1, fotos: 1 });
    } finally {
      await device.close();
    }
  });
});
