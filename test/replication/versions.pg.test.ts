// A device across versions (docs/sync.md, "Versions"): a store written by the first release is
// migrated when the new app opens it, and the work queued offline on the old one still reaches
// the server exactly once; a server that no longer serves the app's protocol (426) stops the
// replication without touching the outbox, which leaves once the server accepts the app.
// Real server over HTTP on a real LATIN1 PostgreSQL; the device is the real client store on
// fake-indexeddb. The 426 comes from test/support/version-gate.ts in front of the app, the
// server's check as docs/sync.md specifies it.
import { SYNC_COLLECTIONS, SYNC_PROTOCOL_VERSION, type SyncCollection } from '@campo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CampoDatabase,
  type ClientDoc,
  MIGRATIONS,
  type OpportunityDoc,
  type OrderDoc,
  openCampoDb,
  type ProductDoc,
  REFETCH_SINCE,
  SCHEMAS,
  type SettingsDoc,
  type TicketDoc,
} from '../../client/src/db/index.ts';
import { SCHEMAS_V0 } from '../fixtures/schemas-v0.ts';
import { SCHEMAS_V1 } from '../fixtures/schemas-v1.ts';
import { SCHEMAS_V2 } from '../fixtures/schemas-v2.ts';
import { SCHEMAS_V3 } from '../fixtures/schemas-v3.ts';
import { SCHEMAS_V4 } from '../fixtures/schemas-v4.ts';
import { SCHEMAS_V5 } from '../fixtures/schemas-v5.ts';
import { SCHEMAS_V6 } from '../fixtures/schemas-v6.ts';
import { ordersOf } from '../support/builders.ts';
import { orderableClient, provisionedErp } from '../support/erp.ts';
import { useTestDatabase } from '../support/pg.ts';
import { eventually, openDevice, servedApp } from '../support/replication.ts';
import { apiAs, logInAs } from '../support/session.ts';
import { versionGate } from '../support/version-gate.ts';

const db = useTestDatabase();

type Schemas = Partial<Record<SyncCollection, { schema: unknown }>>;
const released = (schemas: object) =>
  Object.fromEntries(Object.entries(schemas).map(([c, schema]) => [c, { schema }])) as Schemas;
/** Every released store version's schemas: each must upgrade to the current one. */
const RELEASED: [number, Schemas][] = [
  [0, released(SCHEMAS_V0)],
  [1, released(SCHEMAS_V1)],
  [2, released(SCHEMAS_V2)],
  [3, released(SCHEMAS_V3)],
  [4, released(SCHEMAS_V4)],
  [5, released(SCHEMAS_V5)],
  [6, released(SCHEMAS_V6)],
];

/**
 * What the migrations must keep: a client's payment terms (2), open amounts (4), open
 * titles (5), mix (6), visit days and position (7), a product's stock (2), the
 * representative's flex balance (4).
 */
interface ServerFields {
  client: Pick<
    ClientDoc,
    | 'id'
    | 'paymentTermId'
    | 'paymentTermIds'
    | 'openReceivables'
    | 'openOrders'
    | 'titulos'
    | 'titulosAlem'
    | 'mix'
    | 'diasVisita'
    | 'posicao'
  >;
  product: Pick<ProductDoc, 'id' | 'stock'>;
  flex: SettingsDoc['flex'];
}

const clientFields = (c: ClientDoc): ServerFields['client'] => ({
  id: c.id,
  paymentTermId: c.paymentTermId,
  paymentTermIds: c.paymentTermIds,
  openReceivables: c.openReceivables,
  openOrders: c.openOrders,
  titulos: c.titulos,
  titulosAlem: c.titulosAlem,
  mix: c.mix,
  diasVisita: c.diasVisita,
  posicao: c.posicao,
});
const flexOf = async (db: CampoDatabase) =>
  ((await db.collections.ajustes?.findOne('flex').exec())?.toJSON() as SettingsDoc | undefined)?.flex;

/**
 * A client with a default payment term (not `busy`, whose open orders the tests move) and a
 * product with stock, and the flex balance, as the store holds them.
 */
