// A write before the first build of a collection never makes a phone's initial sync partial
// (docs/sync.md, "When the log is refreshed"). On a fresh install, every write the app makes
// logs its own documents in the writing transaction: an order its order and its client's
// document, a card, a ticket, a new client, a visit. The first pull of a collection used to take a log
// that held anything as built, and a stock client ended its initial sync with those one or two
// documents of a portfolio of 150, until the scheduled refresh. Here every collection gets such
// a write before anyone pulls it, then a stock RxDB client's initial sync, in small pages, must
// hold the whole collection.
import { randomUUID } from 'node:crypto';
import { cnpjCheckDigits, SYNC_COLLECTIONS, type SyncCollection } from '@campo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogDocuments } from '../../server/src/catalog/documents.ts';
import { collectionLockKey, firstBuildLockKey, touchSqlDocuments } from '../../server/src/changelog/changelog.ts';
import { createDb } from '../../server/src/db/kysely.ts';
import { withScope } from '../../server/src/db/scope.ts';
import { definitionOf } from '../../server/src/sync/collections.ts';
import { orderableClient, provisionedErp } from '../support/erp.ts';
import { useTestDatabase } from '../support/pg.ts';
import { eventually, servedApp } from '../support/replication.ts';
import { logInAs } from '../support/session.ts';
import { stockInitialSync } from '../support/stock-client.ts';

const db = useTestDatabase();

/** Small pages: the phone stopped after one or two documents of a page of 7. */
const BATCH = 3;

