// The representative's flex document (collection ajustes, id 'flex'; docs/credit-and-flex.md,
// "Who sees what"): every move of a balance (a manager's adjustment, an order's reservation,
// approval and rejection) writes it in its own transaction, so a device already in sync pulls
// the new balance and entry from its checkpoint; only its representative pulls it.
import { FLEX_SYNC_ENTRIES, lineFlex, type Order, round2, type SyncPull } from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import {
  type Api,
  aPricedClient,
  aRepresentative,
  type PricedProduct,
  postOrder,
  type Rep,
  signedIn,
} from '../../../test/support/builders.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { createDb } from '../db/kysely.ts';
import { refreshCollection } from '../sync/service.ts';

const db = useTestDatabase();

const CEILING = 7;
const RULES = { creditSharePercent: 50, maxBeyondCeilingPoints: 5 };

interface FlexDoc {
  id: string;
  flex: {
    codVendedor: number;
    saldo: number;
    lancamentos: { tipo: string; valor: number; numPedSar: number | null; motivo: string | null; criadoPor: string }[];
  };
}

describe("the representative's flex document reaches their device", () => {
  let rep: Rep;
  let mate: Rep;
  let product: PricedProduct;
  let idCliente: number;
  const as = {} as Record<'rep' | 'mate' | 'sup' | 'manager', Api>;
  const checkpoints: Record<string, string | null> = {};

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const app = testApp(db.pool);
    rep = await aRepresentative(db.pool, erp, { ceiling: CEILING });
    mate = await aRepresentative(db.pool, erp, { besides: rep });
    const client = await aPricedClient(db.pool, rep, { products: 1 });
    idCliente = client.idCliente;
    product = client.products[0] as PricedProduct;
    const { idEmpresa, codSupervisor } = rep;
    as.rep = await signedIn(app, db.pool, {
      login: 'rep@flexdoc.test',
      role: 'representative',
      idEmpresa,
      codVendedor: rep.codVendedor,
    });
    as.mate = await signedIn(app, db.pool, {
      login: 'mate@flexdoc.test',
      role: 'representative',
      idEmpresa,
      codVendedor: mate.codVendedor,
    });
    as.sup = await signedIn(app, db.pool, { login: 'sup@flexdoc.test', role: 'supervisor', idEmpresa, codSupervisor });
    as.manager = await signedIn(app, db.pool, { login: 'ger@flexdoc.test', role: 'manager', idEmpresa });
    await db.pool.query(
      `insert into app.config_empresa (id_empresa, flex_percentual_credito, flex_maximo_pontos) values ($1, $2, $3)
       on conflict (id_empresa) do update set flex_percentual_credito = excluded.flex_percentual_credito,
                                              flex_maximo_pontos = excluded.flex_maximo_pontos`,
      [idEmpresa, RULES.creditSharePercent, RULES.maxBeyondCeilingPoints],
    );
  });

  /** What `who` pulls of ajustes since their last pull (the first pull builds the collection). */
  async function pull(who: keyof typeof as) {
    const since = checkpoints[who];
    const res = await as[who](
      'GET',
      `/sync/ajustes/pull?limit=50${since ? `&checkpoint=${encodeURIComponent(since)}` : ''}`,
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const page = (await res.json()) as SyncPull;
    checkpoints[who] = page.checkpoint ?? since ?? null;
    return page.documents as unknown as FlexDoc[];
  }
  const flexIn = (docs: FlexDoc[]) => docs.filter((d) => d.id === 'flex');

  async function created(res: Response): Promise<Order> {
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as Order;
  }
  const adjust = (valor: number, motivo: string) =>
    as.manager('POST', `/flex/balances/${rep.codVendedor}/adjustments`, { valor, motivo });

  it('a representative without moves pulls a balance of 0; the other roles pull no flex document', async () => {
    expect(flexIn(await pull('rep'))).toEqual([
      {
        id: 'flex',
        empresa: null,
        tetos: null,
        flex: { codVendedor: rep.codVendedor, saldo: 0, lancamentos: [] },
        _deleted: false,
      },
    ]);
    expect(flexIn(await pull('mate')).map((d) => d.flex.codVendedor)).toEqual([mate.codVendedor]);
    for (const who of ['sup', 'manager'] as const) {
      const docs = await pull(who);
      expect(docs.map((d) => d.id)).toContain('empresa');
      expect(flexIn(docs), who).toEqual([]);
    }
  });

  it("an adjustment reaches the representative's device from its checkpoint, and no one else's", async () => {
    expect((await adjust(150.25, 'Campanha de junho ✓')).status).toBe(201);
    const [doc, ...more] = flexIn(await pull('rep'));
    expect(more).toEqual([]);
    expect(doc?.flex.saldo).toBe(150.25);
    expect(doc?.flex.lancamentos).toEqual([
      expect.objectContaining({
        tipo: 'ajuste',
        valor: 150.25,
        motivo: 'Campanha de junho ✓',
        criadoPor: 'ger@flexdoc.test',
      }),
    ]);
    expect(flexIn(await pull('mate'))).toEqual([]);
    expect(flexIn(await pull('sup'))).toEqual([]);
  });

  it("an order's reservation, with its number, its rejection and an approval's credit each reach it", async () => {
    const spent = lineFlex(
      { listPrice: product.price, quantity: 2, discountPercent: 9, ceilingPercent: CEILING },
      RULES,
    ).spent;
    expect(spent).toBeGreaterThan(0);
    const order = await created(
      await postOrder(as.rep, { idCliente, itens: [{ idProduto: product.id, quantidade: 2, descontoPercent: 9 }] }),
    );
    let [doc] = flexIn(await pull('rep'));
    expect(doc?.flex.saldo).toBe(round2(150.25 - spent));
    expect(doc?.flex.lancamentos[0]).toMatchObject({ tipo: 'reserva', valor: -spent, numPedSar: order.numPedSar });
    expect(doc?.flex.lancamentos).toHaveLength(2);
    // Built before the order's number was drawn, it is what the collection's loader builds now.
    await refreshCollection(createDb(db.pool), rep.idEmpresa, 'ajustes');
    expect(flexIn(await pull('rep'))).toEqual([]);

    const rejected = await as.sup('POST', `/orders/${order.id}/reject`, { motivo: 'Desconto alto demais' });
    expect(rejected.status, await rejected.clone().text()).toBe(200);
    [doc] = flexIn(await pull('rep'));
    expect(doc?.flex.saldo).toBe(150.25);
    expect(doc?.flex.lancamentos[0]).toMatchObject({ tipo: 'liberacao', valor: spent, numPedSar: order.numPedSar });

    const earned = lineFlex(
      { listPrice: product.price, quantity: 2, discountPercent: -10, ceilingPercent: CEILING },
      RULES,
    ).earned;
    const above = await created(
      await postOrder(as.rep, { idCliente, itens: [{ idProduto: product.id, quantidade: 2, descontoPercent: -10 }] }),
    );
    // Within its ceilings: nothing moves, the document stays.
    expect(flexIn(await pull('rep'))).toEqual([]);
    expect((await as.sup('POST', `/orders/${above.id}/approve`)).status).toBe(200);
    [doc] = flexIn(await pull('rep'));
    expect(doc?.flex.saldo).toBe(round2(150.25 + earned));
    expect(doc?.flex.lancamentos.map((e) => e.tipo)).toEqual(['credito', 'liberacao', 'reserva', 'ajuste']);
    expect(flexIn(await pull('mate'))).toEqual([]);
    expect(flexIn(await pull('manager'))).toEqual([]);
  });

  it('the scheduled refresh builds the same documents the moves wrote: no new revision', async () => {
    const before = await db.pool.query<{ revisao: string }>(
      `select revisao from app.sync_alteracoes where colecao = 'ajustes' and chave = $1`,
      [`flex@${rep.codVendedor}`],
    );
    await refreshCollection(createDb(db.pool), rep.idEmpresa, 'ajustes');
    const after = await db.pool.query<{ revisao: string }>(
      `select revisao from app.sync_alteracoes where colecao = 'ajustes' and chave = $1`,
      [`flex@${rep.codVendedor}`],
    );
    expect(after.rows).toEqual(before.rows);
    expect(flexIn(await pull('rep'))).toEqual([]);
  });

  it("a ledger longer than the document: an order's reservation keeps its latest entries, as the refresh", async () => {
    // Older moves than any the document holds, more than it holds, and the balance their sum;
    // written here behind the change log's back, so none is logged: the order reads the
    // ledger's entries.
    await db.pool.query(
      `with lote as (
         insert into app.flex_lancamentos (id_empresa, cod_vendedor, tipo, valor, motivo, criado_por, criado_em)
         select $1, $2, 'ajuste', 1, 'Lote ' || g, 'test', now() - make_interval(days => g)
           from generate_series(1, $3::integer) g),
       esquecido as (delete from app.sync_alteracoes where id_empresa = $1 and colecao = 'ajustes' and chave = $4)
       update app.flex_saldos set saldo = saldo + $3 where id_empresa = $1 and cod_vendedor = $2`,
      [rep.idEmpresa, rep.codVendedor, FLEX_SYNC_ENTRIES + 10, `flex@${rep.codVendedor}`],
    );
    const order = () =>
      postOrder(as.rep, { idCliente, itens: [{ idProduto: product.id, quantidade: 1, descontoPercent: 9 }] });
    const first = await created(await order());
    let [doc] = flexIn(await pull('rep'));
    expect(doc?.flex.lancamentos).toHaveLength(FLEX_SYNC_ENTRIES);
    expect(doc?.flex.lancamentos[0]).toMatchObject({ tipo: 'reserva', numPedSar: first.numPedSar });
    expect(doc?.flex.lancamentos.at(-1)?.motivo).toBe(`Lote ${FLEX_SYNC_ENTRIES - 5}`);
    await refreshCollection(createDb(db.pool), rep.idEmpresa, 'ajustes');
    expect(flexIn(await pull('rep'))).toEqual([]);

    // Logged now: the next order builds on the logged document, one entry more, one less.
    const second = await created(await order());
    [doc] = flexIn(await pull('rep'));
    expect(doc?.flex.lancamentos).toHaveLength(FLEX_SYNC_ENTRIES);
    expect(doc?.flex.lancamentos.slice(0, 2)).toMatchObject([
      { tipo: 'reserva', numPedSar: second.numPedSar },
      { tipo: 'reserva', numPedSar: first.numPedSar },
    ]);
    expect(doc?.flex.lancamentos.at(-1)?.motivo).toBe(`Lote ${FLEX_SYNC_ENTRIES - 6}`);
    await refreshCollection(createDb(db.pool), rep.idEmpresa, 'ajustes');
    expect(flexIn(await pull('rep'))).toEqual([]);
  });
  it('two orders that overlap: the document the later-locking one builds lists them as the refresh does', async () => {
    // Issue #50: order A starts first but reaches the balance after order B. The document A
    // builds (its own entry first) and the refresh's rebuild (newest first) must agree.
    await adjust(500, 'Saldo para dois pedidos');
    await pull('rep');
    // A second client of the representative, and a product priced on its list.
    const other = await db.pool.query<{ id_cliente: number; id_produto: number }>(
      `select c.id_cliente, p.id_produto
         from app.vw_clientes c
         join app.vw_precos pr on pr.id_pauta = c.id_pauta and pr.id_empresa = c.id_empresa
         join app.vw_produtos p on p.id_produto = pr.id_produto and p.id_empresa = c.id_empresa and p.ativo
        where c.id_empresa = $1 and c.cod_vendedor = $2 and c.id_cliente <> $3 and c.status_financeiro <> 'blocked'
        order by c.id_cliente, p.id_produto limit 1`,
      [rep.idEmpresa, rep.codVendedor, idCliente],
    );
    const b = other.rows[0];
    if (!b) throw new Error('the fixture has no second orderable client for the representative');
    // A's client has a limit: its order's first statement locks that row, held here meanwhile.
    await db.pool.query(
      `insert into app.limites_credito (id_empresa, id_cliente, limite) values ($1, $2, 99999999)
       on conflict (id_empresa, id_cliente) do update set limite = excluded.limite`,
      [rep.idEmpresa, idCliente],
    );
    const holder = await db.pool.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from app.limites_credito where id_empresa = $1 and id_cliente = $2 for update', [
        rep.idEmpresa,
        idCliente,
      ]);
      const a = postOrder(as.rep, { idCliente, itens: [{ idProduto: product.id, quantidade: 1, descontoPercent: 9 }] });
      // A's transaction has begun and waits on the row.
      let waiting = false;
      for (let i = 0; i < 5000 && !waiting; i++) {
        const { rows } = await db.pool.query<{ n: number }>(
          `select count(*)::integer as n from pg_locks l where not l.granted and l.locktype = 'transactionid'`,
        );
        waiting = (rows[0]?.n ?? 0) > 0;
      }
      expect(waiting).toBe(true);
      await created(
        await postOrder(as.rep, {
          idCliente: b.id_cliente,
          itens: [{ idProduto: b.id_produto, quantidade: 1, descontoPercent: 9 }],
        }),
      );
      await holder.query('commit');
      await created(await a);
    } finally {
      holder.release();
    }
    const [doc] = flexIn(await pull('rep'));
    expect(doc?.flex.lancamentos.slice(0, 2).map((e) => e.tipo)).toEqual(['reserva', 'reserva']);
    // The refresh rebuilds the same document: no new revision.
    await refreshCollection(createDb(db.pool), rep.idEmpresa, 'ajustes');
    expect(flexIn(await pull('rep'))).toEqual([]);
  });
});
