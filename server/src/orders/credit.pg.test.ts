// The client's available credit, judged by the server when an order arrives (issue #40,
// docs/credit-and-flex.md): the figures it counts, each policy over REST and over a push, an
// offline order judged on today's figures, orders for one client competing for its credit in
// arrival order, and the client's document following its open orders.
import { randomUUID } from 'node:crypto';
import type { ClientDetail, Order, OrderSummary, Problem, RefusalReason, SyncClient, SyncOrder } from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import {
  type Api,
  anOrder,
  aPricedClient,
  aRepresentative,
  type PricedProduct,
  postOrder,
  signedIn,
} from '../../../test/support/builders.ts';
import { erpReceivable, invoicedInErp, provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';

const db = useTestDatabase();

type CreditReason = RefusalReason & { credit: NonNullable<RefusalReason['credit']> };

describe("the client's available credit", () => {
  let s: { idEmpresa: number; codVendedor: number; idCliente: number; razaoSocial: string; product: PricedProduct };
  const as = {} as Record<'rep' | 'sup' | 'manager', Api>;

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const app = testApp(db.pool);
    const rep = await aRepresentative(db.pool, erp, { ceiling: 10 });
    const client = await aPricedClient(db.pool, rep, { products: 1 });
    const name = await db.pool.query<{ razao_social: string }>(
      'select razao_social from app.vw_clientes where id_cliente = $1',
      [client.idCliente],
    );
    s = {
      idEmpresa: rep.idEmpresa,
      codVendedor: rep.codVendedor,
      idCliente: client.idCliente,
      razaoSocial: name.rows[0]?.razao_social as string,
      product: client.products[0] as PricedProduct,
    };
    const { idEmpresa, codVendedor, codSupervisor } = rep;
    as.rep = await signedIn(app, db.pool, {
      login: 'rep@credito.test',
      role: 'representative',
      idEmpresa,
      codVendedor,
    });
    as.sup = await signedIn(app, db.pool, { login: 'sup@credito.test', role: 'supervisor', idEmpresa, codSupervisor });
    as.manager = await signedIn(app, db.pool, { login: 'ger@credito.test', role: 'manager', idEmpresa });
  });

  const draft = (quantidade: number) => ({
    idCliente: s.idCliente,
    itens: [{ idProduto: s.product.id, quantidade }],
  });
  const totalOf = (quantidade: number) => Math.round(s.product.price * quantidade * 100) / 100;

  /** What the client owes now, as the database counts it (open titles, open Campo orders). */
  async function owed(): Promise<{ openReceivables: number; openOrders: number }> {
    const { rows } = await db.pool.query<{ r: string; o: string }>(
      `select coalesce(sum(t.valor_em_aberto), 0) as r,
              (select coalesce(sum(valor_total), 0) from app.pedidos
                where id_empresa = $1 and id_cliente = $2 and situa in (1, 2)) as o
         from app.vw_titulos_abertos t where t.id_empresa = $1 and t.id_cliente = $2`,
      [s.idEmpresa, s.idCliente],
    );
    return { openReceivables: Number(rows[0]?.r), openOrders: Number(rows[0]?.o) };
  }

  /** A limit that leaves `available` to the client now; the figures it was set against. */
  async function leaveAvailable(available: number) {
    const now = await owed();
    const limit = Math.round((now.openReceivables + now.openOrders + available) * 100) / 100;
    await db.pool.query(
      `insert into app.limites_credito (id_empresa, id_cliente, limite) values ($1, $2, $3)
       on conflict (id_empresa, id_cliente) do update set limite = excluded.limite`,
      [s.idEmpresa, s.idCliente, limit],
    );
    return { ...now, limit };
  }

  const policy = (politica: 'flag' | 'block' | 'ignore') =>
    db.pool.query(
      `insert into app.config_empresa (id_empresa, politica_credito) values ($1, $2)
       on conflict (id_empresa) do update set politica_credito = excluded.politica_credito`,
      [s.idEmpresa, politica],
    );

  const stored = async (id: number) =>
    (
      await db.pool.query(
        `select credito_limite::float8 as limite, credito_aberto::float8 as aberto,
                credito_disponivel::float8 as disponivel, credito_excedido as excedido
           from app.pedidos where id = $1`,
        [id],
      )
    ).rows[0];

  /** The order as the supervisor's approval queue lists it. */
  async function queued(id: number): Promise<OrderSummary | undefined> {
    const res = await as.sup('GET', '/orders?status=pending_approval&pageSize=100');
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { items: OrderSummary[] }).items.find((o) => o.id === id);
  }

  async function pushed(quantidade: number, queuedAt = new Date().toISOString()): Promise<SyncOrder> {
    const doc: SyncOrder = {
      id: randomUUID(),
      status: 'queued',
      draft: draft(quantidade),
      order: null,
      reasons: [],
      queuedAt,
      updatedAt: queuedAt,
      _deleted: false,
    };
    const res = await as.rep('POST', '/sync/pedidos/push', [{ assumedMasterState: null, newDocumentState: doc }]);
    expect(res.status, await res.clone().text()).toBe(200);
    const [master] = (await res.json()) as SyncOrder[];
    return master as SyncOrder;
  }

  it('counts the limit less the open receivables and the pending and approved orders, not the rejected or invoiced; null without a limit', async () => {
    await db.pool.query('delete from app.limites_credito where id_empresa = $1 and id_cliente = $2', [
      s.idEmpresa,
      s.idCliente,
    ]);
    const client = { idCliente: s.idCliente, razaoSocial: s.razaoSocial };
    const unlimited = (await (await as.rep('GET', `/clients/${s.idCliente}`)).json()) as ClientDetail;
    expect(unlimited.credit).toBeNull();

    const before = await owed();
    // One order of each status, worth 10 each (anOrder): only the pending and the approved count.
    for (const situa of [1, 2, 3] as const) await anOrder(db.pool, s, { situa, client });
    const rejected = await anOrder(db.pool, s, { client });
    await db.pool.query("update app.pedidos set situa = 4, motivo_rejeicao = 'Sem estoque' where id = $1", [
      rejected.id,
    ]);
    const set = await leaveAvailable(1000);
    expect(set.openOrders).toBe(before.openOrders + 20);
    const detail = (await (await as.rep('GET', `/clients/${s.idCliente}`)).json()) as ClientDetail;
    expect(detail.credit).toEqual({
      limit: set.limit,
      openReceivables: set.openReceivables,
      openOrders: set.openOrders,
      available: 1000,
    });
    expect(set.openReceivables).toBeGreaterThan(0);
    expect(detail.openAmount).toBe(set.openReceivables);
  });

  it('flag: an order beyond the available credit is accepted, marked with the figures it was judged by', async () => {
    await policy('flag');
    const set = await leaveAvailable(totalOf(2));
    const res = await postOrder(as.rep, draft(3));
    expect(res.status, await res.clone().text()).toBe(201);
    const order = (await res.json()) as Order;
    const open = Math.round((set.openReceivables + set.openOrders) * 100) / 100;
    expect(order.credit).toEqual({ limit: set.limit, open, available: totalOf(2), exceeded: true });
    expect(await stored(order.id)).toEqual({ limite: set.limit, aberto: open, disponivel: totalOf(2), excedido: true });
    // The approver reads it back as answered.
    expect(((await (await as.sup('GET', `/orders/${order.id}`)).json()) as Order).credit).toEqual(order.credit);
    // And in the approval queue, where the mark is shown.
    expect((await queued(order.id))?.credit).toEqual(order.credit);
    // Within the credit: the figures, no mark.
    await leaveAvailable(totalOf(5));
    const within = (await (await postOrder(as.rep, draft(1))).json()) as Order;
    expect(within.credit).toMatchObject({ available: totalOf(5), exceeded: false });
  });

  it('block: refused with CREDIT_LIMIT_EXCEEDED naming the limit, the open amounts, the order and what is available', async () => {
    await policy('block');
    const set = await leaveAvailable(totalOf(2));
    const before = await owed();
    const res = await postOrder(as.rep, draft(3));
    expect(res.status).toBe(422);
    const problem = (await res.json()) as Problem & { reasons: CreditReason[] };
    expect(problem.code).toBe('ORDER_REFUSED');
    expect(problem.reasons).toEqual([
      expect.objectContaining({
        code: 'CREDIT_LIMIT_EXCEEDED',
        credit: {
          limit: set.limit,
          openReceivables: set.openReceivables,
          openOrders: set.openOrders,
          orderTotal: totalOf(3),
          available: totalOf(2),
        },
      }),
    ]);
    expect(problem.reasons[0]?.message).toContain('crédito disponível');
    expect(await owed()).toEqual(before);
    // What fits passes.
    expect((await postOrder(as.rep, draft(2))).status).toBe(201);
  });

  it('ignore: accepted without a mark, the figures kept for the approver', async () => {
    await policy('ignore');
    await leaveAvailable(0);
    const order = (await (await postOrder(as.rep, draft(3))).json()) as Order;
    expect(order.credit).toMatchObject({ available: 0, exceeded: false });
    expect((await stored(order.id))?.excedido).toBe(false);
  });

  it('a client without a limit is never checked, whatever the policy', async () => {
    await policy('block');
    await db.pool.query('delete from app.limites_credito where id_empresa = $1 and id_cliente = $2', [
      s.idEmpresa,
      s.idCliente,
    ]);
    const res = await postOrder(as.rep, draft(500));
    expect(res.status, await res.clone().text()).toBe(201);
    const order = (await res.json()) as Order;
    expect(order.credit).toBeNull();
    expect(await stored(order.id)).toEqual({ limite: null, aberto: null, disponivel: null, excedido: false });
    expect((await queued(order.id))?.credit).toBeNull();
  });

  it('over a push: the same policies, a refusal the phone shows with its figures', async () => {
    await policy('block');
    await leaveAvailable(totalOf(2));
    const refused = await pushed(3);
    expect(refused).toMatchObject({ status: 'refused', order: null });
    expect(refused.reasons).toEqual([
      expect.objectContaining({
        code: 'CREDIT_LIMIT_EXCEEDED',
        credit: expect.objectContaining({ orderTotal: totalOf(3), available: totalOf(2) }),
      }),
    ]);
    await policy('flag');
    const flagged = await pushed(3);
    expect(flagged.status).toBe('pending_approval');
    expect(flagged.order?.credit).toMatchObject({ available: totalOf(2), exceeded: true });
    await policy('ignore');
    await leaveAvailable(totalOf(2));
    const ignored = await pushed(3);
    expect(ignored.status).toBe('pending_approval');
    expect(ignored.order?.credit).toMatchObject({ available: totalOf(2), exceeded: false });
  });

  it("judges an order queued offline yesterday on today's figures", async () => {
    await policy('block');
    // Yesterday the order fitted; since then the ERP issued a title the client has not paid.
    await leaveAvailable(totalOf(3));
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    await erpReceivable(db.pool, s.idCliente, {
      numDocumento: 'CRED-HOJE',
      valor: totalOf(2),
      issuedDaysAgo: 0,
      dueInDays: 30,
    });
    const refused = await pushed(2, yesterday);
    expect(refused.status).toBe('refused');
    expect(refused.reasons[0]).toMatchObject({ code: 'CREDIT_LIMIT_EXCEEDED', credit: { available: totalOf(1) } });
  });

  it('twenty orders at once under block: those that fit pass, in arrival order, never beyond the credit', async () => {
    await policy('block');
    // Quantities 1..20, shuffled: orders of different sizes, sent together.
    const quantities = Array.from({ length: 20 }, (_, i) => i + 1).sort(() => Math.random() - 0.5);
    const set = await leaveAvailable(totalOf(60));
    const available = totalOf(60);
    const answers = await Promise.all(quantities.map((q) => postOrder(as.rep, draft(q))));
    const accepted: Order[] = [];
    const refused: { total: number; reason: CreditReason }[] = [];
    for (const [i, res] of answers.entries()) {
      if (res.status === 201) accepted.push((await res.json()) as Order);
      else {
        expect(res.status).toBe(422);
        const reason = ((await res.json()) as { reasons: CreditReason[] }).reasons[0] as CreditReason;
        expect(reason.code).toBe('CREDIT_LIMIT_EXCEEDED');
        refused.push({ total: totalOf(quantities[i] as number), reason });
      }
    }
    expect(accepted.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    const sum = (orders: Order[]) => Math.round(orders.reduce((t, o) => t + o.valorTotal, 0) * 100) / 100;
    expect(sum(accepted)).toBeLessThanOrEqual(available);
    // In the order they took the client's lock (their numbers are drawn under it), each accepted
    // order saw exactly those accepted before it.
    accepted.sort((a, b) => a.numPedSar - b.numPedSar);
    const seen: number[] = [];
    for (const [k, order] of accepted.entries()) {
      const left = Math.round((available - sum(accepted.slice(0, k))) * 100) / 100;
      seen.push(left);
      expect(order.credit).toMatchObject({ limit: set.limit, available: left, exceeded: false });
      expect(order.valorTotal).toBeLessThanOrEqual(left);
    }
    seen.push(Math.round((available - sum(accepted)) * 100) / 100);
    // Each refused order was judged against what the orders before it left, and did not fit.
    for (const r of refused) {
      expect(seen).toContain(r.reason.credit.available);
      expect(r.total).toBeGreaterThan(r.reason.credit.available);
    }
  });

  describe("the client's document follows its open orders", () => {
    const key = () => [s.idEmpresa, `${s.idCliente}@${s.codVendedor}`];
    async function logged(): Promise<SyncClient> {
      const { rows } = await db.pool.query<{ dados: string }>(
        `select dados from app.sync_alteracoes where id_empresa = $1 and colecao = 'clientes' and chave = $2`,
        key(),
      );
      return JSON.parse(rows[0]?.dados as string) as SyncClient;
    }
    const openOrders = async () => (await owed()).openOrders;

    beforeAll(async () => {
      await policy('ignore');
      expect((await as.manager('POST', '/catalog/sync', {})).status).toBe(200);
    });

    const placed = async () => (await (await postOrder(as.rep, draft(1))).json()) as Order;

    it('a limit set by a manager', async () => {
      const res = await as.manager('PUT', `/clients/${s.idCliente}/credit-limit`, { creditLimit: 123456.78 });
      expect(res.status).toBe(200);
      expect((await logged()).creditLimit).toBe(123456.78);
    });

    it('an order created', async () => {
      const before = (await logged()).openOrders as number;
      const order = await placed();
      const after = await logged();
      expect(after.openOrders).toBe(Math.round((before + order.valorTotal) * 100) / 100);
      expect(after.openOrders).toBe(await openOrders());
      expect(after.openReceivables).toBe((await owed()).openReceivables);
    });

    it('an order approved: it stays among the open orders', async () => {
      const order = await placed();
      expect((await as.sup('POST', `/orders/${order.id}/approve`, {})).status).toBe(200);
      expect((await logged()).openOrders).toBe(await openOrders());
      expect((await owed()).openOrders).toBeGreaterThanOrEqual(order.valorTotal);
    });

    it('an order rejected: it leaves them', async () => {
      const order = await placed();
      const before = (await logged()).openOrders as number;
      expect((await as.sup('POST', `/orders/${order.id}/reject`, { motivo: 'Sem crédito' })).status).toBe(200);
      const after = (await logged()).openOrders;
      expect(after).toBe(Math.round((before - order.valorTotal) * 100) / 100);
      expect(after).toBe(await openOrders());
    });

    it('an order invoiced in the ERP: it leaves them', async () => {
      const order = await placed();
      const approved = (await (await as.sup('POST', `/orders/${order.id}/approve`, {})).json()) as Order;
      const before = (await logged()).openOrders as number;
      await invoicedInErp(db.pool, approved.erpIdPedido as number);
      // Any read of orders brings the ERP's invoicing in.
      expect(((await (await as.rep('GET', `/orders/${order.id}`)).json()) as Order).status).toBe('invoiced');
      const after = (await logged()).openOrders;
      expect(after).toBe(Math.round((before - order.valorTotal) * 100) / 100);
      expect(after).toBe(await openOrders());
    });
  });
});