describe('a write before the first pull of a collection', () => {
  let served: Awaited<ReturnType<typeof servedApp>>;
  let t1: number;
  let t2: number;
  let rep: number;
  const tokens = {} as Record<'rep' | 'manager' | 'rep2' | 'supervisor2', string>;

  const api = async (token: string, method: string, path: string, body: unknown, key?: string) => {
    const res = await fetch(`${served.server.url}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(key ? { 'idempotency-key': key } : {}),
      },
      body: JSON.stringify(body),
    });
    expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBeLessThan(300);
    return (await res.json()) as Record<string, unknown>;
  };

  /** The ids a full build holds for the reader: tenant-wide documents and their own (every one for a supervisor). */
  async function whole(colecao: SyncCollection, idEmpresa: number, codVendedor: number | null): Promise<string[]> {
    const definition = definitionOf(colecao);
    const docs = await withScope(createDb(db.pool), { idEmpresa, codVendedor: null }, async (tx) =>
      definition.sql
        ? (await definition.sql.documents(idEmpresa, null).execute(tx)).rows
        : await definition.load(tx, idEmpresa, null),
    );
    const mine = docs.filter((d) => codVendedor === null || d.escopo === null || d.escopo === codVendedor);
    return [...new Set(mine.map((d) => d.documento))].sort();
  }

  /** How many documents of the collection the log holds for the reader. */
  async function logged(colecao: SyncCollection, idEmpresa: number, codVendedor: number | null): Promise<number> {
    const { rows } = await db.pool.query<{ n: number }>(
      `select count(distinct documento)::int as n from app.sync_alteracoes
        where id_empresa = $1 and colecao = $2 and ($3::integer is null or escopo is null or escopo = $3)`,
      [idEmpresa, colecao, codVendedor],
    );
    return rows[0]?.n ?? 0;
  }

  /**
   * Documents of the app's own tables that the log does not hold, as an upgrade from a
   * release that did not replicate the collection leaves them: written through the API, then
   * their log rows removed.
   */
  async function unlogged(colecao: SyncCollection, write: () => Promise<unknown>): Promise<void> {
    for (let i = 0; i < BATCH + 1; i++) await write();
    await db.pool.query('delete from app.sync_alteracoes where id_empresa = $1 and colecao = $2', [t1, colecao]);
  }

  let seq = 0;
  const newCnpj = () => {
    const base = `98${String(++seq).padStart(10, '0')}`;
    return `${base}${cnpjCheckDigits(base)}`;
  };

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    [t1, t2] = erp.tenants as [number, number];
    const first = erp.reps.find((r) => r.idEmpresa === t1);
    const second = erp.reps.find((r) => r.idEmpresa === t2);
    if (!first || !second) throw new Error('the tiny fixture lacks a representative in two tenants');
    rep = first.codVendedor;
    served = await servedApp(db);
    const login = (name: string, user: Omit<Parameters<typeof logInAs>[2], 'login'>) =>
      logInAs(served.app, db.pool, { ...user, login: `${name}@primeira.test` });
    tokens.rep = await login('rep', { role: 'representative', idEmpresa: t1, codVendedor: rep });
    tokens.manager = await login('ger', { role: 'manager', idEmpresa: t1 });
    tokens.rep2 = await login('rep2', { role: 'representative', idEmpresa: t2, codVendedor: second.codVendedor });
    tokens.supervisor2 = await login('sup2', {
      role: 'supervisor',
      idEmpresa: t2,
      codSupervisor: second.codSupervisor,
    });

    // Nobody has pulled anything yet. Every write below logs into a collection never built.
    const sale = await orderableClient(db.pool, { idEmpresa: t1, codVendedor: rep });
    const placeOrder = () =>
      api(
        tokens.rep,
        'POST',
        '/orders',
        { idCliente: sale.idCliente, itens: [{ idProduto: sale.idProduto, quantidade: 1, descontoPercent: 0 }] },
        randomUUID(),
      );
    await unlogged('pedidos', placeOrder);
    // The case: an order logs itself into pedidos and its client into clientes.
    const order = await placeOrder();
    await unlogged('funil', () => api(tokens.rep, 'POST', '/funil', { id: randomUUID(), nomeProspect: 'Padaria' }));
    await api(tokens.rep, 'POST', '/funil', { id: randomUUID(), nomeProspect: 'Mercado São José' });
    const ticket = () =>
      api(tokens.rep, 'POST', '/chamados', { idPedido: order.id, assunto: 'Entrega', mensagem: 'Quando?' });
    await unlogged('chamados', ticket);
    await ticket();
    const pauta = await db.pool.query('select id_pauta from app.vw_pautas where id_empresa = $1 limit 1', [t1]);
    const newClient = () =>
      api(tokens.rep, 'POST', '/clients', {
        id: randomUUID(),
        razaoSocial: 'Padaria São João',
        documento: newCnpj(),
        inscricaoEstadual: 'isento',
        cep: '01310-100',
        endereco: 'Avenida Paulista',
        numero: '1000',
        bairro: 'Bela Vista',
        cidade: 'São Paulo',
        uf: 'SP',
        idPauta: pauta.rows[0].id_pauta,
      });
    await unlogged('cadastros', newClient);
    // A new client logs itself into cadastros and its ERP record into clientes.
    await newClient();
    // A visit (check-in, then check-out with a reason) logs itself into visitas.
    const reasons = await fetch(`${served.server.url}/api/v1/visit-reasons`, {
      headers: { authorization: `Bearer ${tokens.rep}` },
    });
    const idMotivo = ((await reasons.json()) as { items: { id: number }[] }).items[0]?.id;
    const visit = async () => {
      const id = randomUUID();
      const em = new Date().toISOString();
      await api(tokens.rep, 'POST', '/visits', { id, idCliente: sale.idCliente, em, posicao: null });
      await api(tokens.rep, 'POST', `/visits/${id}/checkout`, { em, idMotivo });
    };
    await unlogged('visitas', visit);
    await visit();
    // A manager's rule or settings change rebuilds those collections whole in its transaction.
    await api(tokens.manager, 'POST', '/politicas/regras', {
      descricao: 'Semana do cliente',
      percent: 3,
      vigenciaInicio: '2020-01-01',
      vigenciaFim: '2999-12-31',
    });
    await api(tokens.manager, 'PUT', '/dashboard/manager/meta-positivacao-dia', { metaPositivacaoDia: 4 });
    // No write of the app logs a product today: this one stands for any that would.
    await withScope(createDb(db.pool), { idEmpresa: t1, codVendedor: null }, (tx) =>
      touchSqlDocuments(tx, t1, catalogDocuments, null, [sale.idProduto]),
    );

    // Another tenant, read by a supervisor (the whole tenant): one order before any pull.
    const sale2 = await orderableClient(db.pool, { idEmpresa: t2, codVendedor: second.codVendedor });
    await api(
      tokens.rep2,
      'POST',
      '/orders',
      { idCliente: sale2.idCliente, itens: [{ idProduto: sale2.idProduto, quantidade: 1, descontoPercent: 0 }] },
      randomUUID(),
    );
  });

  afterAll(async () => {
    await served?.close();
  });

  it.each(SYNC_COLLECTIONS)('%s: a representative’s initial sync holds the whole collection', async (colecao) => {
    const expected = await whole(colecao, t1, rep);
    const before = await logged(colecao, t1, rep);
    expect(before, 'a write logged into it before the first pull').toBeGreaterThan(0);
    // regras and ajustes are rebuilt whole by the manager's change; the others hold a fraction.
    if (colecao !== 'regras' && colecao !== 'ajustes') expect(before).toBeLessThan(expected.length);

    const { ids, pages } = await stockInitialSync({
      baseUrl: served.server.url,
      token: tokens.rep,
      collection: colecao,
      batchSize: BATCH,
    });
    expect(ids).toEqual(expected);
    expect(pages.length).toBe(Math.floor(expected.length / BATCH) + 1);
    const built = await db.pool.query('select 1 from app.sync_construidas where id_empresa = $1 and colecao = $2', [
      t1,
      colecao,
    ]);
    expect(built.rowCount).toBe(1);
  });

  it('clientes: a supervisor’s initial sync holds every client of the tenant', async () => {
    const expected = await whole('clientes', t2, null);
    const before = await logged('clientes', t2, null);
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(expected.length);
    const { ids } = await stockInitialSync({
      baseUrl: served.server.url,
      token: tokens.supervisor2,
      collection: 'clientes',
      batchSize: 7,
    });
    expect(ids).toEqual(expected);
  });

  it('devices starting at once wait for one build, and each gets the whole collection', async () => {
    const expected = await whole('produtos', t2, null);
    await withScope(createDb(db.pool), { idEmpresa: t2, codVendedor: null }, async (tx) => {
      const one = await catalogDocuments.documents(t2, null).execute(tx);
      await touchSqlDocuments(tx, t2, catalogDocuments, null, [Number(one.rows[0]?.documento)]);
    });
    expect(await logged('produtos', t2, null)).toBe(1);
    // A write of products in progress holds the build at its refresh lock, so the devices
    // are all seen waiting: one for the refresh lock, the others for the build.
    const writers = [await db.pool.connect(), await db.pool.connect()] as const;
    const writeLock = (writer: (typeof writers)[number]) =>
      writer.query('select pg_advisory_xact_lock_shared(hashtext($1), $2)', [collectionLockKey('produtos'), t2]);
    const devices = 4;
    try {
      for (const w of writers) await w.query('begin');
      await writeLock(writers[0]);
      const syncs = Promise.all(
        Array.from({ length: devices }, () =>
          stockInitialSync({ baseUrl: served.server.url, token: tokens.rep2, collection: 'produtos', batchSize: 25 }),
        ),
      );
      const waiting = (key: string) =>
        db.pool
          .query<{ n: number }>(
            `select count(*)::int as n from pg_locks
              where locktype = 'advisory' and not granted and classid = hashtext($1)::oid and objid = $2`,
            [key, t2],
          )
          .then((r) => r.rows[0]?.n ?? 0);
      const seen = await eventually('every device waiting', async () => {
        const refresh = await waiting(collectionLockKey('produtos'));
        const build = await waiting(firstBuildLockKey('produtos'));
        return refresh + build === devices && { refresh, build };
      });
      expect(seen).toEqual({ refresh: 1, build: devices - 1 });
      // A second write queues behind the build and holds the refresh lock after it: the other
      // devices finish while it does, so none of them refreshed the collection again.
      const second = writeLock(writers[1]);
      await writers[0].query('commit');
      await second;
      let deadline: NodeJS.Timeout | undefined;
      const rebuilt = new Promise<never>((_, reject) => {
        deadline = setTimeout(() => reject(new Error('a device is refreshing the collection again')), 15_000);
      });
      try {
        for (const { ids } of await Promise.race([syncs, rebuilt])) expect(ids).toEqual(expected);
      } finally {
        clearTimeout(deadline);
      }
      await writers[1].query('commit');
    } finally {
      for (const w of writers) {
        await w.query('rollback').catch(() => undefined);
        w.release();
      }
    }
  });
});
