// Every end an approved order reaches in the ERP releases what the order held (issue #50,
// docs/orders.md "Status", docs/credit-and-flex.md "When the ERP ends an order"): invoiced, it
// leaves the client's open orders and keeps its flex; cancelled or deleted in the ERP, it
// becomes cancelled, leaves the open orders, gives back its flex reservation and takes back
// what its approval credited (never below zero), and the phone's documents (the order, the
// client, the flex balance) follow in the same transaction. Runs on both ERP profiles.
import {
  type ClientDetail,
  lineFlex,
  type Order,
  type OrderDetail,
  type OrderSummary,
  round2,
  type SyncClient,
  type SyncOrder,
} from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import {
  type Api,
  aPricedClient,
  aRepresentative,
  type PricedProduct,
  postOrder,
  signedIn,
} from '../../../test/support/builders.ts';
import { cancelledInErp, deletedInErp, invoicedInErp, provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { createDb } from '../db/kysely.ts';
import { refreshCollection } from '../sync/service.ts';

const db = useTestDatabase();

const CEILING = 7;
const RULES = { creditSharePercent: 50, maxBeyondCeilingPoints: 5 };

describe('an approved order the ERP brings to an end', () => {
  let s: { idEmpresa: number; codVendedor: number; idCliente: number; above: PricedProduct; beyond: PricedProduct };
  const as = {} as Record<'rep' | 'sup' | 'manager', Api>;

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const app = testApp(db.pool);
    const rep = await aRepresentative(db.pool, erp, { ceiling: CEILING });
    const client = await aPricedClient(db.pool, rep, { products: 2 });
    s = {
      idEmpresa: rep.idEmpresa,
      codVendedor: rep.codVendedor,
      idCliente: client.idCliente,
      above: client.products[0] as PricedProduct,
      beyond: client.products[1] as PricedProduct,
    };
    const { idEmpresa, codVendedor, codSupervisor } = rep;
    as.rep = await signedIn(app, db.pool, { login: 'rep@fim.test', role: 'representative', idEmpresa, codVendedor });
    as.sup = await signedIn(app, db.pool, { login: 'sup@fim.test', role: 'supervisor', idEmpresa, codSupervisor });
    as.manager = await signedIn(app, db.pool, { login: 'ger@fim.test', role: 'manager', idEmpresa });
    await db.pool.query(
      `insert into app.config_empresa (id_empresa, flex_percentual_credito, flex_maximo_pontos, politica_credito)
       values ($1, $2, $3, 'flag')
       on conflict (id_empresa) do update set flex_percentual_credito = excluded.flex_percentual_credito,
                                              flex_maximo_pontos = excluded.flex_maximo_pontos`,
      [idEmpresa, RULES.creditSharePercent, RULES.maxBeyondCeilingPoints],
    );
    // A limit, so that the client's document and GET /clients/{id} carry the credit's figures.
    await db.pool.query(
      `insert into app.limites_credito (id_empresa, id_cliente, limite) values ($1, $2, 9999999)
       on conflict (id_empresa, id_cliente) do update set limite = excluded.limite`,
      [idEmpresa, client.idCliente],
    );
    // Every collection built once, so that the moves below write the logged documents.
    expect((await as.manager('POST', '/catalog/sync', {})).status).toBe(200);
  });

  /** One line sold 10 % above the list (earns at approval), one at 9 % on a 7 % ceiling (spends). */
  const draft = () => ({
    idCliente: s.idCliente,
    itens: [
      { idProduto: s.above.id, quantidade: 2, descontoPercent: -10 },
      { idProduto: s.beyond.id, quantidade: 2, descontoPercent: 9 },
    ],
  });
  const earned = () =>
    lineFlex({ listPrice: s.above.price, quantity: 2, discountPercent: -10, ceilingPercent: CEILING }, RULES).earned;
  const spent = () =>
    lineFlex({ listPrice: s.beyond.price, quantity: 2, discountPercent: 9, ceilingPercent: CEILING }, RULES).spent;

  async function balance(): Promise<number> {
    const { rows } = await db.pool.query<{ saldo: number; soma: number }>(
      `select coalesce((select saldo from app.flex_saldos where id_empresa = $1 and cod_vendedor = $2), 0)::float8 as saldo,
              coalesce((select sum(valor) from app.flex_lancamentos where id_empresa = $1 and cod_vendedor = $2), 0)::float8 as soma`,
      [s.idEmpresa, s.codVendedor],
    );
    const row = rows[0] as { saldo: number; soma: number };
    expect(row.saldo).toBe(row.soma);
    return row.saldo;
  }
  async function setBalance(saldo: number): Promise<void> {
    const diff = round2(saldo - (await balance()));
    if (diff === 0) return;
    const res = await as.manager('POST', `/flex/balances/${s.codVendedor}/adjustments`, {
      valor: diff,
      motivo: 'Preparação do teste',
    });
    expect(res.status, await res.clone().text()).toBe(201);
  }
  const moves = async (idPedido: number) =>
    (
      await db.pool.query<{ tipo: string; valor: number; motivo: string | null; criado_por: string }>(
        'select tipo, valor::float8 as valor, motivo, criado_por from app.flex_lancamentos where id_pedido = $1 order by id',
        [idPedido],
      )
    ).rows;
  /** The client's open Campo orders as the database sums them. */
  const openOrders = async () =>
    Number(
      (await db.pool.query<{ o: string }>('select app.pedidos_em_aberto($1, $2) as o', [s.idEmpresa, s.idCliente]))
        .rows[0]?.o,
    );
  async function logged<T>(colecao: string, chave: string): Promise<T> {
    const { rows } = await db.pool.query<{ dados: string }>(
      'select dados from app.sync_alteracoes where id_empresa = $1 and colecao = $2 and chave = $3',
      [s.idEmpresa, colecao, chave],
    );
    return JSON.parse(rows[0]?.dados as string) as T;
  }
  const clientDoc = () => logged<SyncClient>('clientes', `${s.idCliente}@${s.codVendedor}`);
  const orderDoc = (id: number) => logged<SyncOrder>('pedidos', String(id));
  const flexDoc = () =>
    logged<{ flex: { saldo: number; lancamentos: { tipo: string; valor: number; motivo: string | null }[] } }>(
      'ajustes',
      `flex@${s.codVendedor}`,
    );

  /** An order placed and approved, with the balance before it. */
  async function approved(lines = draft()): Promise<{ order: Order; before: number; open: number }> {
    await setBalance(1000);
    const before = await balance();
    const open = await openOrders();
    const res = await postOrder(as.rep, lines);
    expect(res.status, await res.clone().text()).toBe(201);
    const placed = (await res.json()) as Order;
    const decided = await as.sup('POST', `/orders/${placed.id}/approve`);
    expect(decided.status, await decided.clone().text()).toBe(200);
    const order = (await decided.json()) as Order;
    const moved = lines.itens.length === 2 ? round2(earned() - spent()) : earned();
    expect(await balance()).toBe(round2(before + moved));
    expect(await openOrders()).toBe(round2(open + order.valorTotal));
    return { order, before, open };
  }

  async function read(id: number): Promise<OrderDetail> {
    const res = await as.rep('GET', `/orders/${id}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as OrderDetail;
  }

  it('cancelled in the ERP: cancelled in Campo, out of the open orders, its flex given back, on the phone too', async () => {
    expect(spent()).toBeGreaterThan(0);
    expect(earned()).toBeGreaterThan(0);
    const { order, before, open } = await approved();
    await cancelledInErp(db.pool, order.erpIdPedido as number);

    const detail = await read(order.id);
    expect(detail.status).toBe('cancelled');
    expect(detail.historico.at(-1)).toMatchObject({
      de: 'approved',
      para: 'cancelled',
      usuario: 'erp',
      motivo: 'cancelado no ERP',
    });
    // The credit: it left the client's open orders, in the database, the API and the phone's document.
    expect(await openOrders()).toBe(open);
    const client = (await (await as.rep('GET', `/clients/${s.idCliente}`)).json()) as ClientDetail;
    expect(client.credit?.openOrders).toBe(open);
    expect((await clientDoc()).openOrders).toBe(open);
    // The flex: the reservation released, what the approval credited taken back.
    expect(await moves(order.id)).toEqual([
      { tipo: 'reserva', valor: -spent(), motivo: null, criado_por: 'rep@fim.test' },
      { tipo: 'credito', valor: earned(), motivo: null, criado_por: 'sup@fim.test' },
      { tipo: 'liberacao', valor: spent(), motivo: 'cancelado no ERP', criado_por: 'erp' },
      { tipo: 'estorno', valor: -earned(), motivo: 'cancelado no ERP', criado_por: 'erp' },
    ]);
    expect(await balance()).toBe(before);
    const flex = await flexDoc();
    expect(flex.flex.saldo).toBe(before);
    expect(flex.flex.lancamentos.slice(0, 2)).toMatchObject([
      { tipo: 'estorno', valor: -earned() },
      { tipo: 'liberacao', valor: spent() },
    ]);
    // The order's document on the phone.
    expect((await orderDoc(order.id)).status).toBe('cancelled');
    // The lists: the approver's filter and the client's orders.
    const list = (await (await as.sup('GET', '/orders?status=cancelled')).json()) as { items: OrderSummary[] };
    expect(list.items.map((o) => o.id)).toContain(order.id);
    const ofClient = (await (await as.rep('GET', `/clients/${s.idCliente}/orders`)).json()) as {
      items: { id: number | null; status: string }[];
    };
    expect(ofClient.items.find((o) => o.id === order.id)?.status).toBe('cancelled');

    // A second look moves nothing again.
    await read(order.id);
    expect(await moves(order.id)).toHaveLength(4);
    expect(await balance()).toBe(before);
  });

  it('deleted from the ERP: cancelled too, found by the scheduled refresh when nobody reads orders', async () => {
    const { order, before, open } = await approved();
    await deletedInErp(db.pool, order.erpIdPedido as number);
    await refreshCollection(createDb(db.pool), s.idEmpresa, 'pedidos');

    expect((await orderDoc(order.id)).status).toBe('cancelled');
    expect(await openOrders()).toBe(open);
    expect((await clientDoc()).openOrders).toBe(open);
    expect(await balance()).toBe(before);
    expect((await moves(order.id)).slice(2)).toMatchObject([
      { tipo: 'liberacao', valor: spent(), motivo: 'excluído no ERP' },
      { tipo: 'estorno', valor: -earned(), motivo: 'excluído no ERP' },
    ]);
    const detail = await read(order.id);
    expect(detail.status).toBe('cancelled');
    expect(detail.historico.at(-1)).toMatchObject({ para: 'cancelled', usuario: 'erp', motivo: 'excluído no ERP' });
  });

  it('invoiced in the ERP: out of the open orders, its flex kept', async () => {
    const { order, before, open } = await approved();
    await invoicedInErp(db.pool, order.erpIdPedido as number);
    expect((await read(order.id)).status).toBe('invoiced');
    expect(await openOrders()).toBe(open);
    expect((await clientDoc()).openOrders).toBe(open);
    expect(await balance()).toBe(round2(before - spent() + earned()));
    expect((await moves(order.id)).map((m) => m.tipo)).toEqual(['reserva', 'credito']);
    // Once invoiced, the order is at its end: what the ERP does to it later is the invoices'.
    await cancelledInErp(db.pool, order.erpIdPedido as number);
    expect((await read(order.id)).status).toBe('invoiced');
  });

  it('what the approval credited is taken back only as far as the balance holds: never below zero', async () => {
    // An order that only earns.
    const { order } = await approved({
      idCliente: s.idCliente,
      itens: [draft().itens[0] as ReturnType<typeof draft>['itens'][number]],
    });
    // The representative spent the balance down to less than what the order earned.
    const left = round2(earned() / 2);
    await setBalance(left);
    await cancelledInErp(db.pool, order.erpIdPedido as number);
    expect((await read(order.id)).status).toBe('cancelled');
    expect((await moves(order.id)).slice(1)).toMatchObject([{ tipo: 'estorno', valor: -left }]);
    expect(await balance()).toBe(0);
  });
});