async function serverFields(db: CampoDatabase, busy: number): Promise<ServerFields> {
  const clients = ((await db.collections.clientes?.find().exec()) ?? []).map((d) => d.toJSON() as ClientDoc);
  const products = ((await db.collections.produtos?.find().exec()) ?? []).map((d) => d.toJSON() as ProductDoc);
  const client = clients.find(
    (c) =>
      c.paymentTermId != null &&
      typeof c.openOrders === 'number' &&
      (c.titulos?.length ?? 0) > 0 &&
      (c.mix?.length ?? 0) > 0 &&
      (c.diasVisita?.length ?? 0) > 0 &&
      Number(c.id) !== busy,
  );
  const product = products.find((p) => p.stock != null);
  const flex = await flexOf(db);
  if (!client || !product || !flex?.lancamentos.length) {
    throw new Error(
      'the store holds no client with a payment term, open titles, a mix and visit days, no product with stock or no flex balance',
    );
  }
  return { client: clientFields(client), product: { id: product.id, stock: product.stock }, flex };
}

/** The same client's and product's fields and the flex balance as the store holds them now. */
async function fieldsNow(db: CampoDatabase, held: ServerFields): Promise<ServerFields> {
  const client = (await db.collections.clientes?.findOne(held.client.id).exec())?.toJSON() as ClientDoc;
  const product = (await db.collections.produtos?.findOne(held.product.id).exec())?.toJSON() as ProductDoc;
  return { client: clientFields(client), product: { id: product.id, stock: product.stock }, flex: await flexOf(db) };
}

/** A fetch that counts the pulls from the beginning (no checkpoint), per collection. */
function pullStarts() {
  const starts = new Map<string, number>();
  const counting: typeof fetch = (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const pull = /\/sync\/([a-z]+)\/pull$/.exec(url.pathname);
    if (pull?.[1] && !url.searchParams.has('checkpoint')) starts.set(pull[1], (starts.get(pull[1]) ?? 0) + 1);
    return fetch(input, init);
  };
  return { starts, counting };
}

