// The client's mix (issue #41): GET /clients/{id}/mix and the field mix of the client's
// replicated document, read as the server's non-owner role (apiAs) under row-level security.
// The history is written straight into the reference ERP's own tables (pedidos_venda and its
// lines) by this test's SQL, and through the API for Campo orders.
import { CLIENT_MIX_MAX, CLIENT_MIX_MONTHS, type ClientMixItem, type ClientMixPage } from '@campo/shared';
import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import {
  type Api,
  anErpOrder,
  anOrder,
  aPricedClient,
  aRepresentative,
  type ErpOrderLine,
  type PricedProduct,
  placeOrder,
  type Rep,
  signedIn,
  withoutRecentErpOrders,
} from '../../../test/support/builders.ts';
import { clearForOrders, provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { pullClients } from '../../../test/support/session.ts';
import { createDb } from '../db/kysely.ts';
import { refreshCollection } from '../sync/service.ts';

const db = useTestDatabase();

/** An ERP order of the client `daysAgo` days ago, with its lines (anErpOrder). */
const erpOrder = (
  pool: pg.Pool,
  rep: Rep,
  idCliente: number,
  daysAgo: number,
  lines: ErpOrderLine[],
  situacao: 'A' | 'F' | 'C' = 'F',
) => anErpOrder(pool, rep, idCliente, { daysAgo, lines, situacao });

/** The ERP's date `daysAgo` days before today, as the mix writes it. */
async function dayOf(pool: pg.Pool, daysAgo: number): Promise<string> {
  const { rows } = await pool.query<{ d: string }>(
    `select to_char((now() at time zone 'America/Sao_Paulo') - make_interval(days => $1), 'YYYY-MM-DD') as d`,
    [daysAgo],
  );
  return rows[0]?.d as string;
}

/** The REST items as the document's compact entries. */
const asEntries = (items: ClientMixItem[]) =>
  items.map((i) => [i.idProduto, i.pedidos, i.quantidadeUsual, i.ultimoPreco, i.ultimaCompra]);

describe("the client's mix", () => {
  let rep: Rep;
  let other: Rep;
  let t1: number;
  let idCliente: number;
  let products: PricedProduct[];
  let otherClient: number;
  let as: Record<'rep' | 'otherRep' | 'supervisor' | 'foreignAdmin', Api>;

  const mixOf = async (who: Api, id: number, query = '') => who('GET', `/clients/${id}/mix${query}`);

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    t1 = erp.tenants[0] as number;
    rep = await aRepresentative(db.pool, erp, { tenant: t1 });
    other = await aRepresentative(db.pool, erp, { besides: rep });
    const t2 = erp.tenants[1] as number;
    ({ idCliente, products } = await aPricedClient(db.pool, rep, { products: 6 }));
    await clearForOrders(db.pool, idCliente);
    otherClient = (
      await db.pool.query<{ id: number }>(
        'select id_cliente as id from app.vw_clientes where id_empresa = $1 and cod_vendedor = $2 order by 1 limit 1',
        [t1, other.codVendedor],
      )
    ).rows[0]?.id as number;
    // The generated history of both clients leaves the window: each test writes its own.
    await withoutRecentErpOrders(db.pool, [idCliente, otherClient]);
    const app = testApp(db.pool);
    as = {
      rep: await signedIn(app, db.pool, {
        login: 'rep@mix.test',
        role: 'representative',
        idEmpresa: t1,
        codVendedor: rep.codVendedor,
      }),
      otherRep: await signedIn(app, db.pool, {
        login: 'other@mix.test',
        role: 'representative',
        idEmpresa: t1,
        codVendedor: other.codVendedor,
      }),
      supervisor: await signedIn(app, db.pool, {
        login: 'sup@mix.test',
        role: 'supervisor',
        idEmpresa: t1,
        codSupervisor: rep.codSupervisor,
      }),
      foreignAdmin: await signedIn(app, db.pool, { login: 'foreign@mix.test', role: 'admin', idEmpresa: t2 }),
    };

    const [a, b, c, d, e] = products as [PricedProduct, PricedProduct, PricedProduct, PricedProduct, PricedProduct];
    // a: three ERP orders in the window (quantities 4, 6, 5; the latest at 10.00).
    await erpOrder(db.pool, rep, idCliente, 10, [
      { product: a.id, quantity: 4, price: 10 },
      { product: b.id, quantity: 1, price: 7.25 },
    ]);
    await erpOrder(db.pool, rep, idCliente, 40, [{ product: a.id, quantity: 6, price: 9 }]);
    await erpOrder(db.pool, rep, idCliente, 100, [{ product: a.id, quantity: 5, price: 8.5 }]);
    // c: only in an order the ERP cancelled; d: only before the window.
    await erpOrder(db.pool, rep, idCliente, 5, [{ product: c.id, quantity: 3, price: 1 }], 'C');
    await erpOrder(db.pool, rep, idCliente, CLIENT_MIX_MONTHS * 31 + 5, [{ product: d.id, quantity: 9, price: 2 }]);
    // e: only in a Campo order the supervisor rejected.
    const rejected = await anOrder(db.pool, rep, { client: { idCliente, razaoSocial: 'x' } });
    await db.pool.query(
      `insert into app.pedido_itens (id_pedido, seq, id_empresa, id_produto, cod_produto, descricao, quantidade,
                                     preco_tabela, preco_unitario, valor_total)
       values ($1, 1, $2, $3, 'E', 'E', 2, 1, 1, 2)`,
      [rejected.id, t1, e.id],
    );
    await db.pool.query("update app.pedidos set situa = 4, motivo_rejeicao = 'teste' where id = $1", [rejected.id]);
  });

  it('counts ERP orders not cancelled in the window, the usual quantity, the last price and date, the most bought first', async () => {
    const [a, b] = products as [PricedProduct, PricedProduct];
    const res = await mixOf(as.rep, idCliente);
    expect(res.status).toBe(200);
    const page = (await res.json()) as ClientMixPage;
    const code = (
      await db.pool.query<{ cod: string; descricao: string; unidade: string }>(
        'select cod_produto as cod, descricao, unidade from public.produtos where id_produto = $1',
        [a.id],
      )
    ).rows[0];
    expect(page.total).toBe(2);
    expect(page.items).toEqual([
      {
        idProduto: a.id,
        code: code?.cod,
        description: code?.descricao,
        unit: code?.unidade,
        pedidos: 3,
        quantidadeUsual: 5,
        ultimoPreco: 10,
        ultimaCompra: await dayOf(db.pool, 10),
      },
      expect.objectContaining({ idProduto: b.id, pedidos: 1, quantidadeUsual: 1, ultimoPreco: 7.25 }),
    ]);
  });

  it("adds a Campo order once approved, and the approval brings the client's document with it to the phone", async () => {
    const [a, b] = products as [PricedProduct, PricedProduct];
    await refreshCollection(createDb(db.pool), t1, 'clientes');
    const mixNow = async () => ((await (await mixOf(as.rep, idCliente)).json()) as ClientMixPage).items;
    const docNow = async () => (await pullClients(as.rep)).find((d) => d.id === String(idCliente));
    const before = await mixNow();
    const order = await placeOrder(as.rep, {
      idCliente,
      itens: [{ idProduto: b.id, quantidade: 3, descontoPercent: 0 }],
    });
    // Pending, it may still be rejected: not in the mix, and the document the order moved
    // still carries the mix a rebuild writes.
    expect(await mixNow()).toEqual(before);
    expect((await docNow())?.mix).toEqual(asEntries(before));

    const approved = await as.supervisor('POST', `/orders/${order.id}/approve`);
    expect(approved.status).toBe(200);
    const page = await mixNow();
    expect(page.map((i) => [i.idProduto, i.pedidos])).toEqual([
      [a.id, 3],
      [b.id, 2],
    ]);
    // Its last purchase is the Campo order's, today, at the order's price.
    expect(page[1]).toMatchObject({
      ultimaCompra: await dayOf(db.pool, 0),
      ultimoPreco: order.itens[0]?.precoUnitario,
      quantidadeUsual: 1,
    });
    // No refresh: the approval wrote the client's document whole.
    expect((await docNow())?.mix).toEqual(asEntries(page));
  });

  it('keeps the most bought CLIENT_MIX_MAX products', async () => {
    const many = (
      await db.pool.query<{ id: number }>(
        'select id_produto as id from app.vw_produtos where id_empresa = $1 order by id_produto limit $2',
        [t1, CLIENT_MIX_MAX + 5],
      )
    ).rows.map((r) => r.id);
    expect(many).toHaveLength(CLIENT_MIX_MAX + 5);
    await erpOrder(
      db.pool,
      other,
      otherClient,
      20,
      many.map((product) => ({ product, quantity: 1, price: 1 })),
    );
    // The last one bought twice: first however high its id.
    const last = many.at(-1) as number;
    await erpOrder(db.pool, other, otherClient, 3, [{ product: last, quantity: 2, price: 1 }]);
    const page = (await (await mixOf(as.otherRep, otherClient, '?pageSize=100')).json()) as ClientMixPage;
    expect(page.total).toBe(CLIENT_MIX_MAX);
    expect(page.items).toHaveLength(CLIENT_MIX_MAX);
    expect(page.items[0]).toMatchObject({ idProduto: last, pedidos: 2, quantidadeUsual: 1 });
    // Then by the latest purchase (all on the same day), then by product.
    expect(page.items.slice(1).map((i) => i.idProduto)).toEqual(many.slice(0, CLIENT_MIX_MAX - 1));
    await refreshCollection(createDb(db.pool), t1, 'clientes');
    const doc = (await pullClients(as.otherRep)).find((d) => d.id === String(otherClient));
    expect(doc?.mix).toHaveLength(CLIENT_MIX_MAX);
    // Pages of the same list.
    const second = (await (await mixOf(as.otherRep, otherClient, '?pageSize=20&page=2')).json()) as ClientMixPage;
    expect(second.items.map((i) => i.idProduto)).toEqual(page.items.slice(20).map((i) => i.idProduto));
  });

  it("is the client's: another representative's client is not found, the supervisor and the tenant see it", async () => {
    expect((await mixOf(as.rep, otherClient)).status).toBe(404);
    expect((await mixOf(as.otherRep, idCliente)).status).toBe(404);
    expect((await mixOf(as.foreignAdmin, idCliente)).status).toBe(404);
    expect((await mixOf(as.supervisor, idCliente)).status).toBe(200);
    expect((await mixOf(as.rep, idCliente, '?pageSize=101')).status).toBe(400);
    // A representative's phone never receives another portfolio's mix.
    await refreshCollection(createDb(db.pool), t1, 'clientes');
    const docs = await pullClients(as.rep);
    expect(docs.some((d) => d.id === String(otherClient))).toBe(false);
    expect(new Set(docs.map((d) => d.codVendedor))).toEqual(new Set([rep.codVendedor]));
  });
});
