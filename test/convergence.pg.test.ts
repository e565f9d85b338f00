// The offline-convergence simulation (issue 10). Representatives of one tenant, and one of
// another, each with two phones (real client stores on fake-indexeddb, each in a worker thread
// of its own: RxDB's open-source core opens 13 collections per realm and a representative's
// store opens 9), write offline through the outbox while a seeded PRNG injects faults: a phone
// offline for a while, a push whose answer is lost, a push sent twice, a server restart. Once
// the network heals, every phone must hold exactly what the server holds for its
// representative, every queued order must exist once on the server or be visibly refused or
// discarded on its phone, every visit checked in (issue #42) likewise, with its photo, and no
// phone may hold anything outside its representative's scope.
//
// CONVERGENCE_SEED replays a run (the seed is printed at the start and in every failure);
// CONVERGENCE_OPS (default 100) and CONVERGENCE_REPS (default 2) make it longer and wider.
import type { SyncOpportunity, SyncOrder, SyncTicket, SyncVisit, VisitReason } from '@campo/shared';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampoUser, OutboxEntry } from '../client/src/db/index.ts';
import { checkInRefused, visitIsOpen } from '../client/src/db/outbox.ts';
import { createDb } from '../server/src/db/kysely.ts';
import { refreshAll } from '../server/src/sync/service.ts';
import type { FaultCounts } from './convergence/faulty-fetch.ts';
import {
  comparable,
  type Doc,
  diffDocs,
  intFromEnv,
  type Prng,
  prng,
  seedFromEnv,
  serverDocs,
  sleep,
  withTimeout,
} from './convergence/sim.ts';
import { jpeg } from './fixtures/images.ts';
import { clearForOrders, provisionedErp } from './support/erp.ts';
import { useTestDatabase } from './support/pg.ts';
import { eventually, openWorkerDevice, servedApp, type WorkerDevice } from './support/replication.ts';
import { logInAs } from './support/session.ts';

const SEED = seedFromEnv();
const OPS = intFromEnv('CONVERGENCE_OPS', 100, 1);
const REPS = intFromEnv('CONVERGENCE_REPS', 2, 1);
const tag = `[convergence seed=${SEED}]`;
console.log(`${tag} starting: ${OPS} operations, ${REPS} representatives of one tenant + 1 of another`);

const db = useTestDatabase();

interface OrderableClient {
  idCliente: number;
  products: number[];
}

interface Rep {
  name: string;
  idEmpresa: number;
  codVendedor: number;
  token: string;
  user: CampoUser;
  clients: OrderableClient[];
  devices: Phone[];
}

interface Phone {
  name: string;
  rep: Rep;
  worker: WorkerDevice;
  /** Operation index at which it comes back online; null when online. */
  offlineUntil: number | null;
}

/** Every order the simulation queued, and what it did with it since. */
interface QueuedOrder {
  id: string;
  /** Written in the order's observacao: finds a duplicate even under another key. */
  marker: string;
  rep: Rep;
  phone: Phone;
  resent: number;
  discarded: boolean;
}

const FAULTS = ['offline', 'lostAnswer', 'duplicatePush', 'serverRestart'] as const;
type Fault = (typeof FAULTS)[number];

const STAGES = ['lead', 'proposta', 'negociacao', 'ganho', 'perdido'] as const;

/** A visit as the phone's store holds it: the server's document, its receipt stamps null until it answers. */
type VisitLocal = Omit<SyncVisit, 'entradaRecebidaEm' | 'recusa'> & {
  entradaRecebidaEm: string | null;
  recusa: SyncVisit['recusa'] | null;
};