describe('client replication across versions', () => {
  const gate = versionGate(1);
  let served: Awaited<ReturnType<typeof servedApp>>;
  let t1: number;
  let rep: number;
  let token: string;
  let idCliente: number;
  let idProduto: number;
  const user = () => ({ id: 1, idEmpresa: t1, role: 'representative' as const });

  const ordersUnderKey = async (key: string) =>
    (await db.pool.query('select id_pedido from app.chaves_idempotencia where chave = $1', [key])).rows.length;
  const ordersOfRep = () => ordersOf(db.pool, t1, rep);

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    [t1] = erp.tenants as [number];
    const first = erp.reps.find((r) => r.idEmpresa === t1);
    if (!first) throw new Error('no representative in the fixture');
    rep = first.codVendedor;
    ({ idCliente, idProduto } = await orderableClient(db.pool, { idEmpresa: t1, codVendedor: rep }));
    served = await servedApp(db, { wrap: gate.wrap });
    token = await logInAs(served.app, db.pool, {
      login: 'rep@versions.test',
      role: 'representative',
      idEmpresa: t1,
      codVendedor: rep,
    });
    // A flex balance with an entry: the ajustes document 'flex' the store must keep.
    const manager = await logInAs(served.app, db.pool, { login: 'ger@versions.test', role: 'manager', idEmpresa: t1 });
    const adjusted = await apiAs(served.app, manager)('POST', `/flex/balances/${rep}/adjustments`, {
      valor: 42.5,
      motivo: 'Campanha',
    });
    expect(adjusted.status, await adjusted.clone().text()).toBe(201);
  });

  afterAll(async () => {
    await served?.close();
  });

  const draft = (observacao: string) => ({
    idCliente,
    itens: [{ idProduto, quantidade: 3, descontoPercent: 0 }],
    observacao,
  });

  it('names its protocol version on every pull, push and stream request', async () => {
    const seenBefore = gate.seen.length;
    const device = await openDevice({ user: user(), baseUrl: served.server.url, token });
    try {
      await device.replication.awaitInitialSync();
      const id = (await device.outbox?.queueOrder(draft('versão no cabeçalho'))) as string;
      await eventually(
        'the order to be accepted',
        async () => (await device.outbox?.listOutbox())?.find((e) => e.id === id)?.state === 'accepted',
      );
      const seen = gate.seen.slice(seenBefore);
      // Pulls of 9 collections, at least one push and the stream.
      expect(seen.length).toBeGreaterThanOrEqual(11);
      expect(new Set(seen)).toEqual(new Set([SYNC_PROTOCOL_VERSION]));
    } finally {
      await device.close();
    }
  });

  it.each(RELEASED)(
    'an upgrade never loses local work: a store of version %i is migrated and its offline work reaches the server once',
    async (version, schemas) => {
      // Build N: a released version's schemas. It syncs, then goes offline and keeps working.
      const old = await openDevice({ user: user(), baseUrl: served.server.url, token, schemas });
      const indexedDb = old.indexedDb;
      let orderId: string;
      let cardId: string;
      let ticketId: string;
      let idPedido: number;
      let placedId: string;
      let pulled: ServerFields;
      try {
        const outbox = old.outbox;
        if (!outbox) throw new Error('no outbox');
        await old.replication.awaitInitialSync();
        // What today's server sent this old store, beyond the fields its schemas list.
        pulled = await serverFields(old.db, idCliente);
        // Something to reply to and something to move, held by the server before going offline.
        const placed = await outbox.queueOrder(draft('pedido anterior'));
        placedId = placed;
        idPedido = await eventually('the first order on the server', async () => {
          const doc = (await old.db.collections.pedidos?.findOne(placed).exec())?.toJSON() as OrderDoc | undefined;
          return doc?.order?.id;
        });
        cardId = await outbox.createOpportunity({ nomeProspect: 'Empório São João', valor: 800 });
        ticketId = await outbox.createTicket({
          idPedido,
          assunto: 'Prazo',
          mensagem: 'Quando chega?',
          autorNome: 'Rep',
        });
        await eventually('the ticket and the card on the server', async () => {
          const t = (await old.db.collections.chamados?.findOne(ticketId).exec())?.toJSON() as TicketDoc | undefined;
          const card = await db.pool.query('select 1 from app.oportunidades where id::text = $1', [cardId]);
          return !!t?.idChamado && card.rows.length === 1;
        });

        // Offline: an order, a funnel move and a ticket reply wait on the phone.
        await served.server.stop();
        orderId = await outbox.queueOrder(draft('fila da versão antiga'));
        await outbox.moveOpportunity(cardId, 'proposta');
        await outbox.replyTicket(ticketId, 'Alguma novidade? ✅', 'Rep');
        await eventually('the old app to notice it is offline', () => old.replication.syncState.get().online === false);
      } finally {
        await old.close();
      }

      // Build N+1 opens the same phone's store: the migration runs before anything reads it.
      await served.server.start();
      const before = await ordersOfRep();
      const { starts, counting } = pullStarts();
      const device = await openDevice({ user: user(), baseUrl: served.server.url, token, indexedDb, fetch: counting });
      try {
        await eventually('the migrated order to be accepted', async () => {
          const doc = (await device.db.collections.pedidos?.findOne(orderId).exec())?.toJSON() as OrderDoc | undefined;
          return doc?.status === 'pending_approval';
        });
        await device.replication.syncNow();
        const card = await db.pool.query<{ estagio: string }>(
          'select estagio from app.oportunidades where id::text = $1',
          [cardId],
        );
        expect(card.rows[0]?.estagio).toBe('proposta');
        const local = (await device.db.collections.funil?.findOne(cardId).exec())?.toJSON() as OpportunityDoc;
        expect(local.estagio).toBe('proposta');
        const held = await eventually('the reply on the server', async () => {
          const t = (await device.db.collections.chamados?.findOne(ticketId).exec())?.toJSON() as TicketDoc | undefined;
          return t?.mensagens.length === 2 ? t : undefined;
        });
        const texts = await db.pool.query<{ texto: string }>(
          'select texto from app.chamado_mensagens where id_chamado = $1 order by id',
          [held.idChamado],
        );
        expect(texts.rows).toHaveLength(2);
        expect(held.mensagens.map((m) => m.texto)).toEqual(['Quando chega?', 'Alguma novidade? ✅']);
        expect(await ordersUnderKey(orderId)).toBe(1);
        expect(await ordersOfRep()).toBe(before + 1);
        // The payment terms and the stock the old store held are still there: the cart
        // pre-selects the client's term and the catalog shows the stock.
        await device.replication.awaitInitialSync();
        expect(await fieldsNow(device.db, pulled)).toEqual(pulled);
        // The order the server holds, with what the ERP invoiced of it (version 5): none yet.
        const placedDoc = (await device.db.collections.pedidos?.findOne(placedId).exec())?.toJSON() as OrderDoc;
        expect(placedDoc.order?.invoices).toEqual([]);
        expect(placedDoc.order?.itens.map((l) => [l.quantidadeFaturada, l.quantidadeAberta])).toEqual([[0, 3]]);
        // Collections whose server fields came after this store's version were pulled again
        // from the beginning, once; the others were not. Since version 5 that includes the
        // outbox's pedidos (the orders' invoices): the queued order still reached the server once.
        for (const c of ['produtos', 'clientes', 'ajustes', 'funil', 'chamados', 'pedidos'] as const) {
          expect(starts.get(c) ?? 0, c).toBe((REFETCH_SINCE[c] ?? 0) > version ? 1 : 0);
        }
      } finally {
        await device.close();
      }
    },
  );

  it('a phone an earlier release emptied gets its documents again, once, with its outbox untouched', async () => {
    const { starts, counting } = pullStarts();
    // Store version 1, online against today's server; then, offline, an order and a new card.
    const old = await openDevice({ user: user(), baseUrl: served.server.url, token, schemas: released(SCHEMAS_V1) });
    const indexedDb = old.indexedDb;
    let held: ServerFields;
    let orderId: string;
    let cardId: string;
    try {
      const outbox = old.outbox;
      if (!outbox) throw new Error('no outbox');
      await old.replication.awaitInitialSync();
      held = await serverFields(old.db, idCliente);
      const placed = await outbox.queueOrder(draft('antes da atualização'));
      await eventually(
        'the first order to be accepted',
        async () => (await outbox.listOutbox()).find((e) => e.id === placed)?.state === 'accepted',
      );
      await served.server.stop();
      orderId = await outbox.queueOrder(draft('na fila da versão 1'));
      cardId = await outbox.createOpportunity({ nomeProspect: 'Padaria Reaberta', valor: 300 });
      await eventually('the old app to notice it is offline', () => old.replication.syncState.get().online === false);
    } finally {
      await old.close();
    }

    // The release that shipped the blanket-null migration to store version 2 opens it offline:
    // the terms and the stock are gone, and its checkpoints are past those documents.
    const broken = Object.fromEntries(
      SYNC_COLLECTIONS.map((c) => [
        c,
        {
          schema: SCHEMAS[c],
          migrationStrategies: {
            ...MIGRATIONS[c],
            ...(c === 'produtos' ? { 2: (d: object) => ({ ...d, stock: null }) } : {}),
            ...(c === 'clientes' ? { 2: (d: object) => ({ ...d, paymentTermId: null, paymentTermIds: null }) } : {}),
          },
        },
      ]),
    );
    const emptied = await openCampoDb({ user: user(), indexedDb, multiInstance: false, schemas: broken });
    try {
      expect(await fieldsNow(emptied, held)).toEqual({
        ...held,
        client: { ...held.client, paymentTermId: null, paymentTermIds: null },
        product: { id: held.product.id, stock: null },
      });
    } finally {
      await emptied.close();
    }

    // This release: the collections that gained server fields are pulled again.
    await served.server.start();
    const before = await ordersOfRep();
    const device = await openDevice({ user: user(), baseUrl: served.server.url, token, indexedDb, fetch: counting });
    try {
      await device.replication.awaitInitialSync();
      expect(await fieldsNow(device.db, held)).toEqual(held);
      await eventually('the queued order to be accepted', async () => {
        const e = (await device.outbox?.listOutbox())?.find((x) => x.id === orderId);
        return e?.state === 'accepted';
      });
      await device.replication.syncNow();
      expect(await ordersUnderKey(orderId)).toBe(1);
      expect(await ordersOfRep()).toBe(before + 1);
      const card = await db.pool.query('select 1 from app.oportunidades where id::text = $1', [cardId]);
      expect(card.rows).toHaveLength(1);
      const local = (await device.db.collections.funil?.findOne(cardId).exec())?.toJSON() as OpportunityDoc;
      expect(local.nomeProspect).toBe('Padaria Reaberta');
      // Once each. pedidos too since version 5 (the orders' invoices): its queued order was
      // still pushed once, above.
      expect(starts.get('produtos')).toBe(1);
      expect(starts.get('clientes')).toBe(1);
      expect(starts.get('pedidos')).toBe(1);
      // A card waiting to be pushed is not pulled over: version 1 already had funil's fields.
      expect(starts.get('funil')).toBeUndefined();
    } finally {
      await device.close();
    }

    // The next start resumes from the stored checkpoints: nothing is pulled again.
    starts.clear();
    const again = await openDevice({ user: user(), baseUrl: served.server.url, token, indexedDb, fetch: counting });
    try {
      await again.replication.awaitInitialSync();
      await again.replication.syncNow();
      expect(await fieldsNow(again.db, held)).toEqual(held);
      expect(starts.get('produtos')).toBeUndefined();
      expect(starts.get('clientes')).toBeUndefined();
      expect(starts.get('ajustes')).toBeUndefined();
      expect(starts.get('pedidos')).toBeUndefined();
    } finally {
      await again.close();
    }
  });

  it('a server that needs a newer app answers 426: replication stops, the outbox stays, and it is pushed once the server accepts the app', async () => {
    const before = await ordersOfRep();
    gate.minVersion = SYNC_PROTOCOL_VERSION + 1;
    const refusedBefore = gate.refused;
    const first = await openDevice({ user: user(), baseUrl: served.server.url, token });
    const indexedDb = first.indexedDb;
    let orderId: string;
    try {
      const outbox = first.outbox;
      if (!outbox) throw new Error('no outbox');
      orderId = await outbox.queueOrder(draft('esperando atualização'));
      const state = await eventually('the update to be required', () => {
        const s = first.replication.syncState.get();
        return s.updateRequired ? s : undefined;
      });
      expect(state.updateRequired).toEqual({ minVersion: SYNC_PROTOCOL_VERSION + 1 });
      expect(state.error).toMatchObject({ kind: 'update', message: 'Atualize o app para continuar sincronizando.' });
      // Stopped, not retrying every few seconds against a server that will keep refusing.
      expect(gate.refused).toBeGreaterThan(refusedBefore);
      await eventually('every replication to stop', () =>
        Object.values(first.replication.states).every((s) => s.isStopped()),
      );
      // The outbox is untouched.
      const entries = await outbox.listOutbox();
      expect(entries.find((e) => e.id === orderId)).toMatchObject({ state: 'queued', status: 'queued' });
      expect(await ordersUnderKey(orderId)).toBe(0);
    } finally {
      await first.close();
    }

    // The app is updated (here: the server accepts this version again) and reopens the store.
    gate.minVersion = 1;
    const device = await openDevice({ user: user(), baseUrl: served.server.url, token, indexedDb });
    try {
      await eventually('the queued order to be accepted', async () => {
        const e = (await device.outbox?.listOutbox())?.find((x) => x.id === orderId);
        return e?.state === 'accepted';
      });
      expect(device.replication.syncState.get().updateRequired).toBeNull();
      expect(await ordersUnderKey(orderId)).toBe(1);
      expect(await ordersOfRep()).toBe(before + 1);
    } finally {
      await device.close();
    }
  });
});
