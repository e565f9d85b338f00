// Replication pull against a real LATIN1 PostgreSQL: what devices receive is compared with
// the views (vw_produtos, vw_precos, vw_clientes) read by this test, and ERP changes are made
// in the ERP's own tables (pautas_precos, corrent).
import {
  type CatalogSyncResult,
  decodeCheckpoint,
  type Problem,
  SYNC_LIMIT_MAX,
  type SyncClient,
  type SyncProduct,
  type SyncPull,
} from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { signedIn } from '../../../test/support/builders.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import type { apiAs, SessionUser } from '../../../test/support/session.ts';

const db = useTestDatabase();

type Api = ReturnType<typeof apiAs>;
type Doc = SyncPull['documents'][number];

/** Pulls from `checkpoint` until a batch is short; every document in order and the last checkpoint. */
async function pullAll(api: Api, collection: string, checkpoint?: string, limit = 97) {
  const documents: Doc[] = [];
  let cp = checkpoint;
  for (let i = 0; i < 1000; i++) {
    const query = new URLSearchParams({ limit: String(limit), ...(cp ? { checkpoint: cp } : {}) });
    const res = await api('GET', `/sync/${collection}/pull?${query}`);
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as SyncPull;
    documents.push(...body.documents);
    cp = body.checkpoint;
    if (body.documents.length < limit) break;
  }
  return { documents, checkpoint: cp as string };
}

/** The device's state after applying documents in order. */
function apply(documents: Doc[], state = new Map<number, Doc>()) {
  for (const d of documents) {
    // Document ids are strings (RxDB primary keys); the ERP ids they hold are numbers.
    if (d._deleted) state.delete(Number(d.id));
    else state.set(Number(d.id), d);
  }
  return state;
}

const sorted = (ids: Iterable<number>) => [...ids].sort((a, b) => a - b);

