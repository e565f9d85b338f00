// What a phone pulls after an order (issue #51): the order's document, its client's and the
// representative's flex document, compared with a golden copy written before the order's
// bookkeeping was made cheaper, so that change (or any later one) cannot alter what a device
// sees. Ids, numbers, keys and times differ between runs: they are replaced by their role
// before the comparison (the golden copies are .txt: the formatter leaves them as written).
// And the client's document the order moved must be the very one a whole rebuild writes: a
// refresh after the orders logs no new revision of it.
import type { Order, SyncPull } from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from './support/app.ts';
import { type Api, anOrder, aPricedClient, aRepresentative, postOrder, signedIn } from './support/builders.ts';
import { erpReceivable, provisionedErp } from './support/erp.ts';
import { useTestDatabase } from './support/pg.ts';

const db = useTestDatabase();

type Doc = Record<string, unknown>;
const COLLECTIONS = ['pedidos', 'clientes', 'ajustes'] as const;

describe('the documents a phone pulls after an order', () => {
  const as = {} as Record<'rep' | 'manager', Api>;
  let s: { idEmpresa: number; codVendedor: number; idCliente: number; products: { id: number }[] };
  const checkpoints: Record<string, string> = {};

  /** The collection's documents changed since the last pull of it (all of them the first time). */
  async function pullNew(colecao: (typeof COLLECTIONS)[number]): Promise<Doc[]> {
    const docs: Doc[] = [];
    for (;;) {
      const cp = checkpoints[colecao];
      const res = await as.rep(
        'GET',
        `/sync/${colecao}/pull?limit=500${cp ? `&checkpoint=${encodeURIComponent(cp)}` : ''}`,
      );
      expect(res.status).toBe(200);
      const page = (await res.json()) as SyncPull;
      docs.push(...(page.documents as Doc[]));
      checkpoints[colecao] = page.checkpoint;
      if (page.documents.length < 500) return docs;
    }
  }

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const app = testApp(db.pool);
    const rep = await aRepresentative(db.pool, erp, { ceiling: 5 });
    // The fixture's history is dated back from today, and which of its titles are open, overdue
    // or paid (so which client is blocked) moves with the day: the representative's clients get
    // a past of the test's own, the same any day.
    const clientes = '(select id_corrent from corrent where id_empresa = $1 and cod_vendedor = $2)';
    for (const past of [
      `delete from titulos_receber where id_corrent in ${clientes}`,
      `delete from notas_fiscais_itens where id_nota in (select id_nota from notas_fiscais where id_corrent in ${clientes})`,
      `delete from notas_fiscais where id_corrent in ${clientes}`,
      `delete from pedidos_venda_itens where id_pedido in (select id_pedido from pedidos_venda where id_corrent in ${clientes})`,
      `delete from pedidos_venda where id_corrent in ${clientes}`,
    ])
      await db.pool.query(past, [rep.idEmpresa, rep.codVendedor]);
    const client = await aPricedClient(db.pool, rep, { products: 3 });
    await erpReceivable(db.pool, client.idCliente, {
      numDocumento: 'GOLDEN-1',
      valor: 808.31,
      issuedDaysAgo: 20,
      dueInDays: 10,
    });
    s = {
      idEmpresa: rep.idEmpresa,
      codVendedor: rep.codVendedor,
      idCliente: client.idCliente,
      products: client.products,
    };
    as.rep = await signedIn(app, db.pool, {
      login: 'rep@golden.test',
      role: 'representative',
      idEmpresa: rep.idEmpresa,
      codVendedor: rep.codVendedor,
    });
    as.manager = await signedIn(app, db.pool, { login: 'ger@golden.test', role: 'manager', idEmpresa: rep.idEmpresa });
    // Credit (a limit, policy flag) and flex on, a balance to spend, and open orders before.
    await db.pool.query(
      `insert into app.config_empresa (id_empresa, politica_credito, flex_percentual_credito, flex_maximo_pontos)
       values ($1, 'flag', 50, 5)
       on conflict (id_empresa) do update set politica_credito = 'flag', flex_percentual_credito = 50,
                                              flex_maximo_pontos = 5`,
      [s.idEmpresa],
    );
    await db.pool.query(
      `with saldo as (insert into app.flex_saldos (id_empresa, cod_vendedor, saldo) values ($1, $2, 1000))
       insert into app.flex_lancamentos (id_empresa, cod_vendedor, tipo, valor, motivo, criado_por)
       values ($1, $2, 'ajuste', 1000, 'Saldo do teste', 'test')`,
      [s.idEmpresa, s.codVendedor],
    );
    const c = await db.pool.query<{ razao_social: string }>(
      'select razao_social from app.vw_clientes where id_cliente = $1',
      [s.idCliente],
    );
    const named = { idCliente: s.idCliente, razaoSocial: c.rows[0]?.razao_social as string };
    await anOrder(db.pool, rep, { situa: 1, client: named });
    await anOrder(db.pool, rep, { situa: 2, client: named });
    await anOrder(db.pool, rep, { situa: 3, client: named });
    expect((await as.manager('PUT', `/clients/${s.idCliente}/credit-limit`, { creditLimit: 50000 })).status).toBe(200);
    expect((await as.manager('POST', '/catalog/sync', {})).status).toBe(200);
    for (const c of COLLECTIONS) await pullNew(c);
  });

  /** Run-dependent values replaced by what they are. */
  function normalised(docs: Doc[], orders: Order[]): unknown {
    const ids = new Map(orders.map((o, i) => [String(o.id), `<pedido ${i + 1}>`]));
    const numbers = new Map(orders.map((o, i) => [String(o.numPedSar), `<número ${i + 1}>`]));
    const text = JSON.stringify(docs, (k, v) => {
      if (k === 'numPedSar' && numbers.has(String(v))) return numbers.get(String(v));
      if ((k === 'id' || k === 'idPedido') && ids.has(String(v))) return ids.get(String(v));
      if (typeof v === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(v)) return '<instante>';
      if (typeof v === 'string' && /^\d{4}-\d\d-\d\d$/.test(v)) return '<data>';
      if (typeof v === 'string' && /^[0-9a-f-]{36}$/.test(v)) return '<chave>';
      if (k === 'id' && v === String(s.idCliente)) return '<cliente>';
      if (k === 'id' && typeof v === 'number') return '<id>';
      if (k === 'idCliente' || k === 'codVendedor') return `<${k}>`;
      return v;
    });
    return JSON.parse(text);
  }

  it('are the golden ones, and the client document is the one a whole rebuild writes', async () => {
    const orders: Order[] = [];
    const [a, b, c] = s.products.map((p) => p.id) as [number, number, number];
    // One order within its ceilings, one that spends flex on a line and earns it on another.
    for (const itens of [
      [
        { idProduto: a, quantidade: 2, descontoPercent: 0 },
        { idProduto: b, quantidade: 1, descontoPercent: 3 },
      ],
      [
        { idProduto: a, quantidade: 3, descontoPercent: 7 },
        { idProduto: b, quantidade: 1, descontoPercent: -2 },
        { idProduto: c, quantidade: 5, descontoPercent: 0 },
      ],
    ]) {
      const res = await postOrder(as.rep, { idCliente: s.idCliente, itens });
      expect(res.status).toBe(201);
      orders.push((await res.json()) as Order);
      const pulled: Record<string, unknown> = {};
      for (const col of COLLECTIONS) pulled[col] = normalised(await pullNew(col), orders);
      await expect(`${JSON.stringify(pulled, null, 2)}\n`).toMatchFileSnapshot(
        `./golden/order-documents-${orders.length}.txt`,
      );
    }
    // A refresh rebuilds every client's document whole: the moved one is already what it writes.
    const revision = async () =>
      (
        await db.pool.query<{ revisao: string; hash: string }>(
          `select revisao::text, hash from app.sync_alteracoes where id_empresa = $1 and colecao = 'clientes' and chave = $2`,
          [s.idEmpresa, `${s.idCliente}@${s.codVendedor}`],
        )
      ).rows[0];
    const before = await revision();
    expect((await as.manager('POST', '/catalog/sync', {})).status).toBe(200);
    expect(await revision()).toEqual(before);
    expect(await pullNew('clientes')).toEqual([]);
  });
});
