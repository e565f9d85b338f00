// A stock RxDB client (test/support/stock-client.ts) generated from the OpenAPI document,
// with RxDB's default conflict handler, over real HTTP against a real server on a real LATIN1
// PostgreSQL. Each case is one a field rep would act on if the phone showed it wrong: an
// invoiced order, a refused card, reply or order, a deletion, a stale client.
import { randomUUID } from 'node:crypto';
import { SYNC_COLLECTIONS, type SyncCollection } from '@campo/shared';
import type { RxCollection, RxDatabase } from 'rxdb';
import { type RxReplicationState, replicateRxCollection } from 'rxdb/plugins/replication';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownCeiling, orderableClient, provisionedErp } from '../support/erp.ts';
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

describe('a stock RxDB client generated from the OpenAPI document', () => {
  let served: Awaited<ReturnType<typeof servedApp>>;
  let rxdb: RxDatabase;
  let token: string;
  let manager: string;
  let supervisor: string;
  let t1: number;
  let rep: number;
  let idCliente: number;
  let idProduto: number;
  const replications = new Map<SyncCollection, RxReplicationState<Doc, StockCheckpoint>>();
  const conflicts: { collection: SyncCollection; id: string }[] = [];

  const api = async (bearer: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${served.server.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBeLessThan(300);
    return res.status === 204 ? null : ((await res.json()) as Record<string, unknown>);
  };
  const collection = (c: SyncCollection) => rxdb.collections[c] as RxCollection<Doc>;
  /** Pulls and pushes everything of the collection, and waits until both sides agree. */
  const sync = async (c: SyncCollection) => {
    const state = replications.get(c) as RxReplicationState<Doc, StockCheckpoint>;
    state.reSync();
    await state.awaitInSync();
  };
  const local = async (c: SyncCollection, id: string): Promise<unknown> =>
    (await collection(c).findOne(id).exec())?.toJSON(true);
  /** An order of one line of the client's product, queued offline as the phone does; answers its key. */
  const queueOrder = async (line: { quantidade: number; descontoPercent: number }): Promise<string> => {
    const id = randomUUID();
    const now = new Date().toISOString();
    await collection('pedidos').insert({
      id,
      status: 'queued',
      draft: { idCliente, itens: [{ idProduto, ...line }] },
      order: null,
      reasons: [],
      queuedAt: now,
      updatedAt: now,
    });
    return id;
  };

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    [t1] = erp.tenants as [number];
    const first = erp.reps.find((r) => r.idEmpresa === t1);
    if (!first) throw new Error('no representative in the fixture');
    rep = first.codVendedor;
    ({ idCliente, idProduto } = await orderableClient(db.pool, { idEmpresa: t1, codVendedor: rep }));
    served = await servedApp(db);
    token = await logInAs(served.app, db.pool, {
      login: 'rep@stock.test',
      role: 'representative',
      idEmpresa: t1,
      codVendedor: rep,
    });
    manager = await logInAs(served.app, db.pool, { login: 'ger@stock.test', role: 'manager', idEmpresa: t1 });
    supervisor = await logInAs(served.app, db.pool, {
      login: 'sup@stock.test',
      role: 'supervisor',
      idEmpresa: t1,
      codSupervisor: first.codSupervisor,
    });

    rxdb = await stockDatabase(served.server.url, SYNC_COLLECTIONS);
    for (const c of SYNC_COLLECTIONS) {
      const state = replicateRxCollection<Doc, StockCheckpoint>({
        collection: collection(c),
        replicationIdentifier: `stock-${c}`,
        live: true,
        retryTime: 200,
        pull: { batchSize: 200, handler: stockPullHandler(served.server.url, c, token) },
        ...(['pedidos', 'funil', 'chamados', 'cadastros'].includes(c)
          ? {
              push: {
                batchSize: 50,
                async handler(docs) {
                  const res = await fetch(`${served.server.url}/api/v1/sync/${c}/push`, {
                    method: 'POST',
                    headers: stockHeaders(token),
                    body: JSON.stringify(docs),
                  });
                  if (!res.ok) throw new Error(`push ${c}: ${res.status} ${await res.text()}`);
                  return (await res.json()) as never;
                },
              },
            }
          : {}),
      });
      state.error$.subscribe((err) => {
        throw err;
      });
      state.conflict$.subscribe((conflict) => {
        conflicts.push({ collection: c, id: String((conflict.input.realMasterState as Doc).id) });
      });
      replications.set(c, state);
    }
    for (const state of replications.values()) await state.awaitInitialReplication();
  });

  afterAll(async () => {
    for (const state of replications.values()) await state.cancel();
    await rxdb?.close();
    await served?.close();
  });

  it('every collection arrives, each document valid against its served schema', async () => {
    expect(await collection('produtos').count().exec()).toBeGreaterThan(0);
    expect(await collection('clientes').count().exec()).toBeGreaterThan(0);
    expect(await local('ajustes', 'empresa')).toMatchObject({ id: 'empresa' });
  });

  it('a deletion validates against the schema and removes the document', async () => {
    const created = (await api(manager, 'POST', '/politicas/regras', {
      descricao: 'Semana do cliente',
      percent: 7,
      vigenciaInicio: '2020-01-01',
      vigenciaFim: '2999-12-31',
    })) as { items: { id: number }[] };
    const id = String(created.items[0]?.id);
    await sync('regras');
    expect(await local('regras', id)).toMatchObject({ descricao: 'Semana do cliente' });
    await api(manager, 'DELETE', `/politicas/regras/${id}`);
    await sync('regras');
    expect(await local('regras', id)).toBeUndefined();
    // A client moved to another portfolio leaves this phone the same way.
    const other = (
      await db.pool.query('select cod_vendedor from vendedores where id_empresa = $1 and cod_vendedor <> $2 limit 1', [
        t1,
        rep,
      ])
    ).rows[0].cod_vendedor;
    const moved = (
      await db.pool.query(
        'select id_cliente from app.vw_clientes where id_empresa = $1 and cod_vendedor = $2 and id_cliente <> $3 limit 1',
        [t1, rep, idCliente],
      )
    ).rows[0].id_cliente;
    expect(await local('clientes', String(moved))).toBeDefined();
    await db.pool.query('update corrent set cod_vendedor = $1 where id_corrent = $2', [other, moved]);
    await api(manager, 'POST', '/catalog/sync');
    await sync('clientes');
    expect(await local('clientes', String(moved))).toBeUndefined();
  });

  it('an order: accepted with its number, its client’s last order date, then invoiced by the ERP', async () => {
    const before = conflicts.length;
    const id = await queueOrder({ quantidade: 1, descontoPercent: 0 });
    await sync('pedidos');
    // The number the server assigned is something the device cannot know: answered.
    const accepted = (await local('pedidos', id)) as { status: string; order: { id: number; numPedSar: number } };
    expect(accepted.status).toBe('pending_approval');
    expect(accepted.order.numPedSar).toEqual(expect.any(Number));
    expect(conflicts.slice(before)).toEqual([{ collection: 'pedidos', id }]);
    // The client's last order date reaches the phone with the order.
    await sync('clientes');
    const client = (await local('clientes', String(idCliente))) as { lastOrderAt: string };
    expect(Date.now() - new Date(client.lastOrderAt).getTime()).toBeLessThan(60_000);

    await api(supervisor, 'POST', `/orders/${accepted.order.id}/approve`);
    await sync('pedidos');
    expect(await local('pedidos', id)).toMatchObject({ status: 'approved' });
    await db.pool.query(
      `update pedidos_venda set situacao = 'F' where id_pedido = (select erp_id_pedido from app.pedidos where id = $1)`,
      [accepted.order.id],
    );
    await api(manager, 'POST', '/catalog/sync');
    await sync('pedidos');
    expect(await local('pedidos', id)).toMatchObject({ status: 'invoiced' });
  });

  it('a refused card keeps its place on the phone with the reason; the rest of the batch is applied', async () => {
    const foreign = (
      await db.pool.query(
        'select id_cliente from app.vw_clientes where id_empresa = $1 and cod_vendedor <> $2 limit 1',
        [t1, rep],
      )
    ).rows[0].id_cliente;
    const card = (over: Record<string, unknown>) => ({
      id: randomUUID(),
      estagio: 'lead',
      idCliente: null,
      nomeCliente: null,
      nomeProspect: null,
      empresaProspect: null,
      idPedido: null,
      valor: null,
      previsaoFechamento: null,
      observacoes: null,
      motivoPerda: null,
      criadoEm: new Date().toISOString(),
      atualizadoEm: new Date().toISOString(),
      ...over,
    });
    const before = conflicts.length;
    const good = card({ nomeProspect: 'Empório Três Irmãos' });
    const refused = card({ idCliente: foreign });
    await collection('funil').bulkInsert([good, refused]);
    await sync('funil');
    // An accepted write is not a conflict; the refusal is, and the card stays with its reason.
    expect(conflicts.slice(before)).toEqual([{ collection: 'funil', id: refused.id }]);
    expect((await db.pool.query('select 1 from app.oportunidades where id = $1', [good.id])).rowCount).toBe(1);
    expect(await local('funil', refused.id)).toMatchObject({ recusa: { code: 'CLIENT_NOT_IN_PORTFOLIO' } });
    // The rep fixes it: a prospect instead of the client. It is created.
    const doc = await collection('funil').findOne(refused.id).exec();
    await doc?.incrementalPatch({
      idCliente: null,
      nomeProspect: 'Cliente que saiu da carteira',
      recusa: null,
      atualizadoEm: new Date().toISOString(),
    });
    await sync('funil');
    expect((await db.pool.query('select 1 from app.oportunidades where id = $1', [refused.id])).rowCount).toBe(1);
    // Moving the good card offline (with the device's time, as docs/sync.md asks) is taken as
    // sent: no conflict, and the server holds exactly what the phone holds.
    const moved = conflicts.length;
    await (await collection('funil').findOne(good.id).exec())?.incrementalPatch({
      estagio: 'proposta',
      atualizadoEm: new Date().toISOString(),
    });
    await sync('funil');
    expect(conflicts.length).toBe(moved);
    expect(await local('funil', good.id)).toMatchObject({ estagio: 'proposta' });
  });

  it('a reply written offline to a ticket resolved meanwhile stays on the phone with the reason', async () => {
    const id = randomUUID();
    const erpOrder = await db.pool.query(
      `select num_pedido from pedidos_venda where id_empresa in (select id_filial from app.vw_empresas where id_empresa = $1)
          and cod_vendedor = $2 order by id_pedido limit 1`,
      [t1, rep],
    );
    const message = (texto: string) => ({
      id: randomUUID(),
      autorTipo: 'representante',
      autorNome: 'rep@stock.test',
      texto,
      criadoEm: new Date().toISOString(),
    });
    await collection('chamados').insert({
      id,
      idChamado: null,
      idPedido: null,
      numPedSar: null,
      numPedErp: erpOrder.rows[0].num_pedido,
      idCliente: null,
      nomeCliente: null,
      assunto: 'Boleto',
      status: 'aberto',
      mensagens: [message('Preciso da segunda via')],
      criadoEm: new Date().toISOString(),
      atualizadoEm: new Date().toISOString(),
    });
    await sync('chamados');
    const opened = (await local('chamados', id)) as { idChamado: number; mensagens: unknown[] };
    expect(opened.idChamado).toEqual(expect.any(Number));
    await api(manager, 'POST', `/ger/chamados/${opened.idChamado}/resolver`);
    const late = message('Ainda não chegou 😟');
    await (await collection('chamados').findOne(id).exec())?.incrementalPatch({
      mensagens: [...opened.mensagens, late],
    });
    await sync('chamados');
    const after = (await local('chamados', id)) as { status: string; mensagens: Record<string, unknown>[] };
    expect(after.status).toBe('resolvido');
    expect(after.mensagens.at(-1)).toMatchObject({ id: late.id, texto: late.texto, recusa: { code: 'TICKET_CLOSED' } });
  });

  it('an order refused for flex comes back with its typed reason, is fixed, resent and created once', async () => {
    await knownCeiling(db.pool, { idEmpresa: t1, codVendedor: rep }, 7);
    await api(manager, 'PUT', '/catalog/company/money-rules', {
      creditPolicy: 'flag',
      flexCreditSharePercent: 50,
      flexMaxBeyondCeilingPoints: 5,
    });
    const before = conflicts.length;
    // 9 % on a 7 % ceiling, queued offline by a rep whose balance is empty.
    const id = await queueOrder({ quantidade: 3, descontoPercent: 9 });
    await sync('pedidos');
    expect(conflicts.slice(before)).toEqual([{ collection: 'pedidos', id }]);
    const refused = (await local('pedidos', id)) as { status: string; reasons: Record<string, unknown>[] };
    expect(refused.status).toBe('refused');
    expect(refused.reasons).toEqual([
      expect.objectContaining({
        code: 'FLEX_BALANCE_INSUFFICIENT',
        line: 1,
        idProduto,
        flex: expect.objectContaining({ saldo: 0, necessario: expect.any(Number) }),
        message: expect.stringContaining('saldo flex'),
      }),
    ]);
    // The rep lowers the discount to the ceiling and queues it again, from the same document.
    const doc = await collection('pedidos').findOne(id).exec();
    await doc?.incrementalPatch({
      status: 'queued',
      draft: { idCliente, itens: [{ idProduto, quantidade: 3, descontoPercent: 7 }] },
      reasons: [],
      updatedAt: new Date().toISOString(),
    });
    await sync('pedidos');
    const accepted = (await local('pedidos', id)) as { status: string; order: { id: number } };
    expect(accepted.status).toBe('pending_approval');
    // Once: one key, one order, and nothing moved on the balance.
    const keys = await db.pool.query('select id_pedido from app.chaves_idempotencia where chave = $1', [id]);
    expect(keys.rows).toEqual([{ id_pedido: accepted.order.id }]);
    const moves = await db.pool.query('select 1 from app.flex_lancamentos where id_pedido = $1', [accepted.order.id]);
    expect(moves.rowCount).toBe(0);
  });
});
