// SAC tickets against a real (LATIN1) database: every transition, the scopes of the two
// sides, emoji that survive the LATIN1 database, and the push to the other side.
import { createECDH, randomBytes } from 'node:crypto';
import type { Problem, Ticket, TicketSummary } from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { type Api, anOrder, aRepresentative, type Rep, signedIn } from '../../../test/support/builders.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { generateVapidKeys } from '../notifications/vapid.ts';

const db = useTestDatabase();
const vapid = { ...generateVapidKeys(), subject: 'mailto:ti@distribuidora.test' };

function device() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://127.0.0.1/wpush/${randomBytes(12).toString('base64url')}`,
    expirationTime: null,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

type Page = { items: TicketSummary[]; page: number; pageSize: number; total: number };

describe('tickets (SAC)', () => {
  const api = {} as Record<'rep' | 'rep2' | 'manager' | 'admin' | 'supervisor' | 'foreignAdmin', Api>;
  let rep: Rep;
  let rep2: Rep;
  let orderId: number;
  let orderOfRep2: number;
  let clientName: string;
  let idCliente: number;

  const create = async (body: unknown = { idPedido: orderId, assunto: 'Entrega', mensagem: 'Cadê o pedido?' }) => {
    const res = await api.rep('POST', '/chamados', body);
    expect(res.status).toBe(201);
    return (await res.json()) as Ticket;
  };
  const code = async (res: Response) => ((await res.json()) as Problem).code;

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const [t1, t2] = erp.tenants as [number, number];
    rep = await aRepresentative(db.pool, erp, { tenant: t1 });
    rep2 = await aRepresentative(db.pool, erp, { besides: rep });
    const app = testApp(db.pool, { push: { vapid, endpointHosts: ['127.0.0.1'] } });
    const users = {
      rep: { role: 'representative', idEmpresa: t1, codVendedor: rep.codVendedor, name: 'Zé Vendedor' },
      rep2: { role: 'representative', idEmpresa: t1, codVendedor: rep2.codVendedor },
      manager: { role: 'manager', idEmpresa: t1, name: 'Gerente Ana' },
      admin: { role: 'admin', idEmpresa: t1 },
      supervisor: { role: 'supervisor', idEmpresa: t1, codSupervisor: rep.codSupervisor },
      foreignAdmin: { role: 'admin', idEmpresa: t2 },
    } as const;
    for (const [who, user] of Object.entries(users)) {
      api[who as keyof typeof api] = await signedIn(app, db.pool, { ...user, login: `${who}@sac.test` });
    }
    // The ticket only needs one of the rep's orders.
    const o = await anOrder(db.pool, rep);
    orderId = o.id;
    clientName = o.nomeCliente;
    idCliente = o.idCliente;
    orderOfRep2 = (await anOrder(db.pool, rep2)).id;
  });

  it('opens a ticket about the rep’s own order, with the client copied and the first message', async () => {
    const t = await create();
    expect(t).toMatchObject({
      status: 'aberto',
      idPedido: orderId,
      numPedErp: null,
      idCliente,
      nomeCliente: clientName,
      assunto: 'Entrega',
      codVendedor: rep.codVendedor,
    });
    expect(t.mensagens).toEqual([
      expect.objectContaining({ autorTipo: 'representante', autorNome: 'Zé Vendedor', texto: 'Cadê o pedido?' }),
    ]);
  });

  it('refuses a ticket about another rep’s order, a missing ERP order, or both kinds at once', async () => {
    const other = await api.rep('POST', '/chamados', { idPedido: orderOfRep2, assunto: 'x', mensagem: 'y' });
    expect(other.status).toBe(422);
    expect(await code(other)).toBe('ORDER_NOT_FOUND');
    const erp = await api.rep('POST', '/chamados', { numPedErp: 999_999_999, assunto: 'x', mensagem: 'y' });
    expect(erp.status).toBe(422);
    const both = await api.rep('POST', '/chamados', { idPedido: orderId, numPedErp: 1, assunto: 'x', mensagem: 'y' });
    expect(both.status).toBe(400);
  });

  it('opens a ticket about an ERP order of the rep found in vw_sitpedido, and refuses another rep’s', async () => {
    const own = await db.pool.query(
      `select s.num_pedido, s.id_corrent, coalesce(nullif(btrim(c.nome_fantasia), ''), c.razao_social) as nome
         from app.vw_sitpedido s
         join app.vw_clientes c on c.id_cliente = s.id_corrent and c.id_empresa = s.id_empresa
        where s.id_empresa = $1 and s.cod_vendedor = $2 order by s.id_pedido limit 1`,
      [rep.idEmpresa, rep.codVendedor],
    );
    const row = own.rows[0];
    expect(row).toBeDefined();
    const t = await create({ numPedErp: row.num_pedido, assunto: 'Nota fiscal', mensagem: 'Preciso da segunda via' });
    expect(t).toMatchObject({
      idPedido: null,
      numPedErp: row.num_pedido,
      idCliente: row.id_corrent,
      nomeCliente: row.nome,
    });
    const foreign = await db.pool.query(
      `select num_pedido from app.vw_sitpedido where id_empresa = $1 and cod_vendedor <> $2
          and num_pedido not in (select num_pedido from app.vw_sitpedido where id_empresa = $1 and cod_vendedor = $2) limit 1`,
      [rep.idEmpresa, rep.codVendedor],
    );
    const res = await api.rep('POST', '/chamados', {
      numPedErp: foreign.rows[0].num_pedido,
      assunto: 'x',
      mensagem: 'y',
    });
    expect(res.status).toBe(422);
  });

  it('walks every transition and refuses any action on a closed ticket with 409 TICKET_CLOSED', async () => {
    const t = await create();
    const reply = (who: Api, path: string) => who('POST', path, { texto: 'mensagem' });
    let r = await reply(api.manager, `/ger/chamados/${t.id}/mensagens`);
    expect(((await r.json()) as Ticket).status).toBe('respondido');
    r = await reply(api.rep, `/chamados/${t.id}/mensagens`);
    expect(((await r.json()) as Ticket).status).toBe('aberto');
    r = await reply(api.admin, `/ger/chamados/${t.id}/mensagens`);
    expect(((await r.json()) as Ticket).status).toBe('respondido');
    r = await api.manager('POST', `/ger/chamados/${t.id}/resolver`);
    expect(r.status).toBe(200);
    expect(((await r.json()) as Ticket).status).toBe('resolvido');
    for (const [who, path, body] of [
      [api.rep, `/chamados/${t.id}/mensagens`, { texto: 'e agora?' }],
      [api.rep, `/chamados/${t.id}/cancelar`, undefined],
      [api.manager, `/ger/chamados/${t.id}/mensagens`, { texto: 'ok' }],
      [api.manager, `/ger/chamados/${t.id}/resolver`, undefined],
    ] as const) {
      const res = await who('POST', path, body);
      expect(res.status).toBe(409);
      const problem = (await res.json()) as Problem;
      expect(problem.code).toBe('TICKET_CLOSED');
      // The ticket's state is an extension; `status` stays the HTTP status (RFC 9457).
      expect(problem.status).toBe(409);
      expect(problem.ticketStatus).toBe('resolvido');
    }

    // aberto → resolvido; aberto → cancelado; respondido → cancelado; cancelado is final.
    const a = await create();
    expect((await api.manager('POST', `/ger/chamados/${a.id}/resolver`)).status).toBe(200);
    const b = await create();
    expect(((await (await api.rep('POST', `/chamados/${b.id}/cancelar`)).json()) as Ticket).status).toBe('cancelado');
    const c = await create();
    await reply(api.manager, `/ger/chamados/${c.id}/mensagens`);
    expect(((await (await api.rep('POST', `/chamados/${c.id}/cancelar`)).json()) as Ticket).status).toBe('cancelado');
    for (const [who, path] of [
      [api.rep, `/chamados/${c.id}/cancelar`],
      [api.manager, `/ger/chamados/${c.id}/resolver`],
      [api.rep, `/chamados/${c.id}/mensagens`],
    ] as const) {
      const res = await who('POST', path, { texto: 'x' });
      expect(res.status).toBe(409);
    }
    const thread = (await (await api.manager('GET', `/ger/chamados/${t.id}`)).json()) as Ticket;
    expect(thread.mensagens.map((m) => m.autorTipo)).toEqual(['representante', 'empresa', 'representante', 'empresa']);
  });

  it('keeps emoji and dashes exactly as typed in the LATIN1 database', async () => {
    const assunto = 'Entrega — urgente 🚚';
    const texto = 'Cliente irritado 😡👍🏽 “aspas” € ¤ ¤1f600; \\ fim';
    const t = await create({ idPedido: orderId, assunto, mensagem: texto });
    expect(t.assunto).toBe(assunto);
    expect(t.mensagens[0]?.texto).toBe(texto);
    const reply = '👨‍👩‍👧 resolvemos — obrigado';
    await api.manager('POST', `/ger/chamados/${t.id}/mensagens`, { texto: reply });
    const got = (await (await api.rep('GET', `/chamados/${t.id}`)).json()) as Ticket;
    expect(got.mensagens.map((m) => m.texto)).toEqual([texto, reply]);
    const stored = await db.pool.query('select assunto from app.chamados where id = $1', [t.id]);
    expect(stored.rows[0].assunto).toBe('Entrega ¤2014; urgente ¤1f69a;');
  });

  it('scopes lists and details: the rep sees their own, the company the tenant’s, another tenant nothing', async () => {
    const mine = await create();
    const rep2Order = orderOfRep2;
    const theirs = await api.rep2('POST', '/chamados', { idPedido: rep2Order, assunto: 'Outro', mensagem: 'x' });
    expect(theirs.status).toBe(201);
    const theirsId = ((await theirs.json()) as Ticket).id;

    const repList = (await (await api.rep('GET', '/chamados?pageSize=100')).json()) as Page;
    expect(repList.items.every((t) => t.codVendedor === rep.codVendedor)).toBe(true);
    expect(repList.items.map((t) => t.id)).toContain(mine.id);
    expect((await api.rep('GET', `/chamados/${theirsId}`)).status).toBe(404);
    expect((await api.rep('POST', `/chamados/${theirsId}/mensagens`, { texto: 'x' })).status).toBe(404);

    const all = (await (await api.manager('GET', '/ger/chamados?pageSize=100')).json()) as Page;
    const ids = all.items.map((t) => t.id);
    expect(ids).toEqual(expect.arrayContaining([mine.id, theirsId]));
    const counted = await db.pool.query('select count(*)::int as n from app.chamados where id_empresa = $1', [
      rep.idEmpresa,
    ]);
    expect(all.total).toBe(counted.rows[0].n);

    const byRep = (await (await api.manager('GET', `/ger/chamados?codVendedor=${rep2.codVendedor}`)).json()) as Page;
    expect(byRep.items.map((t) => t.id)).toEqual([theirsId]);
    const byClient = (await (
      await api.manager('GET', `/ger/chamados?idCliente=${idCliente}&pageSize=100`)
    ).json()) as Page;
    expect(byClient.items.length).toBeGreaterThan(0);
    expect(byClient.items.every((t) => t.idCliente === idCliente)).toBe(true);
    const part = clientName.slice(1, 6).toLowerCase();
    const byName = (await (
      await api.manager('GET', `/ger/chamados?cliente=${encodeURIComponent(part)}&pageSize=100`)
    ).json()) as Page;
    expect(byName.items.every((t) => t.nomeCliente.toLowerCase().includes(part))).toBe(true);
    expect(byName.items.map((t) => t.id)).toContain(mine.id);
    const emoji = await api.manager('GET', `/ger/chamados?cliente=${encodeURIComponent('🚚')}`);
    expect(emoji.status).toBe(200);
    const resolved = (await (
      await api.manager('GET', '/ger/chamados?status=cancelado&status=resolvido&pageSize=100')
    ).json()) as Page;
    expect(resolved.items.every((t) => t.status === 'cancelado' || t.status === 'resolvido')).toBe(true);
    const future = (await (await api.manager('GET', '/ger/chamados?dataInicio=2999-01-01')).json()) as Page;
    expect(future.total).toBe(0);
    expect((await api.manager('GET', '/ger/chamados?pageSize=101')).status).toBe(400);

    expect((await api.foreignAdmin('GET', `/ger/chamados/${mine.id}`)).status).toBe(404);
    expect((await api.foreignAdmin('POST', `/ger/chamados/${mine.id}/resolver`)).status).toBe(404);
    const foreignList = (await (await api.foreignAdmin('GET', '/ger/chamados')).json()) as Page;
    expect(foreignList.items.map((t) => t.id)).not.toContain(mine.id);

    expect((await api.supervisor('GET', '/ger/chamados')).status).toBe(403);
    expect((await api.rep('GET', `/ger/chamados/${mine.id}`)).status).toBe(403);
    expect((await api.manager('GET', '/chamados')).status).toBe(403);
  });

  it('tells the other side of a new message through the push outbox, in the same transaction', async () => {
    expect((await api.rep('POST', '/notifications/subscriptions', device())).status).toBe(201);
    expect((await api.manager('POST', '/notifications/subscriptions', device())).status).toBe(201);
    const outbox = async (login: string) => {
      const { rows } = await db.pool.query<{ payload: Buffer }>(
        'select payload from app.push_outbox where usuario = $1 order by id',
        [login],
      );
      return rows.map((r) => JSON.parse(r.payload.toString('utf8')) as { type: string; url: string; body: string });
    };
    const before = { rep: (await outbox('rep@sac.test')).length, manager: (await outbox('manager@sac.test')).length };
    const t = await create({ idPedido: orderId, assunto: 'Troca', mensagem: 'Produto avariado 📦' });
    let toManager = await outbox('manager@sac.test');
    expect(toManager.slice(before.manager)).toEqual([
      expect.objectContaining({
        type: 'ticket.message',
        url: `/chamados/${t.id}`,
        body: expect.stringContaining('📦'),
      }),
    ]);
    expect((await outbox('rep@sac.test')).length).toBe(before.rep);

    await api.manager('POST', `/ger/chamados/${t.id}/mensagens`, { texto: 'Vamos trocar' });
    const toRep = await outbox('rep@sac.test');
    expect(toRep.slice(before.rep)).toEqual([
      expect.objectContaining({ type: 'ticket.message', url: `/chamados/${t.id}` }),
    ]);
    await api.rep('POST', `/chamados/${t.id}/mensagens`, { texto: 'Obrigado' });
    toManager = await outbox('manager@sac.test');
    expect(toManager.length).toBe(before.manager + 2);

    // A refused action writes no push.
    await api.rep('POST', `/chamados/${t.id}/cancelar`);
    await api.manager('POST', `/ger/chamados/${t.id}/mensagens`, { texto: 'tarde demais' });
    expect((await outbox('rep@sac.test')).length).toBe(before.rep + 1);
  });
});
