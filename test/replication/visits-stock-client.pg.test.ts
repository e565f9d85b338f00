// The visits' collection (visitas: docs/sync.md) replicated by a stock
// RxDB client built from the OpenAPI document alone (test/support/stock-client.ts), with RxDB's
// default conflict handler, over real HTTP: a visit written offline (check-in and check-out
// without an order, with a reason) whose push answer is lost is pushed again by RxDB and held
// once by the server; a visit to a client outside the portfolio comes back refused, on its own.
import { randomUUID } from 'node:crypto';
import { businessDate, type SyncVisit } from '@campo/shared';
import type { RxCollection, RxDatabase } from 'rxdb';
import { type RxReplicationState, replicateRxCollection } from 'rxdb/plugins/replication';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionedErp } from '../support/erp.ts';
import { useTestDatabase } from '../support/pg.ts';
import { servedApp } from '../support/replication.ts';
import { logInAs } from '../support/session.ts';
import {
  type StockDoc as Doc,
  type StockCheckpoint,
  stockDatabase,
  stockHeaders,
  stockPullHandler,
} from '../support/stock-client.ts';

const db = useTestDatabase();

describe('visitas through a stock RxDB client', () => {
  let served: Awaited<ReturnType<typeof servedApp>>;
  let rxdb: RxDatabase;
  let state: RxReplicationState<Doc, StockCheckpoint>;
  let token: string;
  let mine: number;
  let foreign: number;
  let idMotivo: number;
  let rep: number;
  /** Pushes whose answer the network loses after the server has applied them. */
  let answersToLose = 0;
  let pushes = 0;

  const visits = () => rxdb.collections.visitas as RxCollection<Doc>;

  /** A visit as the phone writes it offline: the server's own fields are placeholders. */
  const offlineVisit = (idCliente: number, over: Partial<SyncVisit> = {}): Doc => {
    // Half an hour ago, so the check-out 12 minutes later is in the past of the server's clock.
    const now = Date.now() - 30 * 60_000;
    return {
      id: randomUUID(),
      codVendedor: rep,
      idCliente,
      nomeCliente: null,
      data: businessDate(),
      estado: 'sem_pedido',
      entradaEm: new Date(now).toISOString(),
      entradaRecebidaEm: new Date(now).toISOString(),
      saidaEm: new Date(now + 12 * 60_000).toISOString(),
      saidaRecebidaEm: null,
      posicao: { latitude: -23.55, longitude: -46.63, precisao: 8 },
      saidaPosicao: null,
      distanciaMetros: null,
      minutos: 12,
      noRoteiro: false,
      idPedido: null,
      numPedSar: null,
      idMotivo,
      motivo: null,
      observacao: 'Estoque cheio até sexta',
      foto: false,
      ...over,
    };
  };

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const [t1] = erp.tenants as [number];
    const first = erp.reps.find((r) => r.idEmpresa === t1);
    const other = erp.reps.find((r) => r.idEmpresa === t1 && r.codVendedor !== first?.codVendedor);
    if (!first || !other) throw new Error('the tiny fixture lacks two representatives');
    rep = first.codVendedor;
    const clientOf = async (cod: number) =>
      (
        await db.pool.query<{ id: number }>(
          'select id_cliente as id from app.vw_clientes where id_empresa = $1 and cod_vendedor = $2 order by 1 limit 1',
          [t1, cod],
        )
      ).rows[0]?.id as number;
    mine = await clientOf(rep);
    foreign = await clientOf(other.codVendedor);
    served = await servedApp(db);
    token = await logInAs(served.app, db.pool, {
      login: 'rep@visitas-stock.test',
      role: 'representative',
      idEmpresa: t1,
      codVendedor: rep,
    });
    const reasons = await fetch(`${served.server.url}/api/v1/visit-reasons`, { headers: stockHeaders(token) });
    idMotivo = ((await reasons.json()) as { items: { id: number; codigo: string }[] }).items.find(
      (r) => r.codigo === 'estoque_alto',
    )?.id as number;

    rxdb = await stockDatabase(served.server.url, ['visitas']);
    state = replicateRxCollection<Doc, StockCheckpoint>({
      collection: visits(),
      replicationIdentifier: 'stock-visitas',
      live: true,
      retryTime: 100,
      pull: { batchSize: 100, handler: stockPullHandler(served.server.url, 'visitas', token) },
      push: {
        batchSize: 50,
        async handler(docs) {
          pushes++;
          const res = await fetch(`${served.server.url}/api/v1/sync/visitas/push`, {
            method: 'POST',
            headers: stockHeaders(token),
            body: JSON.stringify(docs),
          });
          if (!res.ok) throw new Error(`push visitas: ${res.status} ${await res.text()}`);
          const masters = (await res.json()) as never;
          if (answersToLose > 0) {
            answersToLose--;
            throw new Error('the answer was lost on the way back');
          }
          return masters;
        },
      },
    });
    await state.awaitInitialReplication();
  });

  afterAll(async () => {
    await state?.cancel();
    await rxdb?.close();
    await served?.close();
  });

  it('holds one visit when the answer to its push is lost and RxDB pushes it again', async () => {
    const doc = offlineVisit(mine);
    answersToLose = 1;
    const before = pushes;
    await visits().insert(doc);
    await state.awaitInSync();
    expect(pushes - before).toBeGreaterThanOrEqual(2);
    const { rows } = await db.pool.query<{ n: number; saida: Date | null; motivo: number | null }>(
      'select count(*)::int as n, max(saida_em) as saida, max(id_motivo) as motivo from app.visitas where chave = $1',
      [doc.id],
    );
    expect(rows[0]).toMatchObject({ n: 1, motivo: idMotivo });
    expect(rows[0]?.saida?.toISOString()).toBe(doc.saidaEm);
    // The phone holds the server's state: its receipt times, the reason's text, the note.
    const held = (await visits().findOne(doc.id).exec())?.toJSON(true) as unknown as SyncVisit;
    expect(held).toMatchObject({
      estado: 'sem_pedido',
      motivo: 'Estoque alto',
      observacao: 'Estoque cheio até sexta',
      minutos: 12,
    });
    expect(held.saidaRecebidaEm).not.toBeNull();
  });

  it("refuses, on its own, a visit to another representative's client", async () => {
    const refused = offlineVisit(foreign);
    const taken = offlineVisit(mine);
    await visits().bulkInsert([refused, taken]);
    await state.awaitInSync();
    const local = async (id: string) => (await visits().findOne(id).exec())?.toJSON(true) as unknown as SyncVisit;
    expect((await local(refused.id)).recusa?.code).toBe('CLIENT_NOT_IN_PORTFOLIO');
    expect((await local(taken.id)).recusa ?? null).toBeNull();
    const { rows } = await db.pool.query<{ chave: string }>('select chave from app.visitas where chave = any($1)', [
      [refused.id, taken.id],
    ]);
    expect(rows.map((r) => r.chave)).toEqual([taken.id]);
  });
});
