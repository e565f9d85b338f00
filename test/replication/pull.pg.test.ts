// The client store (client/src/db) pulling from a real server over HTTP on a real LATIN1
// PostgreSQL: what a device ends with is compared with the app views read by this test, and ERP
// changes are made in the ERP's own tables, as the ERP would.

import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type CampoUser, wipe } from '../../client/src/db/index.ts';
import { erpDeleteProduct, erpSetPrice, provisionedErp } from '../support/erp.ts';
import { useTestDatabase } from '../support/pg.ts';
import { type Device, eventually, localIds, openDevice, servedApp, sortedStrings } from '../support/replication.ts';
import { apiAs, logInAs } from '../support/session.ts';

const db = useTestDatabase();

describe('client replication: pull', () => {
  let served: Awaited<ReturnType<typeof servedApp>>;
  let t1: number;
  let t2: number;
  let rep: number;
  let otherRep: number;
  const tokens: Record<string, string> = {};
  const devices: Device[] = [];

  const ids = async (sql: string, params: unknown[]) =>
    sortedStrings((await db.pool.query<{ id: unknown }>(sql, params)).rows.map((r) => r.id));
  const productsOf = (tenant: number) =>
    ids('select distinct id_produto as id from app.vw_produtos where id_empresa = $1', [tenant]);
  const portfolioOf = (codVendedor: number) =>
    ids('select id_cliente as id from app.vw_clientes where id_empresa = $1 and cod_vendedor = $2', [t1, codVendedor]);

  const device = async (who: string, user: CampoUser) => {
    const d = await openDevice({ user, baseUrl: served.server.url, token: tokens[who] as string });
    devices.push(d);
    return d;
  };

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    [t1, t2] = erp.tenants as [number, number];
    const reps = erp.reps.filter((r) => r.idEmpresa === t1);
    if (!reps[0] || !reps[1]) throw new Error('the tiny fixture lacks two representatives');
    rep = reps[0].codVendedor;
    otherRep = reps[1].codVendedor;
    served = await servedApp(db);
    const login = async (who: string, user: Parameters<typeof logInAs>[2]) => {
      tokens[who] = await logInAs(served.app, db.pool, user);
    };
    await login('rep', { login: 'rep@pull.test', role: 'representative', idEmpresa: t1, codVendedor: rep });
    await login('rep2', { login: 'rep2@pull.test', role: 'representative', idEmpresa: t1, codVendedor: otherRep });
    await login('manager', { login: 'manager@pull.test', role: 'manager', idEmpresa: t1 });
    await login('foreign', { login: 'foreign@pull.test', role: 'admin', idEmpresa: t2 });
  });

  afterAll(async () => {
    for (const d of devices) await d.close();
    await served?.close();
  });

  it("downloads the tenant's catalog and the representative's portfolio, with search keys", async () => {
    const d = await device('rep', { id: 1, idEmpresa: t1, role: 'representative' });
    await d.replication.awaitInitialSync();
    expect(await localIds(d.db, 'produtos')).toEqual(await productsOf(t1));
    expect(await localIds(d.db, 'clientes')).toEqual(await portfolioOf(rep));

    const product = await d.db.collections.produtos?.findOne().exec();
    expect(product?.prices.length).toBeGreaterThan(0);
    expect(product?.busca).toBe(product?.busca.toLowerCase());
    // The catalog search runs on the index: a folded term finds the product.
    const term = (product?.busca ?? '').split(' ').find((w) => w.length > 3) ?? '';
    const found = await d.db.collections.produtos?.find({ selector: { busca: { $regex: term } } }).exec();
    expect(found?.map((p) => p.id)).toContain(product?.id);

    // The small reference data: the company and this representative's ceilings and flex balance.
    expect(await localIds(d.db, 'ajustes')).toEqual(['empresa', 'flex', 'tetos']);
    const tetos = await d.db.collections.ajustes?.findOne('tetos').exec();
    expect(tetos?.tetos?.codVendedor).toBe(rep);

    const state = d.replication.syncState.get();
    expect(state.initial).toMatchObject({ done: 9, total: 9 });
    expect(state.initial.received).toBeGreaterThanOrEqual((await productsOf(t1)).length);
    expect(state.error).toBeNull();
    expect(state.lastSuccessAt).not.toBeNull();
    await eventually('the change stream to open', () => d.replication.syncState.get().live);
  });

  it('ERP changes reach an open device through the change stream: a new price, a deleted product', async () => {
    const d = devices[0] as Device;
    const { rows } = await db.pool.query<{ id_pauta: number; id_produto: number }>(
      `select pr.id_pauta, pr.id_produto from app.vw_precos pr
        where pr.id_empresa = $1 order by pr.id_produto limit 1`,
      [t1],
    );
    const priced = rows[0];
    if (!priced) throw new Error('no price in the fixture');
    await erpSetPrice(db.pool, priced.id_pauta, priced.id_produto, 4321.5);
    // A product no order refers to can leave the ERP.
    const gone = await db.pool.query<{ id_produto: number }>(
      `select p.id_produto from app.vw_produtos p
        where p.id_empresa = $1 and p.id_produto <> $2
          and not exists (select 1 from app.vw_pedidos_erp_itens i where i.id_produto = p.id_produto)
          and not exists (select 1 from app.pedido_itens i where i.id_produto = p.id_produto)
        order by p.id_produto limit 1`,
      [t1, priced.id_produto],
    );
    const deleted = String(gone.rows[0]?.id_produto);
    await erpDeleteProduct(db.pool, Number(deleted));
    expect(await localIds(d.db, 'produtos')).toContain(deleted);
    const receivedBefore = d.replication.syncState.get().collections.produtos?.received ?? 0;

    const res = await apiAs(served.app, tokens.manager as string)('POST', '/catalog/sync');
    expect(res.status, await res.clone().text()).toBe(200);

    // No syncNow: the change announcement alone makes the device pull.
    await eventually(
      'the deleted product to leave the device',
      async () => !(await localIds(d.db, 'produtos')).includes(deleted),
    );
    await eventually('the new price to arrive', async () => {
      const doc = await d.db.collections.produtos?.findOne(String(priced.id_produto)).exec();
      return doc?.prices.find((p) => p.idPauta === priced.id_pauta)?.price === 4321.5;
    });
    expect(await localIds(d.db, 'produtos')).toEqual(await productsOf(t1));
    // Incremental: the changed product and the tombstone, not the catalog again.
    expect((d.replication.syncState.get().collections.produtos?.received ?? 0) - receivedBefore).toBe(2);
  });

  it("a device of another tenant holds only its own tenant's data", async () => {
    const d = await device('foreign', { id: 4, idEmpresa: t2, role: 'admin' });
    onTestFinished(async () => {
      await d.close();
      devices.splice(devices.indexOf(d), 1);
    });
    await d.replication.awaitInitialSync();
    const products = await localIds(d.db, 'produtos');
    expect(products).toEqual(await productsOf(t2));
    const clients = await localIds(d.db, 'clientes');
    expect(clients).toEqual(await ids('select id_cliente as id from app.vw_clientes where id_empresa = $1', [t2]));
    const t1Only = new Set(await ids('select id_cliente as id from app.vw_clientes where id_empresa = $1', [t1]));
    expect(clients.filter((c) => t1Only.has(c))).toEqual([]);
    expect(d.db.campo.collections).toEqual(['produtos', 'clientes', 'regras', 'ajustes']);
    const empresa = await d.db.collections.ajustes?.findOne('empresa').exec();
    expect(empresa?.empresa?.idEmpresa).toBe(t2);
  });

  it("a non-representative's device receives no representative's ceilings (ajustes 'tetos' is for representatives)", async () => {
    const d = await device('manager', { id: 3, idEmpresa: t1, role: 'manager' });
    onTestFinished(async () => {
      await d.close();
      devices.splice(devices.indexOf(d), 1);
    });
    await d.replication.awaitInitialSync();
    const tetos = await d.db.collections.ajustes?.findOne('tetos').exec();
    expect(tetos?.tetos ?? null).toBeNull();
  });

  it('a token the server refuses stops the replication and tells the session module, which wipes', async () => {
    let unauthorized = 0;
    // A manager's device: 4 collections, so it opens beside the representative's 7.
    const user = { id: 9, idEmpresa: t1, role: 'manager' as const };
    const d = await openDevice({
      user,
      baseUrl: served.server.url,
      token: 'not-a-valid-token',
      onUnauthorized: () => {
        unauthorized += 1;
      },
    });
    await eventually('onUnauthorized', () => unauthorized > 0);
    expect(d.replication.syncState.get().error?.message).toBe('Sessão expirada. Entre novamente.');
    await eventually('the replication to stop', () => Object.values(d.replication.states).every((s) => s.isStopped()));
    expect(unauthorized).toBe(1);
    await d.replication.stop();
    await wipe(d.db);
    expect(d.db.closed).toBe(true);
  });

  it('a server restart in the middle of the first download loses nothing', async () => {
    // Two representative devices (9 collections each) would exceed RxDB's 13 per realm.
    for (const open of devices.splice(0)) await open.close();
    let pulls = 0;
    let restarted: Promise<void> | undefined;
    const flaky: typeof fetch = async (input, init) => {
      if (String(input).includes('/pull') && ++pulls === 4) {
        // The server goes away between two pages, and comes back on the same port a bit later.
        await served.server.stop();
        restarted = new Promise((r) => setTimeout(r, 700)).then(() => served.server.start());
      }
      return fetch(input, init);
    };
    const d = await openDevice({
      user: { id: 2, idEmpresa: t1, role: 'representative' },
      baseUrl: served.server.url,
      token: tokens.rep2 as string,
      fetch: flaky,
      pullBatchSize: { produtos: 5, clientes: 3 },
    });
    devices.push(d);
    const errors: string[] = [];
    d.replication.syncState.state$.subscribe((s) => {
      if (s.error) errors.push(s.error.message);
    });
    await d.replication.awaitInitialSync();
    await restarted;
    expect(pulls).toBeGreaterThan(4);
    expect(errors).toContain('Sem conexão com o servidor.');
    expect(await localIds(d.db, 'produtos')).toEqual(await productsOf(t1));
    expect(await localIds(d.db, 'clientes')).toEqual(await portfolioOf(otherRep));
    await eventually('the error to clear', () => d.replication.syncState.get().error === null);
  });

  it("the catalog's first download is pulled from the start once, and the replication carries on from its checkpoint", async () => {
    for (const open of devices.splice(0)) await open.close();
    const fromStart: Record<string, number> = {};
    /** The first download's pulls (four of the replication's pages each), in the order sent. */
    const firstPulls: string[] = [];
    const counting: typeof fetch = async (input, init) => {
      const url = new URL(String(input));
      const collection = url.pathname.split('/').at(-2) ?? '';
      if (url.pathname.endsWith('/pull') && !url.searchParams.has('checkpoint')) {
        fromStart[collection] = (fromStart[collection] ?? 0) + 1;
      }
      const limit = url.searchParams.get('limit');
      if ((collection === 'produtos' && limit === '16') || (collection === 'clientes' && limit === '12')) {
        firstPulls.push(collection);
      }
      return fetch(input, init);
    };
    const d = await openDevice({
      user: { id: 3, idEmpresa: t1, role: 'representative' },
      baseUrl: served.server.url,
      token: tokens.rep as string,
      fetch: counting,
      pullBatchSize: { produtos: 4, clientes: 3 },
    });
    devices.push(d);
    await d.replication.awaitInitialSync();
    expect(await localIds(d.db, 'produtos')).toEqual(await productsOf(t1));
    expect(await localIds(d.db, 'clientes')).toEqual(await portfolioOf(rep));
    // Written in pages by the first download, then RxDB's replication started at its checkpoint:
    // pulled from the start again, the catalog would be downloaded twice.
    expect(fromStart.produtos).toBe(1);
    expect(fromStart.clientes).toBe(1);
    // The catalog first: the clients' download starts once the products' has ended.
    expect(firstPulls.filter((c) => c === 'produtos').length).toBeGreaterThan(1);
    expect(firstPulls.lastIndexOf('produtos')).toBeLessThan(firstPulls.indexOf('clientes'));
    // A store already holding the catalog goes through RxDB's replication alone.
    await d.close();
    devices.splice(devices.indexOf(d), 1);
    const again = await openDevice({
      user: { id: 3, idEmpresa: t1, role: 'representative' },
      baseUrl: served.server.url,
      token: tokens.rep as string,
      fetch: counting,
      indexedDb: d.indexedDb,
    });
    devices.push(again);
    await again.replication.awaitInitialSync();
    expect(fromStart.produtos).toBe(1);
    expect(await localIds(again.db, 'produtos')).toEqual(await productsOf(t1));
  });

  it('a stored checkpoint of another scope is dropped and the collection pulled from the start', async () => {
    for (const open of devices.splice(0)) await open.close();
    const user = { id: 5, idEmpresa: t1, role: 'representative' as const };
    const first = await openDevice({ user, baseUrl: served.server.url, token: tokens.rep as string });
    await first.replication.awaitInitialSync();
    // In sync, so the last checkpoint is stored before the app closes.
    await first.replication.syncNow();
    await first.close();
    // The same store, now with a token of another representative code (ops moved the user):
    // every stored checkpoint answers 400 CHECKPOINT_SCOPE.
    const statuses: number[] = [];
    const watching: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (String(input).includes('/clientes/pull')) statuses.push(res.status);
      return res;
    };
    const again = await openDevice({
      user,
      baseUrl: served.server.url,
      token: tokens.rep2 as string,
      indexedDb: first.indexedDb,
      fetch: watching,
    });
    devices.push(again);
    await again.replication.syncNow();
    expect(statuses[0]).toBe(400);
    const local = new Set(await localIds(again.db, 'clientes'));
    expect((await portfolioOf(otherRep)).filter((id) => !local.has(id))).toEqual([]);
  });

  it('a device the server puts in line (503 SYNC_BUSY) waits Retry-After, says so, and then finishes', async () => {
    const busyAt: number[] = [];
    let retriedAt = 0;
    let sawBusy = false;
    // RxDB opens at most 13 collections per realm: the other tests' devices are done.
    for (const open of devices.splice(0)) await open.close();
    const queued = await openDevice({
      user: { id: 12, idEmpresa: t1, role: 'representative' },
      baseUrl: served.server.url,
      token: tokens.rep as string,
      collections: ['produtos'],
      fetch: async (input, init) => {
        const url = String(input);
        if (url.includes('/produtos/pull') && busyAt.length < 1) {
          busyAt.push(Date.now());
          const body = {
            type: 'urn:campo:problem:sync_busy',
            title: 'Servidor ocupado',
            status: 503,
            code: 'SYNC_BUSY',
          };
          return new Response(JSON.stringify(body), {
            status: 503,
            headers: { 'content-type': 'application/problem+json', 'retry-after': '1' },
          });
        }
        if (url.includes('/produtos/pull') && retriedAt === 0) retriedAt = Date.now();
        return fetch(input, init);
      },
    });
    devices.push(queued);
    const seen = queued.replication.syncState.state$.subscribe((st) => {
      if (st.collections.produtos?.error?.code === 'SYNC_BUSY') sawBusy = true;
    });
    onTestFinished(() => seen.unsubscribe());
    await queued.replication.awaitInitialSync();
    expect(await localIds(queued.db, 'produtos')).toEqual(await productsOf(t1));
    // RxDB alone would retry after its retry time (200 ms here): the device waited what the server said.
    expect(retriedAt - (busyAt[0] as number)).toBeGreaterThanOrEqual(1000);
    expect(sawBusy).toBe(true);
    expect(queued.replication.syncState.get().error).toBeNull();
  });
});
