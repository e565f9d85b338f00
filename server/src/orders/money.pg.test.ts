// Money end to end (docs/money.md): random orders (prices of four decimals, quantities of
// three, discounts and acréscimos of two) placed through POST /orders and approved. What the
// server stored is what shared computes (lineAmounts, orderTotals, lineFlex), what SQL's
// round() gives for the same formula on numeric, and what the approval trigger wrote into
// the ERP; the client's open orders, summed by SQL, are shared's sum of the totals.
import { lineAmounts, lineFlex, type Order, orderTotals, sumMoney } from '@campo/shared';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { type Api, aPricedClient, aRepresentative, placeOrder, signedIn } from '../../../test/support/builders.ts';
import { erpOrderWritten, provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';

const db = useTestDatabase();
const SHARE = 37.5;

describe('money in an order, from the cart to the ERP', () => {
  const as = {} as Record<'rep' | 'sup', Api>;
  let s: { idEmpresa: number; idCliente: number; idPauta: number; products: number[] };

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const app = testApp(db.pool);
    // Every discount within the ceiling, so any random line is accepted; flex earns a share of
    // what is sold above the list.
    const rep = await aRepresentative(db.pool, erp, { ceiling: 100 });
    const client = await aPricedClient(db.pool, rep, { products: 8 });
    s = {
      idEmpresa: rep.idEmpresa,
      idCliente: client.idCliente,
      idPauta: client.idPauta,
      products: client.products.map((p) => p.id),
    };
    await db.pool.query(
      `insert into app.config_empresa (id_empresa, flex_percentual_credito, flex_maximo_pontos) values ($1, $2, 0)
       on conflict (id_empresa) do update set flex_percentual_credito = excluded.flex_percentual_credito,
                                              flex_maximo_pontos = 0`,
      [rep.idEmpresa, SHARE],
    );
    const { idEmpresa, codVendedor, codSupervisor } = rep;
    as.rep = await signedIn(app, db.pool, {
      login: 'rep@dinheiro.test',
      role: 'representative',
      idEmpresa,
      codVendedor,
    });
    as.sup = await signedIn(app, db.pool, { login: 'sup@dinheiro.test', role: 'supervisor', idEmpresa, codSupervisor });
  });

  /** The list price of each of the client's products, set in the ERP's price list. */
  async function pricesAre(prices: number[]): Promise<Map<number, number>> {
    const byProduct = new Map(s.products.map((id, i) => [id, prices[i % prices.length] as number]));
    for (const [id, price] of byProduct) {
      await db.pool.query(
        'update pautas_precos set preco = $4 where id_empresa = $1 and id_pauta = $2 and id_produto = $3',
        [s.idEmpresa, s.idPauta, id, price],
      );
    }
    return byProduct;
  }

  const openOrders = async () =>
    Number(
      (await db.pool.query<{ v: string }>('select app.pedidos_em_aberto($1, $2) as v', [s.idEmpresa, s.idCliente]))
        .rows[0]?.v,
    );

  it('stores, approves and copies to the ERP the digits shared and SQL compute alike', async () => {
    const seed = Date.now() % 2 ** 31;
    const decimal = (min: number, max: number, scale: number) =>
      fc.integer({ min, max }).map((n) => Number((n / 10 ** scale).toFixed(scale)));
    const [prices] = fc.sample(fc.array(decimal(1, 50_000_000, 4), { minLength: 7, maxLength: 7 }), {
      seed,
      numRuns: 1,
    });
    // R$ 25,89 is the price: with a 2,5 % acréscimo it must be 26,5373.
    const listPrices = await pricesAre([25.89, ...(prices ?? [])]);
    const orders = fc.sample(
      fc.uniqueArray(
        fc.record({
          idProduto: fc.constantFrom(...s.products),
          quantidade: fc.oneof(decimal(1, 20_000, 3), fc.integer({ min: 1, max: 200 })),
          descontoPercent: fc.oneof(decimal(-10_000, 10_000, 2), fc.constantFrom(-2.5, 2.5, 33.33, -0.01)),
        }),
        { minLength: 1, maxLength: 6, selector: (l) => l.idProduto },
      ),
      { seed, numRuns: 8 },
    );
    orders[0] = [{ idProduto: s.products[0] as number, quantidade: 1, descontoPercent: -2.5 }, ...(orders[0] ?? [])];
    orders[0] = orders[0].filter((l, i, all) => all.findIndex((m) => m.idProduto === l.idProduto) === i);

    const before = await openOrders();
    const placed: Order[] = [];
    for (const itens of orders) {
      const order = await placeOrder(as.rep, { idCliente: s.idCliente, itens });
      const context = `seed ${seed}, order ${JSON.stringify(itens)}`;
      const expected = itens.map((l) =>
        lineAmounts(listPrices.get(l.idProduto) as number, l.quantidade, l.descontoPercent),
      );
      const flex = itens.map((l) =>
        lineFlex(
          {
            listPrice: listPrices.get(l.idProduto) as number,
            quantity: l.quantidade,
            discountPercent: l.descontoPercent,
            ceilingPercent: 100,
          },
          { creditSharePercent: SHARE, maxBeyondCeilingPoints: 0 },
        ),
      );
      // The answer: shared's figures.
      expect(
        order.itens.map((l) => ({ unitPrice: l.precoUnitario, total: l.valorTotal, earned: l.flexGerado ?? 0 })),
        context,
      ).toEqual(expected.map((e, i) => ({ unitPrice: e.unitPrice, total: e.total, earned: flex[i]?.earned })));
      const totals = orderTotals(expected);
      expect({ bruto: order.valorBruto, total: order.valorTotal, desconto: order.valorDesconto }, context).toEqual({
        bruto: totals.gross,
        total: totals.total,
        desconto: totals.discount,
      });

      // The stored rows: SQL's round() of the same formula on numeric, and the order the sum of its lines.
      const { rows } = await db.pool.query<{ ok: boolean; line: string }>(
        `select i.preco_unitario = round(i.preco_tabela * (100 - i.perc_desconto) / 100, 4)
                and i.valor_total = round(i.preco_unitario * i.quantidade, 2) as ok,
                concat_ws(' ', i.preco_tabela, i.quantidade, i.perc_desconto, i.preco_unitario, i.valor_total) as line
           from app.pedido_itens i where i.id_pedido = $1 order by i.seq`,
        [order.id],
      );
      expect(
        rows.filter((r) => !r.ok).map((r) => r.line),
        context,
      ).toEqual([]);
      const head = await db.pool.query<{ ok: boolean }>(
        `select p.valor_total = t.total and p.valor_bruto = t.bruto and p.valor_desconto = t.bruto - t.total
                and p.flex_gerado = t.flex as ok
           from app.pedidos p,
                lateral (select sum(i.valor_total) as total, sum(round(i.preco_tabela * i.quantidade, 2)) as bruto,
                                sum(i.flex_gerado) as flex
                           from app.pedido_itens i where i.id_pedido = p.id) t
          where p.id = $1`,
        [order.id],
      );
      expect(head.rows[0]?.ok, context).toBe(true);

      // Approved: the trigger's copy in the ERP is the stored order, to the centavo.
      const res = await as.sup('POST', `/orders/${order.id}/approve`, {});
      expect(res.status, context).toBe(200);
      const approved = (await res.json()) as Order;
      const erp = await erpOrderWritten(db.pool, approved.erpIdPedido as number);
      expect(erp.valorTotal, context).toBe(totals.total);
      expect(sumMoney(erp.items.map((i) => i.valorTotal)), context).toBe(totals.total);
      expect(
        erp.items.map((i) => [i.precoUnitario, i.valorTotal]),
        context,
      ).toEqual(expected.map((e) => [e.unitPrice, e.total]));
      placed.push(approved);
    }

    // The example, through the whole path.
    expect(placed[0]?.itens[0]?.precoUnitario).toBe(26.5373);
    // Approved and not invoiced, the orders still hold the client's credit: SQL's sum is shared's.
    expect(await openOrders()).toBe(sumMoney([before, ...placed.map((o) => o.valorTotal)]));
  });
});
