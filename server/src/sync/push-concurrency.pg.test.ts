// A push and its copy at the same moment (a retry crossing its original, a proxy repeating the
// request), and a push racing a REST change of the same document, for every pushable
// collection (docs/sync.md, "Push"): each request answers 200 with per-document outcomes, never
// a whole-batch error for one document, and every row is applied exactly once. Where it can,
// a round lines both requests up on a lock the test holds (a card's row, an order's key), so
// the race happens on every round rather than by luck; the other rounds send them free.
import { randomUUID } from 'node:crypto';
import {
  cnpjCheckDigits,
  SYNC_WRITABLE,
  type SyncOpportunity,
  type SyncOrder,
  type SyncRegistration,
  type SyncTicket,
  type SyncVisit,
  type VisitReason,
} from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import {
  type Api,
  aCard,
  aPricedClient,
  aPushedVisit,
  aRepresentative,
  signedIn,
} from '../../../test/support/builders.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { waitingOnLocks } from '../../../test/support/locks.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { storedJson } from '../changelog/changelog.ts';

const db = useTestDatabase();

interface Answer<T> {
  status: number;
  body: T[];
}

async function pushRaw<T>(api: Api, collection: string, rows: unknown[]): Promise<Answer<T>> {
  const res = await api('POST', `/sync/${collection}/push`, rows);
  const text = await res.text();
  return { status: res.status, body: res.status === 200 ? (JSON.parse(text) as T[]) : (text as unknown as T[]) };
}

/** A transaction of the test holding a lock until released (once, however often asked). */
async function hold(statement: string, params: unknown[]) {
  const client = await db.pool.connect();
  await client.query('begin');
  await client.query(statement, params);
  let released: Promise<void> | undefined;
  const end = (how: 'commit' | 'rollback') => {
    released ??= client.query(how).then(() => client.release());
    return released;
  };
  return { client, release: () => end('commit'), rollBack: () => end('rollback') };
}

let seq = 0;
function newCnpj(): string {
  const base = `98${String(++seq).padStart(10, '0')}`;
  return `${base}${cnpjCheckDigits(base)}`;
}

