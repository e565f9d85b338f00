// Each client's open orders kept as one total (issue #51, sql/triggers/trg_pedidos_abertos.sql):
// whatever moves an order (placed, approved, rejected, invoiced or cancelled by the ERP, deleted,
// many at once), app.pedidos_em_aberto answers what summing the client's open orders answers,
// and provisioning sums them again when it (re)creates the trigger. Runs on both ERP profiles.
import type { Order } from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import {
  type Api,
  anOrder,
  aPricedClient,
  aRepresentative,
  type PricedProduct,
  placeOrder,
  postOrder,
  signedIn,
} from '../../../test/support/builders.ts';
import { cancelledInErp, deletedInErp, invoicedInErp, provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { provision } from '../provisioning/provision.ts';

const db = useTestDatabase();

/** Per client with open orders or a total row: the kept total and the orders' sum, as text. */
async function totalsAgainstSums(): Promise<{ kept: string; summed: string }[]> {
  const { rows } = await db.pool.query<{ kept: string; summed: string }>(
    `select coalesce(t.valor, 0)::numeric(14, 2)::text as kept, coalesce(s.valor, 0)::numeric(14, 2)::text as summed
       from app.pedidos_abertos_totais t
       full join (select id_empresa, id_cliente, sum(valor_total) as valor
                    from app.pedidos where situa in (1, 2) group by id_empresa, id_cliente) s
              on s.id_empresa = t.id_empresa and s.id_cliente = t.id_cliente
      order by coalesce(t.id_empresa, s.id_empresa), coalesce(t.id_cliente, s.id_cliente)`,
  );
  return rows;
}

async function expectInStep(): Promise<void> {
  const rows = await totalsAgainstSums();
  expect(rows.length).toBeGreaterThan(0);
  for (const r of rows) expect(r.kept).toBe(r.summed);
}

describe("a client's open orders, kept as one total", () => {
  let s: { idEmpresa: number; codVendedor: number; idCliente: number; product: PricedProduct };
  const as = {} as Record<'rep' | 'sup', Api>;

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const app = testApp(db.pool);
    const rep = await aRepresentative(db.pool, erp, { ceiling: 10 });
    const client = await aPricedClient(db.pool, rep, { products: 1 });
    s = {
      idEmpresa: rep.idEmpresa,
      codVendedor: rep.codVendedor,
      idCliente: client.idCliente,
      product: client.products[0] as PricedProduct,
    };
    const { idEmpresa, codVendedor, codSupervisor } = rep;
    as.rep = await signedIn(app, db.pool, { login: 'rep@totais.test', role: 'representative', idEmpresa, codVendedor });
    as.sup = await signedIn(app, db.pool, { login: 'sup@totais.test', role: 'supervisor', idEmpresa, codSupervisor });
  });

  const order = (quantidade: number) => ({
    idCliente: s.idCliente,
    itens: [{ idProduto: s.product.id, quantidade, descontoPercent: 0 }],
  });
  const openOf = async () =>
    (await db.pool.query<{ v: string }>('select app.pedidos_em_aberto($1, $2)::text as v', [s.idEmpresa, s.idCliente]))
      .rows[0]?.v;
  const erpIdOf = async (id: number) =>
    (await db.pool.query<{ e: number }>('select erp_id_pedido as e from app.pedidos where id = $1', [id])).rows[0]
      ?.e as number;

  it('moves with every order placed, decided, ended by the ERP or deleted', async () => {
    expect(await openOf()).toBe('0.00');
    const placed: Order[] = [];
    for (const q of [1, 2, 3, 4, 5]) placed.push(await placeOrder(as.rep, order(q)));
    await expectInStep();
    const [a, b, c, d] = placed as [Order, Order, Order, Order, Order];
    // Approved: still open (moves nothing). Rejected: leaves.
    expect((await as.sup('POST', `/orders/${a.id}/approve`, {})).status).toBe(200);
    expect((await as.sup('POST', `/orders/${b.id}/approve`, {})).status).toBe(200);
    expect((await as.sup('POST', `/orders/${c.id}/approve`, {})).status).toBe(200);
    expect((await as.sup('POST', `/orders/${d.id}/reject`, { motivo: 'Sem estoque' })).status).toBe(200);
    await expectInStep();
    // The ERP invoices one, cancels one and deletes one.
    await invoicedInErp(db.pool, await erpIdOf(a.id));
    await cancelledInErp(db.pool, await erpIdOf(b.id));
    await deletedInErp(db.pool, await erpIdOf(c.id));
    await expectInStep();
    // Rows written by hand, and a statement that moves many at once.
    await anOrder(db.pool, s, { situa: 1, client: { idCliente: s.idCliente, razaoSocial: 'x' } });
    await anOrder(db.pool, s, { situa: 2, client: { idCliente: s.idCliente, razaoSocial: 'x' } });
    await anOrder(db.pool, s, { situa: 3, client: { idCliente: s.idCliente, razaoSocial: 'x' } });
    await expectInStep();
    await db.pool.query(
      `update app.pedidos set valor_total = valor_total + 1.01 where id_empresa = $1 and id_cliente = $2`,
      [s.idEmpresa, s.idCliente],
    );
    await expectInStep();
    const gone = await anOrder(db.pool, s, { situa: 1, client: { idCliente: s.idCliente, razaoSocial: 'x' } });
    await expectInStep();
    await db.pool.query('delete from app.pedidos where id = $1', [gone.id]);
    await expectInStep();
    const summed = (await totalsAgainstSums()).map((r) => r.summed);
    expect(summed).toContain(await openOf());
  });

  it('stays exact under 16 orders for one client at once', async () => {
    const before = Number(await openOf());
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => postOrder(as.rep, order(1 + (i % 4)))));
    expect(results.map((r) => r.status)).toEqual(Array(16).fill(201));
    await expectInStep();
    expect(Number(await openOf())).toBeGreaterThan(before);
  });

  it('is summed again from the orders when provisioning puts the trigger back', async () => {
    await db.pool.query('drop trigger trg_pedidos_abertos on app.pedidos');
    await placeOrder(as.rep, order(7));
    await db.pool.query('update app.pedidos_abertos_totais set valor = valor + 1000');
    expect((await totalsAgainstSums()).some((r) => r.kept !== r.summed)).toBe(true);
    const report = await provision(db.pool);
    expect(report.upToDate).toBe(false);
    await expectInStep();
    expect((await provision(db.pool)).upToDate).toBe(true);
  });
});
