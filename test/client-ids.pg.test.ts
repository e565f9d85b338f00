// Every id a device chooses (docs/sync.md, "Ids the devices choose"), named by a representative
// of another tenant: a visit's id, a funnel card's, a new client's registration, a ticket's and
// its reply's, an order's Idempotency-Key, by REST and by push. Each is unique where the docs
// say (visits and cards across tenants, the rest within a tenant or a user), so the intruder
// either is refused, naming nothing, or gets a row of its own; never a row of the other tenant,
// nor a change to it, and the owner keeps working with what it wrote.
import { randomUUID } from 'node:crypto';
import { cnpjCheckDigits, type SyncOrder, type SyncRegistration, type SyncTicket } from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { png } from './fixtures/images.ts';
import { testApp } from './support/app.ts';
import { type Api, aCard, aPricedClient, aPushedVisit, aRepresentative } from './support/builders.ts';
import { clearForOrders, provisionedErp } from './support/erp.ts';
import { mentionsNumber } from './support/mentions.ts';
import { useTestDatabase } from './support/pg.ts';
import { apiAs, logInAs } from './support/session.ts';

const db = useTestDatabase();

/** What the owner writes, so that an answer to the intruder holding it is seen. */
const SECRET = 'Segredo da empresa dois';

interface Rep {
  api: Api;
  token: string;
  idEmpresa: number;
  codVendedor: number;
  idCliente: number;
  idPauta: number;
  idProduto: number;
}

let cnpjs = 0;
function newCnpj(): string {
  const base = `97${String(++cnpjs).padStart(10, '0')}`;
  return `${base}${cnpjCheckDigits(base)}`;
}