describe(`offline convergence ${tag}`, () => {
  let served: Awaited<ReturnType<typeof servedApp>>;
  const reps: Rep[] = [];
  const phones: Phone[] = [];
  /** A manager of each tenant: approves orders, as the ERP side of the simulation. */
  const managers = new Map<number, string>();
  /** Each tenant's active reasons for no sale, one of which asks a photo. */
  const reasons = new Map<number, VisitReason[]>();

  /** Representatives with enough portfolio to order: clients unblocked, products priced on their pauta. */
  async function orderableClients(pool: pg.Pool, idEmpresa: number, codVendedor: number): Promise<OrderableClient[]> {
    const { rows } = await pool.query<{ id_cliente: number; produtos: number[] }>(
      `select c.id_cliente, (array_agg(p.id_produto order by p.id_produto))[1:5] as produtos
         from app.vw_clientes c
         join app.vw_precos pr on pr.id_pauta = c.id_pauta and pr.id_empresa = c.id_empresa
         join app.vw_produtos p on p.id_produto = pr.id_produto and p.id_empresa = c.id_empresa and p.ativo
        where c.id_empresa = $1 and c.cod_vendedor = $2
        group by c.id_cliente
        order by c.id_cliente
        limit 3`,
      [idEmpresa, codVendedor],
    );
    // Registered and nothing overdue, so a fair order is accepted.
    for (const r of rows) await clearForOrders(pool, r.id_cliente);
    return rows.map((r) => ({ idCliente: r.id_cliente, products: [...new Set(r.produtos)] }));
  }

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const [t1, t2] = erp.tenants;
    if (t1 === undefined || t2 === undefined) throw new Error(`${tag} the fixture needs two tenants`);
    served = await servedApp(db);
    const candidates = [
      ...erp.reps.filter((r) => r.idEmpresa === t1).map((r) => ({ ...r, home: true })),
      ...erp.reps.filter((r) => r.idEmpresa === t2).map((r) => ({ ...r, home: false })),
    ];
    let home = 0;
    let away = 0;
    for (const r of candidates) {
      if (r.home ? home >= REPS : away >= 1) continue;
      const clients = await orderableClients(db.pool, r.idEmpresa, r.codVendedor);
      if (!clients.length) continue;
      const index = reps.length + 1;
      const name = `rep${index}(t${r.idEmpresa}/v${r.codVendedor})`;
      const token = await logInAs(served.app, db.pool, {
        login: `rep${index}@convergence.test`,
        role: 'representative',
        idEmpresa: r.idEmpresa,
        codVendedor: r.codVendedor,
      });
      reps.push({
        name,
        idEmpresa: r.idEmpresa,
        codVendedor: r.codVendedor,
        token,
        user: { id: 100 + index, idEmpresa: r.idEmpresa, role: 'representative' },
        clients,
        devices: [],
      });
      if (r.home) home += 1;
      else away += 1;
    }
    for (const t of [t1, t2]) {
      managers.set(
        t,
        await logInAs(served.app, db.pool, { login: `ger${t}@convergence.test`, role: 'manager', idEmpresa: t }),
      );
    }
    for (const [t, token] of managers) {
      const manager = (method: string, path: string, body?: unknown) =>
        served.app.request(`/api/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      const created = await manager('POST', '/visit-reasons', {
        descricao: 'Gôndola vazia (foto) 📷',
        exigeFoto: true,
      });
      if (created.status !== 201) throw new Error(`${tag} reason: ${created.status} ${await created.text()}`);
      const list = (await (await manager('GET', '/visit-reasons')).json()) as { items: VisitReason[] };
      reasons.set(
        t,
        list.items.filter((r) => r.ativo),
      );
    }
    if (home < REPS || away < 1)
      throw new Error(`${tag} the fixture has ${home} orderable representatives of tenant ${t1} and ${away} of ${t2}`);
    // Two phones per representative, all opened at once (worker start-up dominates).
    const opened = await Promise.all(
      reps.flatMap((rep) =>
        ['a', 'b'].map(async (letter) => {
          const worker = await openWorkerDevice({
            user: rep.user,
            baseUrl: served.server.url,
            token: rep.token,
            faults: true,
          });
          await worker.call('awaitInitialSync');
          return { name: `${rep.name}/${letter}`, rep, worker, offlineUntil: null } satisfies Phone;
        }),
      ),
    );
    for (const phone of opened) {
      phone.rep.devices.push(phone);
      phones.push(phone);
    }
  });

  afterAll(async () => {
    await Promise.all(phones.map((p) => p.worker.close()));
    await served?.close();
  });

  it(
    'every phone converges to the server, no order is lost or duplicated, no data crosses scopes',
    async () => {
      const rnd: Prng = prng(SEED);
      const orders = new Map<string, QueuedOrder>();
      const faults: Record<Fault, number> = { offline: 0, lostAnswer: 0, duplicatePush: 0, serverRestart: 0 };
      const ops: Record<string, number> = {};
      let skipped = 0;
      /** Times a card's creation lost its answer and the other phone deleted it before the retry. */
      let lostCreations = 0;
      let serverDownUntil: number | null = null;
      /** Cards created by the simulation and whether it deleted them since. */
      const cards = new Map<string, { rep: Rep; deleted: boolean }>();
      /** Tickets opened, the replies written (unique texts) and whether one was cancelled. */
      const tickets = new Map<string, { rep: Rep; replies: string[]; cancelled: boolean }>();
      /**
       * Concurrent edits of different fields of one card from a representative's two phones:
       * both must survive (per-field merge), unless the card is touched again or deleted.
       */
      const mergeExpectations = new Map<string, Record<string, unknown>>();
      /** Every visit checked in on a phone, and what the simulation did with it since. */
      const visits = new Map<string, { rep: Rep; phone: Phone; photo: boolean; discarded: boolean }>();
      /** Orders the ERP invoiced (by Campo order id): every phone must show them invoiced. */
      const erpInvoiced = new Set<number>();
      /** Cards refused at creation (a client of another representative), by the phone that holds them. */
      const refusedCards = new Map<string, Phone>();
      /** The client of each card in refusedCards. */
      const refusedCardClient = new Map<string, number>();
      /**
       * Cards made for a colleague's client that the ERP then moved into the card's own portfolio:
       * refused if the phone pushed before the move, accepted if after, either way once and clearly.
       */
      const movedCards = new Map<string, Phone>();
      /** Cards made for one of the representative's own clients, by the phone that made them, and the client. */
      const clientCards = new Map<string, { phone: Phone; idCliente: number }>();
      /**
       * Cards for a client the ERP then moved to a colleague: accepted if the phone pushed before
       * the move, refused (shown with the reason on the phone that made it) if after.
       */
      const movedAwayCards = new Map<string, Phone>();
      /** The ERP's own changes reach the change log by the refresh that every server runs on a schedule. */
      const refresh = (idEmpresa: number) => refreshAll(createDb(db.pool), idEmpresa);
      const colleagues = (rep: Rep) => reps.filter((r) => r !== rep && r.idEmpresa === rep.idEmpresa);

      const call = <T>(phone: Phone, cmd: string, args: Record<string, unknown> = {}) =>
        phone.worker.call<T>(cmd, args);
      const docsOf = <T>(phone: Phone, collection: string) => call<T[]>(phone, 'docs', { collection });
      /** An outbox refusal (a card deleted meanwhile, a ticket closed) is the app saying no: skip. */
      const tolerant = async (what: string, run: () => Promise<unknown>) => {
        try {
          await run();
          return true;
        } catch (err) {
          if (/OutboxError/.test(String(err))) {
            skipped += 1;
            return false;
          }
          throw new Error(`${tag} ${what}: ${String(err)}`);
        }
      };

      const draftFor = (rep: Rep, marker: string, aboveCeiling: boolean) => {
        const client = rnd.pick(rep.clients);
        const products = rnd.sample(client.products, rnd.int(1, Math.min(3, client.products.length)));
        return {
          idCliente: client.idCliente,
          observacao: marker,
          itens: products.map((idProduto, i) => ({
            idProduto,
            quantidade: rnd.int(1, 6),
            // 90%+ is far above any ceiling of the fixture: the server refuses the line.
            descontoPercent: aboveCeiling && i === 0 ? rnd.int(90, 99) : 0,
          })),
        };
      };
      const touchCard = (id: string) => mergeExpectations.delete(id);
      /** Fails with every problem spelled out (a bare array diff would hide them) and the seed. */
      const noProblems = (what: string, problems: string[]) => {
        if (problems.length) throw new Error(`${tag} ${what}: ${problems.length} problem(s)\n${problems.join('\n')}`);
      };

      const operations = {
        async queueOrder(phone: Phone) {
          const marker = `sim ${SEED} #${orders.size + 1}`;
          const id = await call<string>(phone, 'queueOrder', { draft: draftFor(phone.rep, marker, rnd.chance(0.3)) });
          orders.set(id, { id, marker, rep: phone.rep, phone, resent: 0, discarded: false });
        },
        async fixRefused(phone: Phone) {
          const refused = (await call<OutboxEntry[]>(phone, 'listOutbox')).filter((e) => e.state === 'refused');
          if (!refused.length) return operations.queueOrder(phone);
          const entry = rnd.pick(refused);
          const known = orders.get(entry.id);
          if (!known) throw new Error(`${tag} ${phone.name} holds a refused order ${entry.id} nobody queued`);
          if (rnd.chance(0.6)) {
            if (
              await tolerant('resend', () =>
                call(phone, 'resend', { id: entry.id, draft: draftFor(phone.rep, known.marker, false) }),
              )
            )
              known.resent += 1;
          } else if (await tolerant('discard', () => call(phone, 'discard', { id: entry.id }))) known.discarded = true;
        },
        async createCard(phone: Phone) {
          const input = rnd.chance(0.5)
            ? { idCliente: rnd.pick(phone.rep.clients).idCliente, valor: rnd.int(1, 500) * 10 }
            : { nomeProspect: `Prospect ${rnd.int(1, 9999)} ☕`, valor: rnd.int(1, 500) * 10 };
          const id = await call<string>(phone, 'createOpportunity', { input });
          cards.set(id, { rep: phone.rep, deleted: false });
          if (input.idCliente !== undefined) clientCards.set(id, { phone, idCliente: input.idCliente });
        },
        async moveCard(phone: Phone) {
          const card = await aCard(phone);
          if (!card) return operations.createCard(phone);
          const estagio = rnd.pick(STAGES);
          touchCard(card.id);
          // A lost card needs its reason (the outbox and the server both insist).
          const patch = estagio === 'perdido' ? { estagio, motivoPerda: `preço ${rnd.int(1, 99)}` } : { estagio };
          await tolerant('move', () => call(phone, 'updateOpportunity', { id: card.id, patch }));
        },
        async editCard(phone: Phone) {
          const card = await aCard(phone);
          if (!card) return operations.createCard(phone);
          touchCard(card.id);
          await tolerant('edit', () => call(phone, 'updateOpportunity', { id: card.id, patch: randomPatch() }));
        },
        async deleteCard(phone: Phone) {
          const card = await aCard(phone);
          if (!card) return operations.createCard(phone);
          touchCard(card.id);
          if (await tolerant('delete', () => call(phone, 'deleteOpportunity', { id: card.id }))) {
            const known = cards.get(card.id);
            if (known) known.deleted = true;
            // A refused card (not in `cards`) deleted on its phone leaves nothing to expect.
            refusedCards.delete(card.id);
            movedCards.delete(card.id);
          }
        },
        /** A card for a client of another representative: refused, kept on its phone with the reason. */
        async refusedCard(phone: Phone) {
          const others = colleagues(phone.rep).filter((r) => r.clients.length > 0);
          if (!others.length) return operations.createCard(phone);
          const idCliente = rnd.pick(rnd.pick(others).clients).idCliente;
          const id = await call<string>(phone, 'createOpportunity', { input: { idCliente, valor: 10 } });
          refusedCards.set(id, phone);
          refusedCardClient.set(id, idCliente);
        },
        /** The ERP side: an order is approved, or, once approved, invoiced by the ERP. */
        async erpInvoice(phone: Phone) {
          const { rep } = phone;
          const { rows } = await db.pool.query<{ id: number; situa: number; erp_id_pedido: number | null }>(
            `select id, situa, erp_id_pedido from app.pedidos
              where id_empresa = $1 and cod_vendedor = $2 and observacao like $3 and situa in (1, 2) order by id`,
            [rep.idEmpresa, rep.codVendedor, `sim ${SEED} #%`],
          );
          if (!rows.length) return operations.queueOrder(phone);
          const o = rnd.pick(rows);
          if (o.situa === 1) {
            const res = await served.app.request(`/api/v1/orders/${o.id}/approve`, {
              method: 'POST',
              headers: { authorization: `Bearer ${managers.get(rep.idEmpresa)}` },
            });
            if (res.status !== 200) throw new Error(`${tag} approve ${o.id}: ${res.status} ${await res.text()}`);
          } else {
            await db.pool.query(`update pedidos_venda set situacao = 'F' where id_pedido = $1`, [o.erp_id_pedido]);
            erpInvoiced.add(o.id);
          }
          if (rnd.chance(0.5)) await refresh(rep.idEmpresa);
        },
        /** The ERP moves a client to a colleague's portfolio: orders queued for it are refused. */
        async erpMoveClient(phone: Phone) {
          const { rep } = phone;
          const to = colleagues(rep);
          if (!to.length || rep.clients.length < 2) return operations.queueOrder(phone);
          const target = rnd.pick(to);
          const client = rnd.pick(rep.clients);
          await db.pool.query('update corrent set cod_vendedor = $1 where id_corrent = $2', [
            target.codVendedor,
            client.idCliente,
          ]);
          rep.clients = rep.clients.filter((c) => c !== client);
          for (const [id, made] of clientCards)
            if (made.phone.rep === rep && made.idCliente === client.idCliente) movedAwayCards.set(id, made.phone);
          target.clients.push(client);
          for (const [id, holder] of refusedCards) {
            if (holder.rep === target && refusedCardClient.get(id) === client.idCliente) {
              refusedCards.delete(id);
              movedCards.set(id, holder);
            }
          }
          await refresh(rep.idEmpresa);
        },
        /** The ERP deactivates a product: orders queued with it are refused. */
        async erpDeactivateProduct(phone: Phone) {
          const client = rnd.pick(phone.rep.clients);
          if (client.products.length < 2) return operations.queueOrder(phone);
          const idProduto = rnd.pick(client.products);
          await db.pool.query(`update produtos set ativo = 'N' where id_produto = $1`, [idProduto]);
          for (const r of reps) for (const c of r.clients) c.products = c.products.filter((p) => p !== idProduto);
          await refresh(phone.rep.idEmpresa);
        },
        /** Both phones of the representative edit one card at once, before either syncs. */
        async concurrentEdit(phone: Phone) {
          const [a, b] = phone.rep.devices as [Phone, Phone];
          const onA = new Set((await docsOf<SyncOpportunity>(a, 'funil')).map((d) => d.id));
          const shared = (await docsOf<SyncOpportunity>(b, 'funil')).filter((d) => onA.has(d.id));
          if (!shared.length) return operations.createCard(phone);
          const card = rnd.pick(shared);
          touchCard(card.id);
          if (rnd.chance(0.5)) {
            // The same field: whichever push reaches the server last wins, on both phones.
            await Promise.all([
              tolerant('concurrent edit', () =>
                call(a, 'updateOpportunity', { id: card.id, patch: { valor: rnd.int(1, 900) * 10 } }),
              ),
              tolerant('concurrent edit', () =>
                call(b, 'updateOpportunity', { id: card.id, patch: { valor: rnd.int(1, 900) * 10 } }),
              ),
            ]);
          } else {
            // Both phones first push whatever they still hold for the card (an edit made offline
            // earlier would otherwise legitimately overwrite one of the two fields later), when
            // the network lets them; otherwise no expectation is recorded.
            const reachable = serverDownUntil === null && a.offlineUntil === null && b.offlineUntil === null;
            const settled =
              reachable &&
              (await Promise.all([a, b].map((p) => withTimeout(`${p.name} syncNow`, call(p, 'syncNow'), 10_000))).then(
                () => true,
                () => false,
              ));
            const valor = rnd.int(1, 900) * 10;
            const observacoes = `nota ${rnd.int(1, 99_999)} 📝`;
            const [okA, okB] = await Promise.all([
              tolerant('concurrent edit', () => call(a, 'updateOpportunity', { id: card.id, patch: { valor } })),
              tolerant('concurrent edit', () => call(b, 'updateOpportunity', { id: card.id, patch: { observacoes } })),
            ]);
            if (okA && okB && settled) mergeExpectations.set(card.id, { valor, observacoes });
          }
        },
        async openTicket(phone: Phone) {
          const held = (await docsOf<SyncOrder>(phone, 'pedidos')).filter((d) => d.order?.id);
          if (!held.length) return operations.queueOrder(phone);
          const idPedido = rnd.pick(held).order?.id as number;
          const n = tickets.size + 1;
          const id = await call<string>(phone, 'createTicket', {
            input: { idPedido, assunto: `Chamado ${n} 📦`, mensagem: `Primeira mensagem ${n}`, autorNome: 'Rep' },
          });
          tickets.set(id, { rep: phone.rep, replies: [], cancelled: false });
        },
        /** Sometimes both phones answer the same ticket at once: the server keeps the union. */
        async replyTicket(phone: Phone) {
          const open = (await docsOf<SyncTicket>(phone, 'chamados')).filter(
            (t) => t.status !== 'resolvido' && t.status !== 'cancelado',
          );
          if (!open.length) return operations.openTicket(phone);
          const ticket = rnd.pick(open);
          const known = tickets.get(ticket.id);
          const writers = rnd.chance(0.3) ? phone.rep.devices : [phone];
          await Promise.all(
            writers.map(async (w) => {
              const texto = `resposta ${SEED}-${ops.total ?? 0}-${w.name} ✅`;
              if (await tolerant('reply', () => call(w, 'replyTicket', { id: ticket.id, texto, autorNome: 'Rep' })))
                known?.replies.push(texto);
            }),
          );
        },
        /**
         * "Cheguei" at a client of the portfolio (now and then a colleague's: refused), or "Saí"
         * from the phone's open visit. The representative's other phone may hold a visit open
         * too: the server keeps one open at a time and refuses the second check-in.
         */
        async visit(phone: Phone) {
          const open = (await docsOf<VisitLocal>(phone, 'visitas')).find(visitIsOpen);
          if (open) return closeVisit(phone, open);
          const others = rnd.chance(0.1) ? colleagues(phone.rep).filter((r) => r.clients.length > 0) : [];
          const portfolio = others.length ? rnd.pick(others).clients : phone.rep.clients;
          if (!portfolio.length) return operations.queueOrder(phone);
          const input = {
            codVendedor: phone.rep.codVendedor,
            idCliente: rnd.pick(portfolio).idCliente,
            nomeCliente: null,
            posicao: position(),
          };
          let id: string | undefined;
          await tolerant('check in', async () => {
            id = await call<string>(phone, 'checkIn', { input });
          });
          if (id) visits.set(id, { rep: phone.rep, phone, photo: false, discarded: false });
        },
        /** A check-in the server refused: tried again, or discarded. */
        async fixVisit(phone: Phone) {
          const refused = (await docsOf<VisitLocal>(phone, 'visitas')).filter(checkInRefused);
          if (!refused.length) return operations.visit(phone);
          const v = rnd.pick(refused);
          if (rnd.chance(0.5)) await tolerant('retry visit', () => call(phone, 'retryVisit', { id: v.id }));
          else if (await tolerant('discard visit', () => call(phone, 'discardVisit', { id: v.id }))) {
            const known = visits.get(v.id);
            if (known) known.discarded = true;
          }
        },
        async cancelTicket(phone: Phone) {
          const open = (await docsOf<SyncTicket>(phone, 'chamados')).filter((t) => t.status !== 'cancelado');
          if (!open.length) return operations.openTicket(phone);
          const ticket = rnd.pick(open);
          if (await tolerant('cancel', () => call(phone, 'cancelTicket', { id: ticket.id }))) {
            const known = tickets.get(ticket.id);
            if (known) known.cancelled = true;
          }
        },
      };
      type Operation = keyof typeof operations;

      /** "Saí": a reason of the tenant's list, with the note or photo it asks (now and then without the photo: refused). */
      async function closeVisit(phone: Phone, open: VisitLocal) {
        const motivo = rnd.pick(reasons.get(phone.rep.idEmpresa) ?? []);
        const foto = motivo.exigeFoto ? rnd.chance(0.8) : rnd.chance(0.1);
        const input = {
          posicao: position(),
          motivo: { id: motivo.id, descricao: motivo.descricao },
          observacao: motivo.exigeObservacao || rnd.chance(0.2) ? `nota ${rnd.int(1, 99_999)} 🧾` : null,
          ...(foto ? { foto: new Uint8Array(jpeg()) } : {}),
        };
        if ((await tolerant('check out', () => call(phone, 'checkOut', { id: open.id, input }))) && foto) {
          const known = visits.get(open.id);
          if (known) known.photo = true;
        }
      }
      /** Where the phone reads itself, or null (location refused). */
      function position() {
        if (rnd.chance(0.2)) return null;
        return { latitude: -23.55 + rnd.next() / 50, longitude: -46.63 + rnd.next() / 50, precisao: rnd.int(5, 80) };
      }
      async function aCard(phone: Phone) {
        const docs = await docsOf<SyncOpportunity>(phone, 'funil');
        return docs.length ? rnd.pick(docs) : undefined;
      }
      function randomPatch(): Record<string, unknown> {
        switch (rnd.int(0, 2)) {
          case 0:
            return { valor: rnd.int(1, 900) * 10 };
          case 1:
            return { observacoes: `obs ${rnd.int(1, 99_999)} ação` };
          default:
            return { previsaoFechamento: `2027-0${rnd.int(1, 9)}-1${rnd.int(0, 9)}` };
        }
      }

      const injectFault = async (kind: Fault, i: number) => {
        const phone = rnd.pick(phones);
        switch (kind) {
          case 'offline':
            if (phone.offlineUntil !== null) return false;
            phone.offlineUntil = i + rnd.int(3, 12);
            await call(phone, 'setOffline', { offline: true });
            break;
          case 'lostAnswer': {
            const other = phone.rep.devices.find((p) => p !== phone) as Phone;
            const reachable = serverDownUntil === null && phone.offlineUntil === null && other.offlineUntil === null;
            if (reachable && rnd.chance(0.35)) {
              if (await lostCreationDeletedElsewhere(phone, other, i)) lostCreations += 1;
              break;
            }
            await call(phone, 'loseNextPushes', { count: rnd.int(1, 2) });
            // Something to push, so the fault bites now rather than at some later push.
            const follow = rnd.weighted({ queueOrder: 3, createCard: 2, replyTicket: 1, visit: 1 });
            await operations[follow](phone);
            break;
          }
          case 'duplicatePush':
            await call(phone, 'duplicateNextPush', { concurrent: rnd.chance(0.5) });
            await (rnd.chance(0.5) ? operations.queueOrder(phone) : operations.editCard(phone));
            break;
          case 'serverRestart':
            if (serverDownUntil !== null) return false;
            await served.server.stop();
            serverDownUntil = i + rnd.int(1, 5);
            break;
        }
        faults[kind] += 1;
        return true;
      };

      /**
       * A card's creation reaches the server but its answer is lost, and the phone drops off
       * the network before it can retry; the other phone receives the card and deletes it. When
       * the first phone comes back it retries the creation as new (assumed master null): the
       * deletion must still win, the card must not come back.
       */
      const lostCreationDeletedElsewhere = async (phone: Phone, other: Phone, i: number): Promise<boolean> => {
        await call(phone, 'loseNextPushes', { count: 1, thenOffline: true });
        const before = new Set(cards.keys());
        await operations.createCard(phone);
        const id = [...cards.keys()].find((k) => !before.has(k)) as string;
        phone.offlineUntil = i + rnd.int(2, 6);
        // Another push of this phone may have taken the lost answer, and the phone went offline
        // before sending the card: then the scenario did not happen, and that is all.
        const reached = await eventually(
          `card ${id} created by ${phone.name} to reach the server`,
          async () => (await db.pool.query('select 1 from app.oportunidades where id = $1', [id])).rows.length === 1,
          10_000,
        ).then(
          () => true,
          () => false,
        );
        if (!reached) return false;
        // The answer was lost, so the phone went offline (faulty-fetch); make sure before going on.
        await call(phone, 'setOffline', { offline: true });
        await eventually(
          `${tag} card ${id} on ${other.name}`,
          async () => {
            await withTimeout(`${other.name} syncNow`, call(other, 'syncNow'), 10_000);
            return (await docsOf<SyncOpportunity>(other, 'funil')).some((d) => d.id === id);
          },
          30_000,
        );
        touchCard(id);
        if (await tolerant('delete elsewhere', () => call(other, 'deleteOpportunity', { id }))) {
          const known = cards.get(id);
          if (known) known.deleted = true;
        }
        return true;
      };

      const heal = async (i: number) => {
        if (serverDownUntil !== null && i >= serverDownUntil) {
          await served.server.start();
          serverDownUntil = null;
        }
        for (const p of phones) {
          if (p.offlineUntil !== null && i >= p.offlineUntil) {
            p.offlineUntil = null;
            await call(p, 'setOffline', { offline: false });
          }
        }
      };

      const weights: Record<Operation | 'fault', number> = {
        queueOrder: 22,
        fixRefused: 8,
        createCard: 10,
        moveCard: 9,
        editCard: 8,
        deleteCard: 4,
        concurrentEdit: 6,
        openTicket: 6,
        replyTicket: 8,
        cancelTicket: 1,
        visit: 10,
        fixVisit: 3,
        refusedCard: 2,
        erpInvoice: 6,
        erpMoveClient: 1,
        erpDeactivateProduct: 1,
        fault: 12,
      };
      const faultWeights: Record<Fault, number> = { offline: 4, lostAnswer: 3, duplicatePush: 3, serverRestart: 1 };

      try {
        for (let i = 0; i < OPS; i += 1) {
          ops.total = i + 1;
          await heal(i);
          // Each kind of fault at least once even in a short run: forced at evenly spaced points.
          const due = FAULTS.find((k, n) => faults[k] === 0 && i === Math.floor((OPS * (n + 1)) / (FAULTS.length + 2)));
          const kind = due ? 'fault' : rnd.weighted(weights);
          if (kind === 'fault') {
            const fault = due ?? rnd.weighted(faultWeights);
            if (await injectFault(fault, i)) ops[`fault:${fault}`] = (ops[`fault:${fault}`] ?? 0) + 1;
          } else {
            ops[kind] = (ops[kind] ?? 0) + 1;
            await operations[kind](rnd.pick(phones));
          }
          // Let the replications run between operations, so pushes and pulls interleave with writes.
          await sleep(rnd.int(0, 40));
        }

        // The network heals: the server is up, every phone online; sync until quiet.
        if (serverDownUntil !== null) await served.server.start();
        serverDownUntil = null;
        for (const p of phones) {
          p.offlineUntil = null;
          await call(p, 'setOffline', { offline: false });
        }

        // The scheduled refresh runs once more: whatever the ERP did last reaches the change log.
        for (const t of managers.keys()) await refresh(t);

        let lastProblems: string[] = [];
        await eventually(
          'every phone to converge to the server',
          async () => {
            await Promise.all(
              phones.map((p) => withTimeout(`${p.name} syncNow`, call(p, 'syncNow'), 15_000).catch(() => undefined)),
            );
            lastProblems = await convergenceProblems();
            return lastProblems.length === 0;
          },
          Math.max(60_000, OPS * 100),
        ).catch(async (err: Error) => {
          const states = await Promise.all(
            phones.map(async (p) => `${p.name}: ${JSON.stringify(await call(p, 'syncState')).slice(0, 800)}`),
          );
          throw new Error(`${err.message}\n${lastProblems.join('\n')}\n${states.join('\n')}`);
        });

        const tally = await checkOrders();
        await checkFunnelAndTickets();
        const visitTally = await checkVisits();
        await checkErpChanges();
        await checkScopes();

        const happened = await Promise.all(phones.map((p) => call<FaultCounts>(p, 'faultCounts')));
        const sum = (k: 'offlineFailures' | 'lostAnswers' | 'duplicated') =>
          happened.reduce((s, c) => s + (c?.[k] ?? 0), 0);
        const opCounts = Object.entries(ops)
          .filter(([k]) => k !== 'total')
          .map(([k, v]) => `${k}=${v}`)
          .join(' ');
        console.log(
          `${tag} operations=${ops.total} reps=${reps.length} phones=${phones.length} | faults offline=${faults.offline} lostAnswer=${faults.lostAnswer} (answers lost ${sum('lostAnswers')}, creations deleted before the retry ${lostCreations}) duplicatePush=${faults.duplicatePush} (sent twice ${sum('duplicated')}) serverRestart=${faults.serverRestart} offlineRequestFailures=${sum('offlineFailures')} serverErrors=${happened.reduce((n, c) => n + (c?.serverErrors.length ?? 0), 0)} | orders queued=${orders.size} created=${tally.created} refused=${tally.refused} discarded=${tally.discarded} resent=${tally.resent} duplicates=${tally.duplicates} losses=${tally.losses} | cards=${cards.size} tickets=${tickets.size} visits=${visits.size} (on the server ${visitTally.held}, photos ${visitTally.photos}, refused ${visitTally.refused}, discarded ${visitTally.discarded}) skipped=${skipped} | ${opCounts}`,
        );
        expect(tally.duplicates, `${tag} duplicated orders`).toBe(0);
        expect(tally.losses, `${tag} lost orders`).toBe(0);
      } catch (err) {
        if (err instanceof Error && !err.message.includes(tag)) err.message = `${tag} ${err.message}`;
        throw err;
      }

      /** Every phone against its representative's pull, collection by collection. */
      async function convergenceProblems(): Promise<string[]> {
        const problems: string[] = [];
        for (const rep of reps) {
          for (const collection of ['pedidos', 'funil', 'chamados', 'visitas'] as const) {
            const reference = await serverDocs(served.server.url, rep.token, collection);
            const perPhone: Map<string, Doc>[] = [];
            for (const phone of rep.devices) {
              const local = new Map<string, Doc>();
              for (const d of await docsOf<Record<string, unknown>>(phone, collection)) {
                const doc = comparable(d);
                // Refusals are not stored on the server: a refused order, or a card refused at
                // creation, lives on its phone only.
                if (collection === 'pedidos' && doc.status === 'refused') continue;
                if (collection === 'funil' && doc.recusa && !reference.has(doc.id)) continue;
                // A refused check-in never opened on the server: it waits on its phone.
                if (collection === 'visitas' && checkInRefused(doc as unknown as VisitLocal) && !reference.has(doc.id))
                  continue;
                local.set(doc.id, doc);
              }
              perPhone.push(local);
              const diff = diffDocs(`${phone.name} ${collection}`, local, reference);
              if (diff) problems.push(diff);
            }
            const [a, b] = perPhone as [Map<string, Doc>, Map<string, Doc>];
            const between = diffDocs(`${rep.name} phone a vs b ${collection}`, a, b);
            if (between) problems.push(between);
          }
        }
        return problems;
      }

      /** Each queued order: created once, or refused with reasons on its phone, or discarded. */
      async function checkOrders() {
        const tally = { created: 0, refused: 0, discarded: 0, resent: 0, duplicates: 0, losses: 0 };
        const problems: string[] = [];
        const refusedOn = new Map<Phone, Map<string, SyncOrder>>();
        for (const phone of phones) {
          const docs = await docsOf<SyncOrder>(phone, 'pedidos');
          refusedOn.set(phone, new Map(docs.filter((d) => d.status === 'refused').map((d) => [d.id, d])));
        }
        for (const o of orders.values()) {
          tally.resent += o.resent;
          const keyed = await db.pool.query<{ n: string }>(
            'select count(*) as n from app.chaves_idempotencia where id_empresa = $1 and chave = $2 and id_pedido is not null',
            [o.rep.idEmpresa, o.id],
          );
          const marked = await db.pool.query<{ n: string }>(
            'select count(*) as n from app.pedidos where id_empresa = $1 and observacao = $2',
            [o.rep.idEmpresa, o.marker],
          );
          const byKey = Number(keyed.rows[0]?.n);
          const byMarker = Number(marked.rows[0]?.n);
          const refused = refusedOn.get(o.phone)?.get(o.id);
          if (byKey > 1 || byMarker > 1) {
            tally.duplicates += 1;
            problems.push(`order ${o.id} (${o.marker}) created ${byKey} times by key, ${byMarker} by marker`);
          } else if (byKey === 1 && byMarker === 1) tally.created += 1;
          else if (byKey !== byMarker) {
            tally.losses += 1;
            problems.push(`order ${o.id} (${o.marker}): ${byKey} by key but ${byMarker} by marker`);
          } else if (o.discarded) {
            tally.discarded += 1;
            if (refused) problems.push(`order ${o.id} discarded on ${o.phone.name} but still there`);
          } else if (refused && refused.reasons.length > 0) tally.refused += 1;
          else {
            tally.losses += 1;
            problems.push(
              `order ${o.id} (${o.marker}) of ${o.phone.name} is neither on the server, refused nor discarded`,
            );
          }
        }
        noProblems('orders', problems);
        return tally;
      }

      async function checkFunnelAndTickets() {
        const problems: string[] = [];
        for (const [id, card] of cards) {
          const held = await db.pool.query('select 1 from app.oportunidades where id::text = $1', [id]);
          if (card.deleted && held.rows.length) problems.push(`card ${id} deleted on a phone but still on the server`);
          // A card whose client moved away may be refused: checkErpChanges holds it to that.
          if (!card.deleted && held.rows.length !== 1 && !movedAwayCards.has(id))
            problems.push(`card ${id} created on a phone but not on the server`);
        }
        for (const rep of reps) {
          const funil = await serverDocs(served.server.url, rep.token, 'funil');
          for (const [id, expected] of mergeExpectations) {
            const card = funil.get(id);
            if (!card || cards.get(id)?.rep !== rep) continue;
            for (const [field, value] of Object.entries(expected))
              if (card[field] !== value)
                problems.push(
                  `card ${id}: concurrent ${field}=${JSON.stringify(value)} lost (${JSON.stringify(card[field])})`,
                );
          }
          const chamados = await serverDocs(served.server.url, rep.token, 'chamados');
          for (const [id, ticket] of tickets) {
            if (ticket.rep !== rep) continue;
            const held = chamados.get(id) as unknown as SyncTicket | undefined;
            if (!held) {
              problems.push(`ticket ${id} opened on a phone but not on the server`);
              continue;
            }
            if (ticket.cancelled) continue;
            const texts = held.mensagens.map((m) => m.texto);
            for (const reply of ticket.replies) {
              const n = texts.filter((t) => t === reply).length;
              if (n !== 1) problems.push(`ticket ${id}: reply "${reply}" held ${n} times`);
            }
          }
        }
        noProblems('funnel and tickets', problems);
      }

      /**
       * Each visit checked in: on the server once (with its photo, when one was taken), or
       * refused and shown on its phone, or discarded there; one open visit per representative.
       */
      async function checkVisits() {
        const tally = { held: 0, photos: 0, refused: 0, discarded: 0 };
        const problems: string[] = [];
        for (const [id, v] of visits) {
          const { rows } = await db.pool.query<{ closed: boolean; fotos: number }>(
            `select v.saida_em is not null as closed,
                    (select count(*)::int from app.visita_fotos f where f.chave_visita = v.chave) as fotos
               from app.visitas v where v.chave = $1`,
            [id],
          );
          const onPhone = (await docsOf<VisitLocal>(v.phone, 'visitas')).find((d) => d.id === id);
          const row = rows[0];
          if (row) {
            tally.held += 1;
            if (v.discarded) problems.push(`visit ${id} discarded on ${v.phone.name} but on the server`);
            if (row.fotos > 0) tally.photos += 1;
            else if (v.photo && row.closed)
              problems.push(`visit ${id} closed with a photo on ${v.phone.name}, none held`);
          } else if (v.discarded) {
            tally.discarded += 1;
            if (onPhone) problems.push(`visit ${id} discarded on ${v.phone.name} but still there`);
          } else if (onPhone && checkInRefused(onPhone)) tally.refused += 1;
          else problems.push(`visit ${id} of ${v.phone.name} is neither on the server, refused nor discarded`);
        }
        const open = await db.pool.query<{ cod_vendedor: number; n: number }>(
          `select cod_vendedor, count(*)::int as n from app.visitas where saida_em is null
            group by id_empresa, cod_vendedor having count(*) > 1`,
        );
        for (const r of open.rows) problems.push(`representative ${r.cod_vendedor} has ${r.n} open visits`);
        noProblems('visits', problems);
        return tally;
      }

      /** What the ERP did reached the phones; refused cards stayed visible where they were made. */
      async function checkErpChanges() {
        const problems: string[] = [];
        for (const phone of phones) {
          const docs = await docsOf<SyncOrder>(phone, 'pedidos');
          for (const d of docs) {
            if (d.order && erpInvoiced.has(d.order.id) && d.status !== 'invoiced')
              problems.push(`${phone.name}: order ${d.order.id} invoiced in the ERP shows ${d.status}`);
          }
        }
        for (const [id, phone] of refusedCards) {
          const held = (await docsOf<SyncOpportunity>(phone, 'funil')).find((d) => d.id === id);
          if (!held?.recusa) problems.push(`${phone.name}: refused card ${id} is not shown with its reason`);
          const onServer = await db.pool.query('select 1 from app.oportunidades where id::text = $1', [id]);
          if (onServer.rows.length) problems.push(`refused card ${id} (another portfolio's client) is on the server`);
        }
        for (const [id, phone] of [...movedCards, ...movedAwayCards]) {
          if (cards.get(id)?.deleted) continue;
          const held = (await docsOf<SyncOpportunity>(phone, 'funil')).find((d) => d.id === id);
          const onServer = (await db.pool.query('select 1 from app.oportunidades where id::text = $1', [id])).rows
            .length;
          if (onServer ? held?.recusa : !held?.recusa)
            problems.push(
              `${phone.name}: card ${id} of a client moved ${movedCards.has(id) ? 'into' : 'out of'} its portfolio is ${onServer ? 'on the server and shown refused' : 'neither on the server nor shown refused'}`,
            );
        }
        console.log(
          `${tag} erp: invoiced=${erpInvoiced.size} refusedCards=${refusedCards.size} movedCards=${movedCards.size} movedAwayCards=${movedAwayCards.size}`,
        );
        noProblems('ERP changes and refusals', problems);
      }

      /** Nothing of another representative or tenant on any phone, checked against the owners in the DB. */
      async function checkScopes() {
        const problems: string[] = [];
        const ids = (docs: { id: string }[]) => docs.map((d) => d.id);
        for (const phone of phones) {
          const { idEmpresa, codVendedor } = phone.rep;
          const owned = async (sql: string, values: string[]) =>
            new Set(
              (await db.pool.query<{ id: string }>(sql, [idEmpresa, codVendedor, values])).rows.map((r) =>
                String(r.id),
              ),
            );
          const clientes = ids(await docsOf<{ id: string }>(phone, 'clientes'));
          const ownClients = await owned(
            'select id_cliente::text as id from app.vw_clientes where id_empresa = $1 and cod_vendedor = $2 and id_cliente::text = any($3)',
            clientes,
          );
          for (const id of clientes) if (!ownClients.has(id)) problems.push(`${phone.name} holds client ${id}`);

          const produtos = ids(await docsOf<{ id: string }>(phone, 'produtos'));
          const ownProducts = new Set(
            (
              await db.pool.query<{ id: string }>(
                'select id_produto::text as id from app.vw_produtos where id_empresa = $1 and id_produto::text = any($2)',
                [idEmpresa, produtos],
              )
            ).rows.map((r) => r.id),
          );
          for (const id of produtos) if (!ownProducts.has(id)) problems.push(`${phone.name} holds product ${id}`);

          const pedidos = await docsOf<SyncOrder>(phone, 'pedidos');
          const ownOrders = await owned(
            `select coalesce(k.chave, 'pedido-' || p.id) as id
             from app.pedidos p left join app.chaves_idempotencia k on k.id_pedido = p.id and k.id_empresa = p.id_empresa
            where p.id_empresa = $1 and p.cod_vendedor = $2
              and (k.chave = any($3) or 'pedido-' || p.id = any($3))`,
            pedidos.map((d) => d.id),
          );
          for (const d of pedidos) {
            const queuedHere = orders.get(d.id)?.rep === phone.rep;
            if (d.status === 'refused' ? !queuedHere : !ownOrders.has(d.id))
              problems.push(`${phone.name} holds order ${d.id} (${d.status})`);
          }

          const funil = ids(await docsOf<{ id: string }>(phone, 'funil'));
          const ownCards = await owned(
            'select id::text as id from app.oportunidades where id_empresa = $1 and cod_vendedor = $2 and id::text = any($3)',
            funil,
          );
          for (const id of funil)
            if (
              !ownCards.has(id) &&
              refusedCards.get(id) !== phone &&
              movedCards.get(id) !== phone &&
              movedAwayCards.get(id) !== phone
            )
              problems.push(`${phone.name} holds card ${id}`);

          for (const v of await docsOf<VisitLocal>(phone, 'visitas'))
            if (v.codVendedor !== codVendedor) problems.push(`${phone.name} holds visit ${v.id} of ${v.codVendedor}`);

          const chamados = ids(await docsOf<{ id: string }>(phone, 'chamados'));
          const ownTickets = await owned(
            `select coalesce(chave, 'chamado-' || id) as id from app.chamados
            where id_empresa = $1 and cod_vendedor = $2 and coalesce(chave, 'chamado-' || id) = any($3)`,
            chamados,
          );
          for (const id of chamados) if (!ownTickets.has(id)) problems.push(`${phone.name} holds ticket ${id}`);
        }
        noProblems('scopes', problems);
      }
    },
    240_000 + OPS * 400,
  );
});
