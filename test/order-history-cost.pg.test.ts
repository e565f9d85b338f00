// An order's bookkeeping must not cost more as its client's orders wait (issue #51): moving the
// client's portfolio document (the order's last statement) reads the same buffers whether
// the client has no open order or hundreds. Buffers, not time: the count does not move with
// the machine. The sum of the client's open orders that the credit check reads is business
// work, the true limit's too (docs/benchmarks.md), and is not this test's.
import { beforeAll, describe, expect, it } from 'vitest';
import { clientLastOrderWrites } from '../server/src/clients/portfolio-documents.ts';
import { createDb } from '../server/src/db/kysely.ts';
import { testApp } from './support/app.ts';
import { type Api, aPricedClient, aRepresentative, postOrder, signedIn } from './support/builders.ts';
import { provisionedErp } from './support/erp.ts';
import { useTestDatabase } from './support/pg.ts';

const db = useTestDatabase();

describe("an order's bookkeeping against its client's open orders", () => {
  let s: { idEmpresa: number; codVendedor: number; idCliente: number; idProduto: number };
  let rep: Api;
  let manager: Api;

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const app = testApp(db.pool);
    const erpRep = await aRepresentative(db.pool, erp, { ceiling: 5 });
    const client = await aPricedClient(db.pool, erpRep);
    s = {
      idEmpresa: erpRep.idEmpresa,
      codVendedor: erpRep.codVendedor,
      idCliente: client.idCliente,
      idProduto: client.products[0]?.id as number,
    };
    rep = await signedIn(app, db.pool, {
      login: 'rep@custo.test',
      role: 'representative',
      idEmpresa: erpRep.idEmpresa,
      codVendedor: erpRep.codVendedor,
    });
    manager = await signedIn(app, db.pool, {
      login: 'ger@custo.test',
      role: 'manager',
      idEmpresa: erpRep.idEmpresa,
    });
    // The client's document logged, as the scheduled refresh leaves it.
    expect((await manager('POST', '/catalog/sync', {})).status).toBe(200);
  });

  /** Shared buffers the move of the client's document touches (EXPLAIN ANALYZE, rolled back). */
  async function moveBuffers(): Promise<number> {
    const move = clientLastOrderWrites(s.idEmpresa, s.idCliente, s.codVendedor, 123.45).compile(createDb(db.pool));
    const client = await db.pool.connect();
    try {
      await client.query('begin');
      const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: Record<string, number> }] }>(
        `explain (analyze, buffers, format json) ${move.sql}`,
        [...move.parameters],
      );
      const plan = rows[0]?.['QUERY PLAN'][0].Plan ?? {};
      expect(plan['Actual Rows'], 'the document was moved').toBe(1);
      return (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0);
    } finally {
      await client.query('rollback');
      client.release();
    }
  }

  it("moving the client's document reads as much with 300 open orders as with none", async () => {
    await db.pool.query(
      'update app.pedidos set situa = 3 where id_empresa = $1 and id_cliente = $2 and situa in (1, 2)',
      [s.idEmpresa, s.idCliente],
    );
    const none = await moveBuffers();
    // As a distributor's orders arrive: among other clients' (60 others between two of its own),
    // so each lies on a page of its own rather than 300 on a few.
    await db.pool.query(
      `insert into app.pedidos (id_empresa, num_ped_sar, cod_vendedor, situa, id_cliente, nome_cliente, id_pauta,
                                valor_bruto, valor_total)
       select $1, app.proximo_num_ped_sar($1), $2, case when c.id_cliente = $3 then 2 else 3 end, c.id_cliente,
              'Cliente', 1, 10, 10
         from generate_series(1, 300) g
        cross join (select $3::integer as id_cliente
                    union all
                    (select v.id_cliente from app.vw_clientes v
                      where v.id_empresa = $1 and v.id_cliente <> $3 order by v.id_cliente limit 60)) c
        order by g, c.id_cliente = $3 desc, c.id_cliente`,
      [s.idEmpresa, s.codVendedor, s.idCliente],
    );
    const many = await moveBuffers();
    // Before issue #51 the move summed the open orders again: about two buffers for each.
    expect(many - none, `${none} buffers with none, ${many} with 300`).toBeLessThan(20);
  });

  it("orders for one client at once each add their total to its document's open orders", async () => {
    // The document rebuilt after the first test's orders, written behind its back.
    expect((await manager('POST', '/catalog/sync', {})).status).toBe(200);
    // No credit limit: nothing serialises these orders before their last statement.
    await db.pool.query('delete from app.limites_credito where id_empresa = $1 and id_cliente = $2', [
      s.idEmpresa,
      s.idCliente,
    ]);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        postOrder(rep, { idCliente: s.idCliente, itens: [{ idProduto: s.idProduto, quantidade: 1 + i }] }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(201));
    const { rows } = await db.pool.query<{ logged: string; open: string }>(
      `select substring(a.dados from '"openOrders" : ([-0-9.]+)') as logged,
              app.pedidos_em_aberto($1, $2)::numeric(14, 2)::text as open
         from app.sync_alteracoes a where a.id_empresa = $1 and a.colecao = 'clientes' and a.chave = $3`,
      [s.idEmpresa, s.idCliente, `${s.idCliente}@${s.codVendedor}`],
    );
    expect(rows[0]?.logged).toBe(rows[0]?.open);
  });
});