describe('concurrent pushes', () => {
  let rep: Api;
  let s: { idEmpresa: number; codVendedor: number; idCliente: number; products: number[]; userId: number };
  let idPauta: number;

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    // A known ceiling: 10% for this representative, no category ceilings, no rules.
    const r = await aRepresentative(db.pool, erp, { ceiling: 10 });
    const client = await aPricedClient(db.pool, r, { products: 2 });
    idPauta = client.idPauta;
    const app = testApp(db.pool);
    rep = await signedIn(app, db.pool, {
      login: 'rep@concorrencia.test',
      role: 'representative',
      idEmpresa: r.idEmpresa,
      codVendedor: r.codVendedor,
    });
    const user = await db.pool.query('select id from app.usuarios where login = $1', ['rep@concorrencia.test']);
    s = {
      idEmpresa: r.idEmpresa,
      codVendedor: r.codVendedor,
      idCliente: client.idCliente,
      products: client.products.map((p) => p.id),
      userId: Number(user.rows[0].id),
    };
  });

  /**
   * Sends the batch twice at once; both must answer 200. With a lock held, both copies are let
   * go together once both wait on it.
   */
  async function twice<T>(
    collection: string,
    rows: unknown[],
    lock?: { release: () => Promise<void> } | null,
  ): Promise<[T[], T[]]> {
    const sent = Promise.all([pushRaw<T>(rep, collection, rows), pushRaw<T>(rep, collection, rows)]);
    if (lock) {
      try {
        await waitingOnLocks(db.pool, 2, sent);
      } finally {
        await lock.release();
      }
    }
    const [a, b] = await sent;
    expect([a.status, a.body]).toEqual([200, expect.anything()]);
    expect([b.status, b.body]).toEqual([200, expect.anything()]);
    return [a.body, b.body];
  }

  it('has a case for every collection a device pushes', () => {
    // The describes below, one per collection: a new writable collection needs its own.
    expect([...SYNC_WRITABLE].sort()).toEqual(['cadastros', 'chamados', 'funil', 'pedidos', 'visitas']);
  });

  describe('funil', () => {
    const create = (c: SyncOpportunity) => ({ assumedMasterState: null, newDocumentState: c });
    /** A card the server holds, as the device holds it after its push. */
    const created = async () => {
      const c = aCard();
      expect((await pushRaw(rep, 'funil', [create(c)])).body).toEqual([]);
      return c;
    };
    const rows = async (id: string) =>
      (await db.pool.query('select valor, atualizado_em from app.oportunidades where id = $1', [id])).rows;
    const refusals = async (id: string) =>
      (await db.pool.query(`select 1 from app.sync_recusas where colecao = 'funil' and chave = $1`, [id])).rows;
    const tombstone = async (id: string) =>
      (
        await db.pool.query(`select excluido from app.sync_alteracoes where colecao = 'funil' and chave = $1`, [id])
      ).rows.map((r) => r.excluido);

    async function createDeleteCreate(lined: boolean) {
      const [a, b, c] = [aCard(), await created(), aCard()];
      const batch = [create(a), { assumedMasterState: b, newDocumentState: { ...b, _deleted: true } }, create(c)];
      // Both copies read the card before either deletes it: held at its row, then let go together.
      const lock = lined ? await hold('select 1 from app.oportunidades where id = $1 for update', [b.id]) : null;
      const answers = await twice<SyncOpportunity>('funil', batch, lock);
      // Taken as sent, both copies: nothing to adopt.
      expect(answers).toEqual([[], []]);
      expect(await rows(a.id)).toHaveLength(1);
      expect(await rows(b.id)).toHaveLength(0);
      expect(await rows(c.id)).toHaveLength(1);
      expect(await tombstone(b.id)).toEqual([true]);
    }

    it('the same [create, delete, create] twice, lined up at the deletion: 200 twice, each row once', async () => {
      for (let round = 0; round < 8; round += 1) await createDeleteCreate(true);
    });

    it('the same [create, delete, create] twice, sent free', async () => {
      for (let round = 0; round < 15; round += 1) await createDeleteCreate(false);
    });

    it('the same edit twice, lined up at the card: applied once, with the device’s time', async () => {
      for (let round = 0; round < 5; round += 1) {
        const c = await created();
        const edited = { ...c, valor: 250, atualizadoEm: new Date(Date.parse(c.atualizadoEm) + 1000).toISOString() };
        const lock = await hold('select 1 from app.oportunidades where id = $1 for update', [c.id]);
        const row = { assumedMasterState: c, newDocumentState: edited };
        const answers = await twice<SyncOpportunity>('funil', [row], lock);
        // The copy that came second finds the edit made: it writes nothing, so the card keeps
        // the device's time and neither copy has anything to tell the device.
        expect(answers).toEqual([[], []]);
        const [held] = await rows(c.id);
        expect([Number(held.valor), new Date(held.atualizado_em).toISOString()]).toEqual([250, edited.atualizadoEm]);
      }
    });

    it('a REST delete racing a pushed edit or deletion: the deletion wins, the rest of the batch is applied', async () => {
      for (let round = 0; round < 5; round += 1) {
        const [edited, deleted, after] = [await created(), await created(), aCard()];
        const later = new Date(Date.parse(edited.atualizadoEm) + 1000).toISOString();
        for (const [target, batch] of [
          [
            edited,
            [
              { assumedMasterState: edited, newDocumentState: { ...edited, valor: 7, atualizadoEm: later } },
              create(after),
            ],
          ],
          [deleted, [{ assumedMasterState: deleted, newDocumentState: { ...deleted, _deleted: true } }]],
        ] as const) {
          // The push reads the card; the REST delete, queued behind that read, wakes when it
          // ends and almost always deletes the card before the push writes (the push's write is
          // a new transaction, which may still get there first: both orders are right).
          const lock = await hold('select 1 from app.oportunidades where id = $1 for update', [target.id]);
          const pushed = pushRaw<SyncOpportunity>(rep, 'funil', [...batch]);
          await waitingOnLocks(db.pool, 1, pushed);
          const removed = rep('DELETE', `/funil/${target.id}`);
          await waitingOnLocks(db.pool, 2, pushed);
          await lock.release();
          const [answer, rest] = await Promise.all([pushed, removed]);
          expect(answer.status, JSON.stringify(answer.body)).toBe(200);
          if (target === edited) {
            expect(rest.status).toBe(204);
            // Deleted first: the deletion, never a refusal of the edit of a card that is gone.
            // Edited first: taken as sent, then deleted.
            expect([[{ ...edited, _deleted: true }], []]).toContainEqual(answer.body);
          } else {
            // The push deleted it first, or found it deleted: done either way.
            expect([204, 404]).toContain(rest.status);
            expect(answer.body).toEqual([]);
          }
          expect(await rows(target.id)).toHaveLength(0);
          expect(await refusals(target.id)).toEqual([]);
          expect(await tombstone(target.id)).toEqual([true]);
        }
        expect(await rows(after.id)).toHaveLength(1);
      }
    });

    it('a creation retried with a later edit, crossing its original: created once, then edited', async () => {
      for (let round = 0; round < 5; round += 1) {
        const first = aCard();
        const edited = {
          ...first,
          valor: 300,
          atualizadoEm: new Date(Date.parse(first.atualizadoEm) + 1000).toISOString(),
        };
        // Both copies read no card, then meet at the insert: held there by an insert of the
        // test's own, rolled back once both wait, so one creates and the other finds its card.
        const slot = await hold(
          `insert into app.oportunidades (id, id_empresa, cod_vendedor, estagio, nome_prospect)
           values ($1, $2, $3, 'lead', 'x')`,
          [first.id, s.idEmpresa, s.codVendedor],
        );
        const sent = Promise.all([
          pushRaw<SyncOpportunity>(rep, 'funil', [create(first)]),
          pushRaw<SyncOpportunity>(rep, 'funil', [create(edited)]),
        ]);
        try {
          await waitingOnLocks(db.pool, 2, sent);
        } finally {
          await slot.rollBack();
        }
        const answers = await sent;
        expect(answers.map((a) => a.status)).toEqual([200, 200]);
        // The creation first: the edit is applied over it, both taken as sent. The edit first: the
        // creation arrives last and is applied over it (arrival order), at the server's time.
        const [held] = await rows(first.id);
        if (Number(held.valor) === 300) expect(answers.map((a) => a.body)).toEqual([[], []]);
        else expect(answers.map((a) => a.body)).toEqual([[{ ...first, atualizadoEm: expect.any(String) }], []]);
      }
    });

    it('a creation retried while another copy created it and a device deleted it: not brought back', async () => {
      const c = aCard();
      // Another copy's creation, uncommitted: the push reads no card and no tombstone, then its
      // insert waits for this one. That copy's card is then deleted (its tombstone written as
      // the deletion writes it) and both commit before the push's insert goes on.
      const other = await hold(
        `insert into app.oportunidades (id, id_empresa, cod_vendedor, estagio, nome_prospect, valor)
         values ($1, $2, $3, 'lead', 'Mercearia', 100)`,
        [c.id, s.idEmpresa, s.codVendedor],
      );
      const pushed = pushRaw<SyncOpportunity>(rep, 'funil', [create(c)]);
      await waitingOnLocks(db.pool, 1, pushed);
      await other.client.query('delete from app.oportunidades where id = $1', [c.id]);
      await other.client.query(
        `insert into app.sync_alteracoes (id_empresa, colecao, chave, escopo, documento, hash, dados, revisao, excluido)
         values ($1, 'funil', $2, $3, $2, 'x', $4, nextval('app.sync_revisao'), true)`,
        [s.idEmpresa, c.id, s.codVendedor, storedJson({ ...c, _deleted: false })],
      );
      await other.release();
      const answer = await pushed;
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual([{ ...c, _deleted: true }]);
      expect(await rows(c.id)).toHaveLength(0);
      expect(await tombstone(c.id)).toEqual([true]);
    });
  });

  describe('pedidos', () => {
    const queued = (discount: number): SyncOrder => ({
      id: randomUUID(),
      status: 'queued',
      draft: {
        idCliente: s.idCliente,
        itens: [{ idProduto: s.products[0], quantidade: 1, descontoPercent: discount }],
      },
      order: null,
      reasons: [],
      queuedAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
      _deleted: false,
    });
    const orders = async (key: string) =>
      (
        await db.pool.query(
          'select p.id from app.chaves_idempotencia k join app.pedidos p on p.id = k.id_pedido where k.chave = $1',
          [key],
        )
      ).rows.map((r) => Number(r.id));

    async function round(lined: boolean) {
      const [a, refused, b] = [queued(0), queued(50), queued(5)];
      const batch = [a, refused, b].map((d) => ({ assumedMasterState: null, newDocumentState: d }));
      // The first order's key held as a request creating it holds it: both copies meet it in flight.
      const lock = lined
        ? await hold('select pg_advisory_xact_lock(hashtextextended($1, 0))', [
            `campo:idem:${s.idEmpresa}:${s.userId}:${a.id}`,
          ])
        : null;
      const answers = await twice<SyncOrder>('pedidos', batch, lock);
      const [ida] = await orders(a.id);
      const [idb] = await orders(b.id);
      expect([await orders(a.id), await orders(refused.id), await orders(b.id)]).toEqual([[ida], [], [idb]]);
      for (const answer of answers) {
        expect(answer.map((o) => [o.id, o.status, o.order?.id ?? null])).toEqual([
          [a.id, 'pending_approval', ida],
          [refused.id, 'refused', null],
          [b.id, 'pending_approval', idb],
        ]);
      }
    }

    it('the same batch twice, one order in flight on another request: waited for, answered, created once', async () => {
      for (let r = 0; r < 3; r += 1) await round(true);
    });

    it('the same batch twice, sent free', async () => {
      for (let r = 0; r < 10; r += 1) await round(false);
    });
  });

  describe('chamados', () => {
    const message = (texto: string) => ({
      id: randomUUID(),
      autorTipo: 'representante',
      autorNome: 'rep',
      texto,
      criadoEm: new Date().toISOString(),
    });
    const ticket = (orderId: number) => ({
      id: randomUUID(),
      idChamado: null,
      idPedido: orderId,
      numPedSar: null,
      numPedErp: null,
      idCliente: null,
      nomeCliente: null,
      assunto: 'Entrega 📦',
      status: 'aberto',
      mensagens: [message('Chegou?')],
      criadoEm: new Date().toISOString(),
      atualizadoEm: new Date().toISOString(),
      _deleted: false,
    });

    it('the same [open, reply and cancel] twice: one ticket, each reply once, nothing refused', async () => {
      const order = (
        await pushRaw<SyncOrder>(rep, 'pedidos', [
          {
            assumedMasterState: null,
            newDocumentState: {
              id: randomUUID(),
              status: 'queued',
              draft: {
                idCliente: s.idCliente,
                itens: [{ idProduto: s.products[0], quantidade: 1, descontoPercent: 0 }],
              },
              order: null,
              reasons: [],
              queuedAt: null,
              updatedAt: new Date().toISOString(),
              _deleted: false,
            },
          },
        ])
      ).body[0]?.order?.id as number;
      for (let r = 0; r < 15; r += 1) {
        const [open] = (
          await pushRaw<SyncTicket>(rep, 'chamados', [{ assumedMasterState: null, newDocumentState: ticket(order) }])
        ).body as SyncTicket[];
        const reply = message(`Resposta ${r}`);
        const fresh = ticket(order);
        const batch = [
          { assumedMasterState: null, newDocumentState: fresh },
          {
            assumedMasterState: open,
            newDocumentState: { ...open, status: 'cancelado', mensagens: [...(open as SyncTicket).mensagens, reply] },
          },
        ];
        const answers = await twice<SyncTicket>('chamados', batch);
        for (const answer of answers) {
          expect(answer.map((t) => [t.id, t.status, t.mensagens.map((m) => [m.texto, m.recusa ?? null])])).toEqual([
            [fresh.id, 'aberto', [['Chegou?', null]]],
            [
              open?.id,
              'cancelado',
              [
                ['Chegou?', null],
                [reply.texto, null],
              ],
            ],
          ]);
        }
        const n = await db.pool.query(
          `select (select count(*)::int from app.chamados where chave = $1) as tickets,
                  (select count(*)::int from app.chamado_mensagens where chave = $2) as replies,
                  (select count(*)::int from app.sync_recusas where colecao = 'chamados' and chave = $3) as refused`,
          [fresh.id, reply.id, String(open?.idChamado)],
        );
        expect(n.rows[0]).toEqual({ tickets: 1, replies: 1, refused: 0 });
      }
    });
  });

  describe('visitas', () => {
    const visit = (over: Partial<SyncVisit> = {}) => aPushedVisit(s.idCliente, over);
    const stored = async (id: string) =>
      (
        await db.pool.query(
          `select (select count(*)::int from app.visitas where chave = $1) as visits,
                  (select count(*)::int from app.sync_recusas where colecao = 'visitas' and chave = $1) as refused`,
          [id],
        )
      ).rows[0];
    let idMotivo: number;

    beforeAll(async () => {
      const res = await rep('GET', '/visit-reasons');
      const reasons = ((await res.json()) as { items: VisitReason[] }).items;
      idMotivo = (reasons.find((r) => r.ativo && !r.exigeFoto && !r.exigeObservacao) as VisitReason).id;
    });

    async function round(lined: boolean, closed: boolean) {
      const entradaEm = new Date().toISOString();
      const doc = visit(
        closed ? { entradaEm, saidaEm: new Date(Date.now() + 60_000).toISOString(), idMotivo } : { entradaEm },
      );
      // Both copies read no visit, then meet at its insert.
      const lock = lined ? await hold('lock table app.visitas in share mode', []) : null;
      const answers = await twice<SyncVisit>('visitas', [{ assumedMasterState: null, newDocumentState: doc }], lock);
      for (const answer of answers) {
        // Taken as pushed, or answered with the stored visit: never a refusal of it.
        expect(answer.map((v) => [v.id, v.recusa ?? null])).toEqual(answer.length ? [[doc.id, null]] : []);
      }
      expect(await stored(doc.id)).toEqual({ visits: 1, refused: 0 });
      if (!closed) {
        const out = await rep('POST', `/visits/${doc.id}/checkout`, {
          em: new Date(Date.now() + 60_000).toISOString(),
          idMotivo,
        });
        expect(out.status).toBe(200);
      }
    }

    it('the same check-in (and check-out) twice at once: one visit, nothing refused', async () => {
      for (const closed of [false, true]) {
        for (let r = 0; r < 3; r += 1) await round(true, closed);
        for (let r = 0; r < 5; r += 1) await round(false, closed);
      }
    });
  });

  describe('cadastros', () => {
    const registration = () => {
      const id = randomUUID();
      return {
        id,
        status: 'queued',
        dados: {
          id,
          razaoSocial: 'Quitanda Nova ☕',
          nomeFantasia: null,
          documento: newCnpj(),
          inscricaoEstadual: 'isento',
          cep: '01310-100',
          endereco: 'Avenida Paulista',
          numero: '10',
          complemento: null,
          bairro: 'Bela Vista',
          cidade: 'São Paulo',
          uf: 'SP',
          telefone: null,
          email: null,
          idPauta,
        },
        idCliente: null,
        razaoSocial: null,
        documento: null,
        reasons: [],
        criadoEm: null,
        _deleted: false,
      };
    };

    async function round(lined: boolean) {
      const docs = [registration(), registration()];
      const batch = docs.map((d) => ({ assumedMasterState: null, newDocumentState: d }));
      const lock = lined
        ? await hold('select pg_advisory_xact_lock(hashtext($1))', [`campo.cadastro:${docs[0]?.id}`])
        : null;
      const answers = await twice<SyncRegistration>('cadastros', batch, lock);
      const made = await db.pool.query(
        'select chave, id_corrent_erp from app.clientes_novos where chave = any($1) order by chave',
        [docs.map((d) => d.id)],
      );
      expect(made.rows.map((r) => r.chave).sort()).toEqual(docs.map((d) => d.id).sort());
      const byKey = new Map(made.rows.map((r) => [r.chave, r.id_corrent_erp]));
      for (const answer of answers) {
        expect(answer.map((d) => [d.id, d.status, d.idCliente])).toEqual(
          docs.map((d) => [d.id, 'created', byKey.get(d.id)]),
        );
      }
    }

    it('the same registrations twice, lined up and free: each client created once', async () => {
      for (let r = 0; r < 3; r += 1) await round(true);
      for (let r = 0; r < 10; r += 1) await round(false);
    });
  });
});