describe("client-chosen ids of another tenant's rows", () => {
  let app: ReturnType<typeof testApp>;
  let intruder: Rep;
  let owner: Rep;

  const push = async <T>(
    r: Rep,
    collection: string,
    doc: unknown,
  ): Promise<{ status: number; text: string; body: T[] }> => {
    const res = await r.api('POST', `/sync/${collection}/push`, [{ assumedMasterState: null, newDocumentState: doc }]);
    const text = await res.text();
    return { status: res.status, text, body: res.status === 200 ? (JSON.parse(text) as T[]) : [] };
  };
  const text = async (res: Response) => ({ status: res.status, text: await res.text() });
  const count = async (sql: string, params: unknown[]) =>
    Number((await db.pool.query<{ n: string }>(sql, params)).rows[0]?.n);

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const [t1, t2] = erp.tenants;
    if (!t1 || !t2) throw new Error('the tiny fixture lacks two tenants');
    app = testApp(db.pool);
    const signIn = async (login: string, tenant: number): Promise<Rep> => {
      const r = await aRepresentative(db.pool, erp, { tenant });
      const client = await aPricedClient(db.pool, r);
      await clearForOrders(db.pool, client.idCliente);
      const token = await logInAs(app, db.pool, {
        login,
        role: 'representative',
        idEmpresa: r.idEmpresa,
        codVendedor: r.codVendedor,
      });
      return {
        ...r,
        token,
        api: apiAs(app, token),
        idCliente: client.idCliente,
        idPauta: client.idPauta,
        idProduto: client.products[0]?.id as number,
      };
    };
    intruder = await signIn('rep@ids-empresa1.test', t1);
    owner = await signIn('rep@ids-empresa2.test', t2);
  });

  it('a visit id: refused to a check-in (REST and push), 404 to a photo, a check-out and a read', async () => {
    const id = randomUUID();
    const checkIn = (r: Rep) =>
      r.api('POST', '/visits', { id, idCliente: r.idCliente, em: new Date().toISOString(), posicao: null });
    expect((await checkIn(owner)).status).toBe(201);
    const before = await text(await owner.api('GET', `/visits/${id}`));
    const rest = await text(await checkIn(intruder));
    expect([rest.status, rest.text]).toEqual([409, expect.stringContaining('VISIT_ID_TAKEN')]);
    const pushed = await push(intruder, 'visitas', aPushedVisit(intruder.idCliente, { id }));
    expect([pushed.status, pushed.text]).toEqual([200, expect.stringContaining('VISIT_ID_TAKEN')]);
    expect(mentionsNumber(pushed.text, owner.idCliente)).toBe(false);
    const photo = await app.request(`/api/v1/visits/${id}/photo`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${intruder.token}`, 'content-type': 'image/png' },
      body: png(2, 2),
    });
    expect(photo.status).toBe(404);
    expect((await intruder.api('POST', `/visits/${id}/checkout`, { em: new Date().toISOString() })).status).toBe(404);
    expect((await intruder.api('GET', `/visits/${id}`)).status).toBe(404);
    expect((await intruder.api('GET', `/visits/${id}/photo`)).status).toBe(404);
    expect(await count('select count(*) as n from app.visitas where chave = $1', [id])).toBe(1);
    expect(await count('select count(*) as n from app.visita_fotos where chave_visita = $1', [id])).toBe(0);
    expect(await text(await owner.api('GET', `/visits/${id}`))).toEqual(before);
  });

  it("a funnel card's id: refused to a creation (REST 409, push 403), 404 to an edit, nothing deleted", async () => {
    const card = aCard({ nomeProspect: SECRET });
    const { _deleted, nomeCliente, criadoEm, atualizadoEm, ...create } = card;
    expect((await owner.api('POST', '/funil', create)).status).toBe(201);
    const before = await text(await owner.api('GET', '/funil'));
    const rest = await text(await intruder.api('POST', '/funil', { ...create, nomeProspect: 'Outro' }));
    expect([rest.status, rest.text]).toEqual([409, expect.stringContaining('OPPORTUNITY_ID_TAKEN')]);
    expect(rest.text).not.toContain(SECRET);
    const same = await text(await intruder.api('POST', '/funil', create));
    expect(same.status).toBe(409);
    expect(same.text).not.toContain(SECRET);
    // As an id of another representative of the tenant: the whole push is refused (docs/sync.md).
    const pushed = await push(intruder, 'funil', { ...card, nomeProspect: 'Outro' });
    expect(pushed.status).toBe(403);
    expect(pushed.text).not.toContain(SECRET);
    expect((await intruder.api('PATCH', `/funil/${card.id}`, { estagio: 'proposta' })).status).toBe(404);
    expect([204, 404]).toContain((await intruder.api('DELETE', `/funil/${card.id}`)).status);
    await push(intruder, 'funil', { ...card, _deleted: true });
    expect(await text(await owner.api('GET', '/funil'))).toEqual(before);
    expect((await text(await intruder.api('GET', '/funil'))).text).not.toContain(SECRET);
  });

  it("a new client's registration id: the intruder's own registration, the owner's untouched", async () => {
    const id = randomUUID();
    const body = (r: Rep, razaoSocial: string) => ({
      id,
      razaoSocial,
      documento: newCnpj(),
      inscricaoEstadual: 'ISENTO',
      cep: '01001000',
      endereco: 'Praça da Sé',
      bairro: 'Sé',
      cidade: 'São Paulo',
      uf: 'SP',
      idPauta: r.idPauta,
    });
    const mine = await text(await owner.api('POST', '/clients', body(owner, SECRET)));
    expect(mine.status).toBe(201);
    const rest = await text(await intruder.api('POST', '/clients', body(intruder, 'Mercado Um')));
    expect(rest.status).toBe(201);
    expect(rest.text).not.toContain(SECRET);
    // The same id by push: the intruder's registration answered, never the owner's.
    const { id: _, ...dados } = body(intruder, 'Mercado Um');
    const pushed = await push<SyncRegistration>(intruder, 'cadastros', {
      id,
      status: 'queued',
      dados: { id, ...dados, nomeFantasia: null, numero: null, complemento: null, telefone: null, email: null },
      idCliente: null,
      razaoSocial: null,
      documento: null,
      reasons: [],
      criadoEm: null,
      _deleted: false,
    });
    expect(pushed.status).toBe(200);
    expect(pushed.text).not.toContain(SECRET);
    const rows = await db.pool.query<{ id_empresa: number; razao_social: string }>(
      'select id_empresa, razao_social from app.clientes_novos where chave = $1 order by id_empresa',
      [id],
    );
    expect(rows.rows.map((r) => [r.id_empresa, r.razao_social]).sort()).toEqual(
      [
        [intruder.idEmpresa, 'Mercado Um'],
        [owner.idEmpresa, SECRET],
      ].sort(),
    );
  });

  it("an order's Idempotency-Key and a ticket's ids: the intruder's own order and ticket", async () => {
    const key = randomUUID();
    const order = (r: Rep, observacao: string) => ({
      idCliente: r.idCliente,
      observacao,
      itens: [{ idProduto: r.idProduto, quantidade: 1, descontoPercent: 0 }],
    });
    const own = await owner.api('POST', '/orders', order(owner, SECRET), { 'idempotency-key': key });
    expect(own.status).toBe(201);
    const ownOrder = (await own.json()) as { id: number };
    const rest = await text(
      await intruder.api('POST', '/orders', order(intruder, 'Pedido um'), { 'idempotency-key': key }),
    );
    expect(rest.status).toBe(201);
    expect(rest.text).not.toContain(SECRET);
    expect(JSON.parse(rest.text).id).not.toBe(ownOrder.id);
    const queued = (r: Rep, id: string): SyncOrder => ({
      id,
      status: 'queued',
      draft: { idCliente: r.idCliente, itens: [{ idProduto: r.idProduto, quantidade: 1, descontoPercent: 0 }] },
      order: null,
      reasons: [],
      queuedAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
      _deleted: false,
    });
    const pushedKey = randomUUID();
    const [ownPushed] = (await push<SyncOrder>(owner, 'pedidos', queued(owner, pushedKey))).body;
    const pushed = await push<SyncOrder>(intruder, 'pedidos', queued(intruder, pushedKey));
    expect(pushed.status).toBe(200);
    expect(pushed.body[0]?.order?.id).not.toBe(ownPushed?.order?.id);
    expect(pushed.body[0]?.order?.idCliente).toBe(intruder.idCliente);
    expect((await owner.api('GET', `/orders/${ownOrder.id}`)).status).toBe(200);
    expect((await intruder.api('GET', `/orders/${ownOrder.id}`)).status).toBe(404);

    // A ticket and its first message under the owner's ids.
    const ticketId = randomUUID();
    const messageId = randomUUID();
    const ticket = (idPedido: number, assunto: string): SyncTicket =>
      ({
        id: ticketId,
        idChamado: null,
        idPedido,
        numPedSar: null,
        numPedErp: null,
        idCliente: null,
        nomeCliente: null,
        assunto,
        status: 'aberto',
        mensagens: [
          {
            id: messageId,
            autorTipo: 'representante',
            autorNome: 'rep',
            texto: assunto,
            criadoEm: new Date().toISOString(),
          },
        ],
        criadoEm: new Date().toISOString(),
        atualizadoEm: new Date().toISOString(),
        _deleted: false,
      }) as SyncTicket;
    const mine = await push<SyncTicket>(owner, 'chamados', ticket(ownOrder.id, SECRET));
    expect(mine.status).toBe(200);
    const theirs = await push<SyncTicket>(intruder, 'chamados', ticket(JSON.parse(rest.text).id, 'Chamado um'));
    expect(theirs.status).toBe(200);
    expect(theirs.text).not.toContain(SECRET);
    const rows = await db.pool.query<{ id_empresa: number; assunto: string }>(
      'select id_empresa, assunto from app.chamados where chave = $1',
      [ticketId],
    );
    expect(rows.rows.map((r) => r.id_empresa).sort()).toEqual([intruder.idEmpresa, owner.idEmpresa].sort());
    expect(rows.rows.find((r) => r.id_empresa === owner.idEmpresa)?.assunto).toContain('Segredo');
    expect(
      await count('select count(*) as n from app.chamado_mensagens where chave = $1 and id_empresa = $2', [
        messageId,
        owner.idEmpresa,
      ]),
    ).toBe(1);
  });
});
