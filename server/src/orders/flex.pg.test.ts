// Flex in the order service (issue #40, docs/credit-and-flex.md): a line sold above the list
// earns at approval, a discount beyond the ceiling spends the representative's balance at
// acceptance (within the manager's maximum, while the balance covers it), a rejection gives it
// back, over REST and over a push, in arrival order whatever the concurrency; flex off changes
// nothing.
import { randomUUID } from 'node:crypto';
import { lineFlex, type Order, type RefusalReason, round2, type SyncOrder } from '@campo/shared';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import {
  type Api,
  aPricedClient,
  aRepresentative,
  type PricedProduct,
  postOrder,
  signedIn,
} from '../../../test/support/builders.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';

const db = useTestDatabase();

const CEILING = 7;
const RULES = { creditSharePercent: 50, maxBeyondCeilingPoints: 5 };
type FlexReason = RefusalReason & { flex: NonNullable<RefusalReason['flex']> };

describe('flex in the order service', () => {
  let s: { idEmpresa: number; codVendedor: number; idCliente: number; product: PricedProduct; other: PricedProduct };
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
      product: client.products[0] as PricedProduct,
      other: client.products[1] as PricedProduct,
    };
    const { idEmpresa, codVendedor, codSupervisor } = rep;
    as.rep = await signedIn(app, db.pool, { login: 'rep@flex-o.test', role: 'representative', idEmpresa, codVendedor });
    as.sup = await signedIn(app, db.pool, { login: 'sup@flex-o.test', role: 'supervisor', idEmpresa, codSupervisor });
    as.manager = await signedIn(app, db.pool, { login: 'ger@flex-o.test', role: 'manager', idEmpresa });
  });

  const flexOn = () =>
    db.pool.query(
      `insert into app.config_empresa (id_empresa, flex_percentual_credito, flex_maximo_pontos) values ($1, $2, $3)
       on conflict (id_empresa) do update set flex_percentual_credito = excluded.flex_percentual_credito,
                                              flex_maximo_pontos = excluded.flex_maximo_pontos`,
      [s.idEmpresa, RULES.creditSharePercent, RULES.maxBeyondCeilingPoints],
    );
  beforeEach(flexOn);

  const draft = (descontoPercent: number, quantidade = 2) => ({
    idCliente: s.idCliente,
    itens: [{ idProduto: s.product.id, quantidade, descontoPercent }],
  });
  const flexOf = (descontoPercent: number, quantidade = 2, rules = RULES) =>
    lineFlex(
      { listPrice: s.product.price, quantity: quantidade, discountPercent: descontoPercent, ceilingPercent: CEILING },
      rules,
    );

  async function balance(): Promise<number> {
    const { rows } = await db.pool.query<{ saldo: number; soma: number }>(
      `select coalesce((select saldo from app.flex_saldos where id_empresa = $1 and cod_vendedor = $2), 0)::float8 as saldo,
              coalesce((select sum(valor) from app.flex_lancamentos where id_empresa = $1 and cod_vendedor = $2), 0)::float8 as soma`,
      [s.idEmpresa, s.codVendedor],
    );
    const row = rows[0] as { saldo: number; soma: number };
    // The balance is always the ledger's sum.
    expect(row.saldo).toBe(row.soma);
    return row.saldo;
  }

  /** Leaves the balance at `saldo`, by a manager's adjustment. */
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
      await db.pool.query<{ tipo: string; valor: number }>(
        'select tipo, valor::float8 as valor from app.flex_lancamentos where id_pedido = $1 order by id',
        [idPedido],
      )
    ).rows;

  async function created(res: Response): Promise<Order> {
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as Order;
  }
  async function refusal(res: Response): Promise<RefusalReason[]> {
    expect(res.status, await res.clone().text()).toBe(422);
    return ((await res.json()) as { reasons: RefusalReason[] }).reasons;
  }

  it('a line above the list earns its share at approval, not before', async () => {
    const earned = flexOf(-10).earned;
    expect(earned).toBeGreaterThan(0);
    const before = await balance();
    const order = await created(await postOrder(as.rep, draft(-10)));
    expect(order.itens[0]).toMatchObject({ descontoPercent: -10, flexGerado: earned, flexUsado: 0 });
    expect(order.itens[0]?.precoUnitario).toBeGreaterThan(s.product.price);
    expect(order.valorDesconto).toBeLessThan(0);
    // Accepted: nothing yet, and an order within its ceilings reserves nothing.
    expect(await balance()).toBe(before);
    expect(await moves(order.id)).toEqual([]);
    const read = (await (await as.rep('GET', `/orders/${order.id}`)).json()) as Order;
    expect(read.itens[0]).toMatchObject({ flexGerado: earned, flexUsado: 0 });
    expect((await as.sup('POST', `/orders/${order.id}/approve`)).status).toBe(200);
    expect(await balance()).toBe(round2(before + earned));
    expect(await moves(order.id)).toEqual([{ tipo: 'credito', valor: earned }]);
    // The ERP received the price above the list, with its negative discount.
    const erp = await db.pool.query<{ perc_desconto: number }>(
      `select i.perc_desconto::float8 as perc_desconto from app.vw_pedidos_erp_itens i
        join app.pedidos p on p.erp_id_pedido = i.id_pedido where p.id = $1`,
      [order.id],
    );
    expect(erp.rows).toEqual([{ perc_desconto: -10 }]);
  });

  it('9 % on a 7 % ceiling passes with enough balance, which falls at acceptance', async () => {
    await setBalance(1000);
    const spent = flexOf(9).spent;
    expect(spent).toBeGreaterThan(0);
    const order = await created(await postOrder(as.rep, draft(9)));
    expect(order.itens[0]).toMatchObject({ descontoPercent: 9, tetoPercent: CEILING, flexUsado: spent, flexGerado: 0 });
    expect(await balance()).toBe(round2(1000 - spent));
    expect(await moves(order.id)).toEqual([{ tipo: 'reserva', valor: -spent }]);
    // Approval earns nothing for it: what it spent stays spent.
    expect((await as.sup('POST', `/orders/${order.id}/approve`)).status).toBe(200);
    expect(await balance()).toBe(round2(1000 - spent));
  });

  it('beyond the ceiling plus the maximum is refused, and nothing moves', async () => {
    await setBalance(1000);
    const reasons = await refusal(await postOrder(as.rep, draft(12.01)));
    expect(reasons).toEqual([
      expect.objectContaining({
        code: 'DISCOUNT_ABOVE_CEILING',
        line: 1,
        descontoPercent: 12.01,
        tetoPercent: CEILING,
      }),
    ]);
    expect(reasons[0]?.message).toContain('5 pontos');
    expect(await balance()).toBe(1000);
    // Exactly at the maximum passes.
    await created(await postOrder(as.rep, draft(12)));
  });

  it('a balance that does not cover it: FLEX_BALANCE_INSUFFICIENT per line, with the balance now', async () => {
    const spent = flexOf(9).spent;
    const low = round2(spent - 0.01);
    await setBalance(low);
    const res = await postOrder(as.rep, {
      idCliente: s.idCliente,
      itens: [
        { idProduto: s.other.id, quantidade: 2, descontoPercent: 5 },
        { idProduto: s.product.id, quantidade: 2, descontoPercent: 9 },
      ],
    });
    const reasons = (await refusal(res)) as FlexReason[];
    expect(reasons).toEqual([
      expect.objectContaining({
        code: 'FLEX_BALANCE_INSUFFICIENT',
        line: 2,
        descontoPercent: 9,
        flex: { saldo: low, necessario: spent, linha: spent },
      }),
    ]);
    expect(reasons[0]?.message).toMatch(/saldo agora é R\$/);
    expect(await balance()).toBe(low);
  });

  it('a rejection gives back what the order reserved', async () => {
    await setBalance(500);
    const spent = flexOf(10).spent;
    const order = await created(await postOrder(as.rep, draft(10)));
    expect(await balance()).toBe(round2(500 - spent));
    const res = await as.sup('POST', `/orders/${order.id}/reject`, { motivo: 'Desconto alto demais' });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await balance()).toBe(500);
    expect(await moves(order.id)).toEqual([
      { tipo: 'reserva', valor: -spent },
      { tipo: 'liberacao', valor: spent },
    ]);
  });

  it('over a push the refusal is per document, and the corrected resend is created once', async () => {
    await setBalance(0);
    const doc: SyncOrder = {
      id: randomUUID(),
      status: 'queued',
      draft: draft(9),
      order: null,
      reasons: [],
      queuedAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
      _deleted: false,
    };
    const pushAll = async (rows: { assumedMasterState: SyncOrder | null; newDocumentState: SyncOrder }[]) => {
      const res = await as.rep('POST', '/sync/pedidos/push', rows);
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as SyncOrder[];
    };
    const push = async (assumedMasterState: SyncOrder | null, newDocumentState: SyncOrder) =>
      (await pushAll([{ assumedMasterState, newDocumentState }]))[0];
    // Pushed with an order within its ceiling: only the one that spends is refused.
    const within = { ...doc, id: randomUUID(), draft: draft(5) };
    const answers = await pushAll([
      { assumedMasterState: null, newDocumentState: doc },
      { assumedMasterState: null, newDocumentState: within },
    ]);
    expect(answers.find((a) => a.id === within.id)?.status).toBe('pending_approval');
    const refused = answers.find((a) => a.id === doc.id);
    expect(refused).toMatchObject({ id: doc.id, status: 'refused', order: null });
    expect(refused?.reasons).toEqual([
      expect.objectContaining({
        code: 'FLEX_BALANCE_INSUFFICIENT',
        line: 1,
        flex: expect.objectContaining({ saldo: 0 }),
      }),
    ]);
    // The rep lowers the discount to the ceiling and resends, twice (a lost answer).
    const fixed = { ...doc, draft: draft(CEILING) };
    const accepted = await push(refused as SyncOrder, fixed);
    expect(accepted?.status).toBe('pending_approval');
    const again = await push(refused as SyncOrder, fixed);
    expect(again?.order?.id).toBe(accepted?.order?.id);
    const count = await db.pool.query('select 1 from app.chaves_idempotencia where chave = $1', [doc.id]);
    expect(count.rowCount).toBe(1);
    expect(await balance()).toBe(0);
  });

  it('twenty orders at once that together spend more than the balance: those that fit pass, in arrival order', async () => {
    // Quantities 1..20, shuffled: each at 9 % spends in proportion to its quantity.
    const quantities = Array.from({ length: 20 }, (_, i) => i + 1).sort(() => Math.random() - 0.5);
    const start = round2(flexOf(9, 1).spent * 60);
    await setBalance(start);
    const answers = await Promise.all(quantities.map((q) => postOrder(as.rep, draft(9, q))));
    const accepted: Order[] = [];
    const refused: { spent: number; reason: FlexReason }[] = [];
    for (const [i, res] of answers.entries()) {
      if (res.status === 201) accepted.push((await res.json()) as Order);
      else {
        const reason = (await refusal(res))[0] as FlexReason;
        expect(reason.code).toBe('FLEX_BALANCE_INSUFFICIENT');
        refused.push({ spent: flexOf(9, quantities[i] as number).spent, reason });
      }
    }
    expect(accepted.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    const spentOf = (o: Order) => o.itens[0]?.flexUsado as number;
    const total = round2(accepted.reduce((t, o) => t + spentOf(o), 0));
    expect(total).toBeLessThanOrEqual(start);
    const end = await balance();
    expect(end).toBe(round2(start - total));
    expect(end).toBeGreaterThanOrEqual(0);
    // In the order they reserved (the ledger's ids, written under the balance's lock), each saw
    // what the ones before it left; each refused order saw one of those figures and did not fit.
    const { rows } = await db.pool.query<{ id_pedido: number }>(
      `select id_pedido from app.flex_lancamentos where tipo = 'reserva' and id_pedido = any($1::bigint[]) order by id`,
      [accepted.map((o) => o.id)],
    );
    const byId = new Map(accepted.map((o) => [o.id, o]));
    const seen = [start];
    for (const r of rows) seen.push(round2((seen.at(-1) as number) - spentOf(byId.get(Number(r.id_pedido)) as Order)));
    for (const r of refused) {
      expect(seen).toContain(r.reason.flex.saldo);
      expect(r.spent).toBeGreaterThan(r.reason.flex.saldo);
    }
  });

  it('flex off (the defaults) changes nothing of how orders were judged', async () => {
    await db.pool.query('delete from app.config_empresa where id_empresa = $1', [s.idEmpresa]);
    await setBalance(1000);
    const reasons = await refusal(await postOrder(as.rep, draft(7.01)));
    expect(reasons).toEqual([
      expect.objectContaining({ code: 'DISCOUNT_ABOVE_CEILING', descontoPercent: 7.01, tetoPercent: CEILING }),
    ]);
    expect(reasons[0]?.message).not.toContain('flex');
    const order = await created(await postOrder(as.rep, draft(-10)));
    expect(order.itens[0]).toMatchObject({ flexGerado: 0, flexUsado: 0 });
    expect((await as.sup('POST', `/orders/${order.id}/approve`)).status).toBe(200);
    expect(await balance()).toBe(1000);
    expect(await moves(order.id)).toEqual([]);
  });
});
