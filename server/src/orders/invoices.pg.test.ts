// GET /orders/{id} with what the ERP invoiced of the order: invoices written straight into
// the ERP's tables by this test (as the ERP would), read back through the API as the
// non-owner role, for the owner, another representative and the supervisors; and on an ERP
// without invoice lines (optional in the contract), where the invoices show without them.
import { randomUUID } from 'node:crypto';
import type { Order, OrderDetail, SyncOrder, SyncPull } from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import {
  type Api,
  aPricedClient,
  aRepresentative,
  type PricedProduct,
  signedIn,
} from '../../../test/support/builders.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { createDb } from '../db/kysely.ts';
import { refreshCollection } from '../sync/service.ts';

/** The people and the client of these tests, on a reference ERP provisioned without `without`. */
function useInvoiceScenario(without: string[] = []) {
  const db = useTestDatabase();
  const as = {} as Record<'rep' | 'otherRep' | 'sup' | 'otherSup' | 'manager', Api>;
  const s = { db, as, products: [] as PricedProduct[], idCliente: 0, idEmpresa: 0 };

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool, { without });
    const app = testApp(db.pool);
    const rep = await aRepresentative(db.pool, erp, { ceiling: 10 });
    const other = await aRepresentative(db.pool, erp, { besides: rep });
    ({ idCliente: s.idCliente, products: s.products } = await aPricedClient(db.pool, rep, { products: 3 }));
    const { idEmpresa, codVendedor, codSupervisor } = rep;
    s.idEmpresa = idEmpresa;
    const otherTeam = erp.supervisors.find((x) => x.idEmpresa === idEmpresa && x.codSupervisor !== codSupervisor);
    as.rep = await signedIn(app, db.pool, { login: 'rep@nf.test', role: 'representative', idEmpresa, codVendedor });
    as.otherRep = await signedIn(app, db.pool, {
      login: 'outro@nf.test',
      role: 'representative',
      idEmpresa,
      codVendedor: other.codVendedor,
    });
    as.sup = await signedIn(app, db.pool, { login: 'sup@nf.test', role: 'supervisor', idEmpresa, codSupervisor });
    as.otherSup = await signedIn(app, db.pool, {
      login: 'sup2@nf.test',
      role: 'supervisor',
      idEmpresa,
      codSupervisor: otherTeam?.codSupervisor as number,
    });
    as.manager = await signedIn(app, db.pool, { login: 'ger@nf.test', role: 'manager', idEmpresa });
  });

  let nextNumber = 900_000;
  /** An order of three lines (10, 4 and 6 units), approved: it is in the ERP. */
  async function approvedOrder(): Promise<Order> {
    const itens = [10, 4, 6].map((quantidade, i) => ({ idProduto: s.products[i]?.id as number, quantidade }));
    const res = await as.rep('POST', '/orders', { idCliente: s.idCliente, itens }, { 'idempotency-key': randomUUID() });
    expect(res.status, await res.clone().text()).toBe(201);
    const created = (await res.json()) as Order;
    const approved = await as.sup('POST', `/orders/${created.id}/approve`, {});
    expect(approved.status).toBe(200);
    return (await approved.json()) as Order;
  }

  /**
   * An invoice of the ERP order, as the ERP writes it, with lines [product index, quantity]
   * (none written on an ERP without invoice lines).
   */
  async function invoice(order: Order, lines: [number, number][], cancelled = false): Promise<number> {
    const numero = ++nextNumber;
    const { rows } = await db.pool.query<{ id_nota: number }>(
      `insert into public.notas_fiscais (id_empresa, num_nota, serie, id_pedido, id_corrent, cod_vendedor, dt_emissao,
                                         valor_total, cancelada)
       select id_empresa, $2, '1', id_pedido, id_corrent, cod_vendedor, date '2026-11-20', $3, $4
         from public.pedidos_venda where id_pedido = $1
       returning id_nota`,
      [order.erpIdPedido, numero, lines.length * 10, cancelled ? 'S' : 'N'],
    );
    const idNota = rows[0]?.id_nota as number;
    if (without.includes('notas_fiscais_itens')) return numero;
    for (const [seq, [product, quantidade]] of lines.entries()) {
      await db.pool.query(
        `insert into public.notas_fiscais_itens (id_nota, seq, id_produto, quantidade, valor_unitario, valor_total)
         values ($1, $2, $3, $4, 1, $4)`,
        [idNota, seq + 1, s.products[product]?.id, quantidade],
      );
    }
    return numero;
  }

  const read = async (who: Api, id: number) => {
    const res = await who('GET', `/orders/${id}`);
    return { status: res.status, body: res.status === 200 ? ((await res.json()) as OrderDetail) : null };
  };
  // s, not a copy: beforeAll fills its products and client after this returns.
  return Object.assign(s, { approvedOrder, invoice, read });
}