describe('replication pull', () => {
  let t1: number;
  let t2: number;
  let rep: number;
  let otherRep: number;
  let as: Record<'rep' | 'otherRep' | 'manager' | 'foreignAdmin', Api>;

  const ids = async (text: string, params: unknown[]) =>
    (await db.pool.query<{ id: number }>(text, params)).rows.map((r) => Number(r.id));

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    [t1, t2] = erp.tenants as [number, number];
    const reps = erp.reps.filter((r) => r.idEmpresa === t1);
    if (!reps[0] || !reps[1]) throw new Error('the tiny fixture lacks two representatives');
    rep = reps[0].codVendedor;
    otherRep = reps[1].codVendedor;
    const app = testApp(db.pool);
    const login = async (name: string, user: Omit<SessionUser, 'login'>) =>
      signedIn(app, db.pool, { ...user, login: `${name}@sync.test` });
    as = {
      rep: await login('rep', { role: 'representative', idEmpresa: t1, codVendedor: rep }),
      otherRep: await login('rep2', { role: 'representative', idEmpresa: t1, codVendedor: otherRep }),
      manager: await login('manager', { role: 'manager', idEmpresa: t1 }),
      foreignAdmin: await login('foreign', { role: 'admin', idEmpresa: t2 }),
    };
  });

  it('first pull fills the log: every product of the tenant with its prices', async () => {
    const { documents } = await pullAll(as.rep, 'produtos');
    const state = apply(documents);
    const expected = await ids('select id_produto as id from app.vw_produtos where id_empresa = $1', [t1]);
    expect(sorted(state.keys())).toEqual(sorted(expected));
    expect(documents.every((d) => !d._deleted)).toBe(true);

    const prices = await db.pool.query<{ id_produto: number; id_pauta: number; preco: number }>(
      `select pr.id_produto, pr.id_pauta, pr.preco::float8 as preco
         from app.vw_precos pr join app.vw_produtos p on p.id_produto = pr.id_produto
        where pr.id_empresa = $1 and pr.id_filial = p.id_filial`,
      [t1],
    );
    expect(prices.rows.length).toBeGreaterThan(0);
    for (const p of prices.rows) {
      const doc = state.get(p.id_produto) as SyncProduct;
      expect(doc.prices.find((x) => x.idPauta === p.id_pauta)?.price).toBeCloseTo(p.preco, 4);
    }
  });

  it("a representative gets exactly their portfolio; a manager the tenant's clients", async () => {
    const mine = apply((await pullAll(as.rep, 'clientes')).documents);
    expect(sorted(mine.keys())).toEqual(
      sorted(
        await ids('select id_cliente as id from app.vw_clientes where id_empresa = $1 and cod_vendedor = $2', [
          t1,
          rep,
        ]),
      ),
    );
    expect([...mine.values()].every((d) => (d as SyncClient).codVendedor === rep)).toBe(true);
    const all = apply((await pullAll(as.manager, 'clientes')).documents);
    expect(sorted(all.keys())).toEqual(
      sorted(await ids('select id_cliente as id from app.vw_clientes where id_empresa = $1', [t1])),
    );
  });

  it("another tenant's token never gets this tenant's documents", async () => {
    const own = apply((await pullAll(as.foreignAdmin, 'produtos')).documents);
    const t1Products = new Set(await ids('select id_produto as id from app.vw_produtos where id_empresa = $1', [t1]));
    expect(own.size).toBeGreaterThan(0);
    expect([...own.keys()].some((id) => t1Products.has(id))).toBe(false);
    const clients = apply((await pullAll(as.foreignAdmin, 'clientes')).documents);
    const t1Clients = new Set(await ids('select id_cliente as id from app.vw_clientes where id_empresa = $1', [t1]));
    expect([...clients.keys()].some((id) => t1Clients.has(id))).toBe(false);
  });

  it('a refresh with no ERP change changes nothing and takes no revision', async () => {
    expect((await as.manager('POST', '/catalog/sync')).status).toBe(200);
    const before = await db.pool.query('select max(revisao) as m, count(*) as n from app.sync_alteracoes');
    const res = await as.manager('POST', '/catalog/sync');
    expect(res.status).toBe(200);
    const body = (await res.json()) as CatalogSyncResult;
    const zero = { inserted: 0, updated: 0, deleted: 0 };
    expect(Object.values(body.changeLog)).toEqual(Object.values(body.changeLog).map(() => zero));
    expect(Object.keys(body.changeLog)).toContain('pedidos');
    const after = await db.pool.query('select max(revisao) as m, count(*) as n from app.sync_alteracoes');
    expect(after.rows).toEqual(before.rows);
  });

  it('a price change reaches the device as that product alone', async () => {
    const { checkpoint } = await pullAll(as.rep, 'produtos');
    const { rows } = await db.pool.query<{ id_empresa: number; id_pauta: number; id_produto: number }>(
      `select pr.id_filial as id_empresa, pr.id_pauta, pr.id_produto
         from app.vw_precos pr join app.vw_produtos p on p.id_produto = pr.id_produto and p.id_filial = pr.id_filial
        where pr.id_empresa = $1 order by pr.id_produto limit 1`,
      [t1],
    );
    const target = rows[0];
    if (!target) throw new Error('no price in the fixture');
    await db.pool.query(
      'update pautas_precos set preco = preco + 1.23 where id_empresa = $1 and id_pauta = $2 and id_produto = $3',
      [target.id_empresa, target.id_pauta, target.id_produto],
    );
    const res = await as.rep('POST', '/catalog/sync');
    expect(((await res.json()) as CatalogSyncResult).changeLog.produtos).toEqual({
      inserted: 0,
      updated: 1,
      deleted: 0,
    });
    const { documents } = await pullAll(as.rep, 'produtos', checkpoint);
    expect(documents.map((d) => d.id)).toEqual([String(target.id_produto)]);
    const price = await db.pool.query<{ preco: number }>(
      'select preco::float8 as preco from pautas_precos where id_empresa = $1 and id_pauta = $2 and id_produto = $3',
      [target.id_empresa, target.id_pauta, target.id_produto],
    );
    const doc = documents[0] as SyncProduct;
    expect(doc.prices.find((p) => p.idPauta === target.id_pauta)?.price).toBeCloseTo(price.rows[0]?.preco ?? 0, 4);
  });

  it('a page the server kept may be older than the ERP, never wrong: the device still ends with the change', async () => {
    // A first page read by one phone, kept by the server for the next phone (page-cache.ts).
    const limit = 3;
    const first = async () => {
      const res = await as.rep('GET', `/sync/produtos/pull?limit=${limit}`);
      expect(res.status).toBe(200);
      return (await res.json()) as SyncPull;
    };
    const kept = await first();
    expect(kept.documents).toHaveLength(limit);
    const target = kept.documents[0] as SyncProduct;
    const onPauta = target.prices[0];
    if (!onPauta) throw new Error('the first product has no price');
    await db.pool.query(
      `update pautas_precos set preco = preco + 2.5
        where id_pauta = $1 and id_produto = $2 and id_empresa in (select id_filial from app.vw_empresas where id_empresa = $3)`,
      [onPauta.idPauta, Number(target.id), t1],
    );
    const res = await as.rep('POST', '/catalog/sync');
    expect(((await res.json()) as CatalogSyncResult).changeLog.produtos.updated).toBeGreaterThanOrEqual(1);

    // The next phone gets the page as it was kept, with the old price...
    const again = await first();
    expect(again).toEqual(kept);
    // ...and, going on from its checkpoint as every device does, the product again with the new one.
    const rest = await pullAll(as.rep, 'produtos', again.checkpoint);
    const state = apply(rest.documents, apply(again.documents));
    const fresh = apply((await pullAll(as.manager, 'produtos')).documents);
    expect((state.get(Number(target.id)) as SyncProduct).prices).toEqual(
      (fresh.get(Number(target.id)) as SyncProduct).prices,
    );
    expect(
      (state.get(Number(target.id)) as SyncProduct).prices.find((p) => p.idPauta === onPauta.idPauta)?.price,
    ).toBeCloseTo(onPauta.price + 2.5, 4);
    expect(sorted(state.keys())).toEqual(sorted(fresh.keys()));
  });

  it('a client moved to another portfolio arrives as a tombstone to the old representative', async () => {
    const fromRep = await pullAll(as.rep, 'clientes');
    const fromOther = await pullAll(as.otherRep, 'clientes');
    const fromManager = await pullAll(as.manager, 'clientes');
    const moved = [...apply(fromRep.documents).keys()][0];
    if (moved === undefined) throw new Error('the representative has no client');
    await db.pool.query('update corrent set cod_vendedor = $1 where id_corrent = $2', [otherRep, moved]);

    const res = await as.rep('POST', '/catalog/sync');
    const { changeLog } = (await res.json()) as CatalogSyncResult;
    expect(changeLog.clientes).toEqual({ inserted: 1, updated: 0, deleted: 1 });

    const repNow = await pullAll(as.rep, 'clientes', fromRep.checkpoint);
    // The deletion carries the client's last known state (it validates against the schema).
    expect(repNow.documents).toEqual([{ ...apply(fromRep.documents).get(moved), _deleted: true }]);
    const otherNow = await pullAll(as.otherRep, 'clientes', fromOther.checkpoint);
    expect(otherNow.documents.map((d) => [d.id, d._deleted])).toEqual([[String(moved), false]]);
    // Tenant-wide, the deletion comes before the new document: the client stays on the device.
    const managerState = apply(fromManager.documents);
    apply((await pullAll(as.manager, 'clientes', fromManager.checkpoint)).documents, managerState);
    expect((managerState.get(moved) as SyncClient).codVendedor).toBe(otherRep);
  });

  it('refuses malformed checkpoints, checkpoints of another scope and limits out of bounds', async () => {
    const bad = async (path: string, api = as.rep) => {
      const res = await api('GET', path);
      expect(res.status, path).toBe(400);
      return (await res.json()) as Problem;
    };
    await bad('/sync/produtos/pull?checkpoint=not-a-checkpoint');
    await bad(`/sync/produtos/pull?checkpoint=${Buffer.from('{"revisao":-1,"scope":"x"}').toString('base64url')}`);
    await bad('/sync/produtos/pull?limit=0');
    await bad(`/sync/produtos/pull?limit=${SYNC_LIMIT_MAX + 1}`);
    await bad('/sync/produtos/pull?limit=abc');
    const { checkpoint } = await pullAll(as.rep, 'produtos');
    expect(decodeCheckpoint(checkpoint)?.scope).toBe(`${t1}:produtos:${rep}`);
    expect((await bad(`/sync/produtos/pull?checkpoint=${checkpoint}`, as.otherRep)).code).toBe('CHECKPOINT_SCOPE');
    expect((await bad(`/sync/clientes/pull?checkpoint=${checkpoint}`)).code).toBe('CHECKPOINT_SCOPE');
    expect((await bad(`/sync/produtos/pull?checkpoint=${checkpoint}`, as.foreignAdmin)).code).toBe('CHECKPOINT_SCOPE');
    const unknown = await as.rep('GET', '/sync/vendas/pull');
    expect(unknown.status).toBe(404);
  });

  it('a pull with nothing new answers the same checkpoint', async () => {
    const { checkpoint } = await pullAll(as.rep, 'produtos');
    const res = await as.rep('GET', `/sync/produtos/pull?checkpoint=${checkpoint}`);
    expect(await res.json()).toEqual({ documents: [], checkpoint });
  });
});