describe('the invoices of an order', () => {
  const scenario = useInvoiceScenario();
  const { as, approvedOrder, invoice, read } = scenario;

  it('shows no invoice, every quantity open, until the ERP invoices the order', async () => {
    const order = await approvedOrder();
    const { body } = await read(as.rep, order.id);
    expect(body?.invoices).toEqual([]);
    expect(body?.itens.map((l) => [l.quantidadeFaturada, l.quantidadeAberta])).toEqual([
      [0, 10],
      [0, 4],
      [0, 6],
    ]);
  });

  it('shows a partial invoicing: each invoice with its lines, what was invoiced and what is open per line', async () => {
    const order = await approvedOrder();
    const first = await invoice(order, [
      [0, 10],
      [1, 1.5],
    ]);
    const cancelled = await invoice(order, [[2, 6]], true);
    const second = await invoice(order, [[1, 2]]);
    const { body } = await read(as.rep, order.id);
    expect(body?.invoices.map((i) => [i.numero, i.cancelada, i.serie, i.emissao])).toEqual([
      [first, false, '1', '2026-11-20'],
      [cancelled, true, '1', '2026-11-20'],
      [second, false, '1', '2026-11-20'],
    ]);
    expect(body?.invoices[0]?.itens).toEqual([
      { idProduto: scenario.products[0]?.id, quantidade: 10, valor: 10 },
      { idProduto: scenario.products[1]?.id, quantidade: 1.5, valor: 1.5 },
    ]);
    // The cancelled invoice is shown but not counted: the third line is still all open.
    expect(body?.itens.map((l) => [l.quantidadeFaturada, l.quantidadeAberta])).toEqual([
      [10, 0],
      [3.5, 0.5],
      [0, 6],
    ]);
  });

  it('shows the order to its representative and the supervisors and manager in scope, to no one else', async () => {
    const order = await approvedOrder();
    const numero = await invoice(order, [[0, 1]]);
    for (const who of [as.rep, as.sup, as.manager]) {
      const { status, body } = await read(who, order.id);
      expect(status).toBe(200);
      expect(body?.invoices.map((i) => i.numero)).toEqual([numero]);
    }
    expect((await read(as.otherRep, order.id)).status).toBe(404);
    expect((await read(as.otherSup, order.id)).status).toBe(404);
  });
});

describe("the invoices of an order on the representative's phone (collection pedidos)", () => {
  const scenario = useInvoiceScenario();
  const { db, as, approvedOrder, invoice } = scenario;
  const checkpoints = new Map<Api, string>();

  /** The pedidos documents `who` pulls since their last pull (the first pull builds the collection). */
  async function pull(who: Api): Promise<SyncOrder[]> {
    const since = checkpoints.get(who);
    const res = await who(
      'GET',
      `/sync/pedidos/pull?limit=200${since ? `&checkpoint=${encodeURIComponent(since)}` : ''}`,
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const page = (await res.json()) as SyncPull;
    checkpoints.set(who, page.checkpoint);
    return page.documents as SyncOrder[];
  }
  const detail = (docs: SyncOrder[], id: number) => docs.find((d) => d.order?.id === id)?.order;

  it('a partial invoice the ERP adds reaches the document at the next refresh, for its representative only', async () => {
    const order = await approvedOrder();
    await pull(as.otherRep);
    const before = detail(await pull(as.rep), order.id);
    expect(before?.invoices).toEqual([]);
    expect(before?.itens.map((l) => [l.quantidadeFaturada, l.quantidadeAberta])).toEqual([
      [0, 10],
      [0, 4],
      [0, 6],
    ]);

    // The ERP invoices part of the order; its status stays what it was.
    const numero = await invoice(order, [
      [0, 10],
      [1, 1],
    ]);
    await refreshCollection(createDb(db.pool), scenario.idEmpresa, 'pedidos');
    const after = detail(await pull(as.rep), order.id);
    expect(after?.status).toBe(before?.status);
    expect(after?.invoices.map((i) => [i.numero, i.serie, i.emissao, i.valor, i.cancelada])).toEqual([
      [numero, '1', '2026-11-20', 20, false],
    ]);
    expect(after?.itens.map((l) => [l.quantidadeFaturada, l.quantidadeAberta])).toEqual([
      [10, 0],
      [1, 3],
      [0, 6],
    ]);
    // Pulled once: a refresh with nothing new in the ERP sends nothing again.
    await refreshCollection(createDb(db.pool), scenario.idEmpresa, 'pedidos');
    expect(detail(await pull(as.rep), order.id)).toBeUndefined();
    expect(detail(await pull(as.otherRep), order.id)).toBeUndefined();
  });
});

describe('the invoices of an order, on an ERP without invoice lines', () => {
  const { db, as, approvedOrder, invoice, read } = useInvoiceScenario(['notas_fiscais_itens']);

  it('provisions, shows the invoices without lines and leaves the quantities per line unknown', async () => {
    expect((await db.pool.query(`select to_regclass('public.notas_fiscais_itens') as t`)).rows[0]?.t).toBeNull();
    const order = await approvedOrder();
    const { body: before } = await read(as.rep, order.id);
    // Not invoiced at all is known from the invoices alone: nothing invoiced, all open.
    expect(before?.itens.map((l) => [l.quantidadeFaturada, l.quantidadeAberta])).toEqual([
      [0, 10],
      [0, 4],
      [0, 6],
    ]);
    const numero = await invoice(order, [[0, 10]]);
    const cancelled = await invoice(order, [[1, 4]], true);
    const { status, body } = await read(as.rep, order.id);
    expect(status).toBe(200);
    expect(body?.invoices.map((i) => [i.numero, i.cancelada, i.itens])).toEqual([
      [numero, false, []],
      [cancelled, true, []],
    ]);
    expect(body?.itens.map((l) => [l.quantidadeFaturada, l.quantidadeAberta])).toEqual([
      [null, null],
      [null, null],
      [null, null],
    ]);
  });
});
