// Replication of the writable collections against a real LATIN1 PostgreSQL: orders pushed from
// an outbox (created once, refused with reasons, fixed and resent), the funnel's per-field
// merge, tickets opened and answered offline, and the commit-order horizon of the pull.
import { randomUUID } from 'node:crypto';
import {
  blankDocument,
  SYNC_PROTOCOL_VERSION,
  SYNC_VERSION_HEADER,
  type SyncOpportunity,
  type SyncOrder,
  type SyncPull,
  type SyncSettings,
  type SyncTicket,
} from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { type Api, aCard, aPricedClient, aRepresentative, signedIn } from '../../../test/support/builders.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { logInAs } from '../../../test/support/session.ts';
import { WRITER_LOCK_NS } from '../db/scope.ts';

const db = useTestDatabase();
type Doc = SyncPull['documents'][number];

async function pullAll(api: Api, collection: string, checkpoint?: string) {
  const documents: Doc[] = [];
  let cp = checkpoint;
  for (;;) {
    const query = new URLSearchParams({ limit: '50', ...(cp ? { checkpoint: cp } : {}) });
    const res = await api('GET', `/sync/${collection}/pull?${query}`);
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as SyncPull;
    documents.push(...body.documents);
    cp = body.checkpoint;
    if (body.documents.length < 50) return { documents, checkpoint: cp as string };
  }
}

async function push<T>(api: Api, collection: string, rows: unknown[]): Promise<T[]> {
  const res = await api('POST', `/sync/${collection}/push`, rows);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as T[];
}

describe('replication push', () => {
  let as: Record<'rep' | 'otherRep' | 'sup' | 'manager', Api>;
  let s: { idEmpresa: number; codVendedor: number; idCliente: number; products: number[] };

  const countOrders = async (key: string) =>
    Number(
      (
        await db.pool.query(
          'select count(*) as n from app.chaves_idempotencia k join app.pedidos p on p.id = k.id_pedido where k.chave = $1',
          [key],
        )
      ).rows[0].n,
    );

  const queued = (draft: unknown, id = randomUUID()): SyncOrder => ({
    id,
    status: 'queued',
    draft,
    order: null,
    reasons: [],
    queuedAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    _deleted: false,
  });
  const draft = (discounts: number[]) => ({
    idCliente: s.idCliente,
    itens: discounts.map((d, i) => ({ idProduto: s.products[i] as number, quantidade: 2, descontoPercent: d })),
  });

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    // A known ceiling: 10% for this representative, no category ceilings, no rules.
    const rep = await aRepresentative(db.pool, erp, { ceiling: 10 });
    const other = await aRepresentative(db.pool, erp, { besides: rep });
    const client = await aPricedClient(db.pool, rep, { products: 2 });
    s = {
      idEmpresa: rep.idEmpresa,
      codVendedor: rep.codVendedor,
      idCliente: client.idCliente,
      products: client.products.map((p) => p.id),
    };
    const app = testApp(db.pool);
    const { idEmpresa, codVendedor } = s;
    as = {
      rep: await signedIn(app, db.pool, { login: 'rep@push.test', role: 'representative', idEmpresa, codVendedor }),
      otherRep: await signedIn(app, db.pool, {
        login: 'other@push.test',
        role: 'representative',
        idEmpresa,
        codVendedor: other.codVendedor,
      }),
      sup: await signedIn(app, db.pool, {
        login: 'sup@push.test',
        role: 'supervisor',
        idEmpresa,
        codSupervisor: rep.codSupervisor,
      }),
      manager: await signedIn(app, db.pool, { login: 'ger@push.test', role: 'manager', idEmpresa }),
    };
  });

  it('reference collections: rules in force, the company and only the caller’s ceilings', async () => {
    const created = await as.manager('POST', '/politicas/regras', {
      descricao: 'Verão',
      percent: 12,
      vigenciaInicio: '2020-01-01',
      vigenciaFim: '2999-12-31',
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const rules = await pullAll(as.rep, 'regras');
    expect(rules.documents.map((d) => (d as { descricao: string }).descricao)).toContain('Verão');
    const settings = (await pullAll(as.rep, 'ajustes')).documents as SyncSettings[];
    expect(settings.map((d) => d.id).sort()).toEqual(['empresa', 'flex', 'tetos']);
    expect(settings.find((d) => d.id === 'flex')?.flex?.codVendedor).toBe(s.codVendedor);
    expect(settings.find((d) => d.id === 'tetos')?.tetos).toMatchObject({
      codVendedor: s.codVendedor,
      defaultPercent: 10,
    });
    // The rule leaves the devices when it is deleted.
    const id = ((await created.json()) as { items: { id: number }[] }).items[0]?.id;
    expect((await as.manager('DELETE', `/politicas/regras/${id}`)).status).toBe(204);
    const after = await pullAll(as.rep, 'regras', rules.checkpoint);
    // The deletion carries the rule's last state, so it validates against the collection's schema.
    expect(after.documents).toEqual([{ ...rules.documents.find((d) => d.id === String(id)), _deleted: true }]);
  });

  it('an order pushed twice (a lost answer) is created once and pulled as pending approval', async () => {
    const doc = queued(draft([0, 5]));
    const [first] = await push<SyncOrder>(as.rep, 'pedidos', [{ assumedMasterState: null, newDocumentState: doc }]);
    expect(first).toMatchObject({ id: doc.id, status: 'pending_approval', draft: null, reasons: [] });
    expect(first?.order?.itens).toHaveLength(2);
    const [again] = await push<SyncOrder>(as.rep, 'pedidos', [{ assumedMasterState: null, newDocumentState: doc }]);
    expect(again?.order?.id).toBe(first?.order?.id);
    expect(await countOrders(doc.id)).toBe(1);
    const pulled = (await pullAll(as.rep, 'pedidos')).documents as SyncOrder[];
    expect(pulled.filter((d) => d.id === doc.id)).toEqual([{ ...first, _deleted: false }]);
  });

  it('a refused order comes back with a reason per line, is fixed under the same id, and is created', async () => {
    const doc = queued(draft([0, 15]));
    const [refused] = await push<SyncOrder>(as.rep, 'pedidos', [{ assumedMasterState: null, newDocumentState: doc }]);
    expect(refused).toMatchObject({ id: doc.id, status: 'refused', order: null, draft: doc.draft });
    expect(refused?.reasons).toEqual([
      expect.objectContaining({ code: 'DISCOUNT_ABOVE_CEILING', line: 2, tetoPercent: 10, descontoPercent: 15 }),
    ]);
    expect(await countOrders(doc.id)).toBe(0);
    // Refusals are not stored: nothing to pull.
    expect(((await pullAll(as.rep, 'pedidos')).documents as SyncOrder[]).some((d) => d.id === doc.id)).toBe(false);
    const fixed = { ...doc, draft: draft([0, 10]) };
    const [accepted] = await push<SyncOrder>(as.rep, 'pedidos', [
      { assumedMasterState: refused, newDocumentState: fixed },
    ]);
    expect(accepted?.status).toBe('pending_approval');
    expect(await countOrders(doc.id)).toBe(1);
  });

  it('a malformed draft is refused field by field; a discarded refusal is accepted', async () => {
    const doc = queued({ idCliente: s.idCliente, itens: [] });
    const [refused] = await push<SyncOrder>(as.rep, 'pedidos', [{ assumedMasterState: null, newDocumentState: doc }]);
    expect(refused?.status).toBe('refused');
    expect(refused?.reasons[0]).toMatchObject({ code: 'VALIDATION' });
    expect(refused?.reasons[0]?.message).toContain('pedido.itens');
    const gone = await push(as.rep, 'pedidos', [
      { assumedMasterState: refused, newDocumentState: { ...doc, _deleted: true } },
    ]);
    expect(gone).toEqual([]);
  });

  it('a decision reaches the device incrementally; only representatives replicate orders', async () => {
    const { checkpoint } = await pullAll(as.rep, 'pedidos');
    const doc = queued(draft([1]));
    const [created] = await push<SyncOrder>(as.rep, 'pedidos', [{ assumedMasterState: null, newDocumentState: doc }]);
    const approve = await as.sup('POST', `/orders/${created?.order?.id}/approve`);
    expect(approve.status, await approve.clone().text()).toBe(200);
    const next = (await pullAll(as.rep, 'pedidos', checkpoint)).documents as SyncOrder[];
    expect(next.map((d) => [d.id, d.status])).toEqual([[doc.id, 'approved']]);
    expect((await as.sup('GET', '/sync/pedidos/pull')).status).toBe(403);
    expect((await as.sup('POST', '/sync/pedidos/push', [])).status).toBe(403);
    expect((await as.rep('POST', '/sync/produtos/push', [])).status).toBe(404);
    expect(((await pullAll(as.otherRep, 'pedidos')).documents as SyncOrder[]).some((d) => d.id === doc.id)).toBe(false);
  });

  it('funnel: edits of different fields on two devices both survive; a deletion wins', async () => {
    const id = randomUUID();
    const card = aCard({ id, nomeProspect: 'Padaria 🍞' });
    // Taken as sent: nothing to answer (a stock RxDB client would take any answer as a
    // conflict); the server's copy, with its clocks, comes by pull.
    expect(await push(as.rep, 'funil', [{ assumedMasterState: null, newDocumentState: card }])).toEqual([]);
    const master = (await pullAll(as.rep, 'funil')).documents.find((d) => d.id === id) as SyncOpportunity;
    expect(master).toMatchObject({ id, nomeProspect: 'Padaria 🍞', estagio: 'lead', _deleted: false });
    // Device A moves the card (stamping its own time, as a device does): taken as sent, so
    // nothing to answer. Device B, from the same master, edits the value: B is told of the
    // merge, since its own state lacks A's move.
    const now = () => new Date().toISOString();
    expect(
      await push(as.rep, 'funil', [
        { assumedMasterState: master, newDocumentState: { ...master, estagio: 'proposta', atualizadoEm: now() } },
      ]),
    ).toEqual([]);
    const [merged] = await push<SyncOpportunity>(as.rep, 'funil', [
      { assumedMasterState: master, newDocumentState: { ...master, valor: 250, atualizadoEm: now() } },
    ]);
    expect(merged).toMatchObject({ estagio: 'proposta', valor: 250 });
    // The same field: the later push wins, and is taken as sent (only the value merged).
    const [later] = await push<SyncOpportunity>(as.rep, 'funil', [
      { assumedMasterState: master, newDocumentState: { ...master, estagio: 'negociacao', atualizadoEm: now() } },
    ]);
    expect(later).toMatchObject({ estagio: 'negociacao', valor: 250 });
    // Another representative may not write it.
    const foreign = await as.otherRep('POST', '/sync/funil/push', [
      { assumedMasterState: null, newDocumentState: { ...master, valor: 1 } },
    ]);
    expect(foreign.status).toBe(403);
    // Deleted on one device; an edit from another comes back as the deletion, which carries
    // the card's last state.
    const last = later as SyncOpportunity;
    expect(
      await push(as.rep, 'funil', [{ assumedMasterState: last, newDocumentState: { ...last, _deleted: true } }]),
    ).toEqual([]);
    const stale = await push(as.rep, 'funil', [{ assumedMasterState: last, newDocumentState: { ...last, valor: 9 } }]);
    expect(stale).toEqual([expect.objectContaining({ id, estagio: 'negociacao', valor: 250, _deleted: true })]);
    const pulled = (await pullAll(as.rep, 'funil')).documents;
    expect(pulled.filter((d) => d.id === id)).toEqual(stale);
    // The creation retried after its answer was lost, once another device deleted the card:
    // the deletion still wins, the card is not created again.
    const retried = await push(as.rep, 'funil', [{ assumedMasterState: null, newDocumentState: card }]);
    expect(retried).toEqual(stale);
    const held = await db.pool.query('select 1 from app.oportunidades where id = $1', [id]);
    expect(held.rows).toHaveLength(0);
  });

  it('tickets: opened offline once, replies appended once, cancelled', async () => {
    const created = (
      await push<SyncOrder>(as.rep, 'pedidos', [{ assumedMasterState: null, newDocumentState: queued(draft([0])) }])
    )[0] as SyncOrder;
    const ticket = {
      id: randomUUID(),
      idChamado: null,
      idPedido: created.order?.id ?? null,
      numPedSar: null,
      numPedErp: null,
      idCliente: null,
      nomeCliente: null,
      assunto: 'Entrega 📦',
      status: 'aberto',
      mensagens: [
        {
          id: randomUUID(),
          autorTipo: 'representante',
          autorNome: 'rep',
          texto: 'Chegou?',
          criadoEm: new Date().toISOString(),
        },
      ],
      criadoEm: new Date().toISOString(),
      atualizadoEm: new Date().toISOString(),
      _deleted: false,
    };
    const [opened] = await push<SyncTicket>(as.rep, 'chamados', [
      { assumedMasterState: null, newDocumentState: ticket },
    ]);
    expect(opened).toMatchObject({ id: ticket.id, assunto: 'Entrega 📦', status: 'aberto' });
    expect(opened?.idChamado).toEqual(expect.any(Number));
    const [twice] = await push<SyncTicket>(as.rep, 'chamados', [
      { assumedMasterState: null, newDocumentState: ticket },
    ]);
    expect(twice?.idChamado).toBe(opened?.idChamado);
    const reply = { id: randomUUID(), autorTipo: 'representante', autorNome: 'rep', texto: 'Alô?', criadoEm: '' };
    const withReply = { ...(opened as SyncTicket), mensagens: [...(opened as SyncTicket).mensagens, reply] };
    await push(as.rep, 'chamados', [{ assumedMasterState: opened, newDocumentState: withReply }]);
    const [cancelled] = await push<SyncTicket>(as.rep, 'chamados', [
      { assumedMasterState: opened, newDocumentState: { ...withReply, status: 'cancelado' } },
    ]);
    expect(cancelled?.status).toBe('cancelado');
    expect(cancelled?.mensagens.map((m) => m.texto)).toEqual(['Chegou?', 'Alô?']);
    const n = await db.pool.query('select count(*)::int as n from app.chamados where chave = $1', [ticket.id]);
    expect(n.rows[0].n).toBe(1);
  });

  it('tickets: the same push sent twice at once opens one ticket and appends a reply once', async () => {
    // A flaky network or proxy repeating a request: both copies pass the "is this key known?"
    // read before either inserts, so the loser must take the winner's row, not answer 500.
    const created = (
      await push<SyncOrder>(as.rep, 'pedidos', [{ assumedMasterState: null, newDocumentState: queued(draft([0])) }])
    )[0] as SyncOrder;
    const message = (texto: string) => ({
      id: randomUUID(),
      autorTipo: 'representante',
      autorNome: 'rep',
      texto,
      criadoEm: new Date().toISOString(),
    });
    for (let i = 0; i < 4; i += 1) {
      const ticket = {
        id: randomUUID(),
        idChamado: null,
        idPedido: created.order?.id ?? null,
        numPedSar: null,
        numPedErp: null,
        idCliente: null,
        nomeCliente: null,
        assunto: `Duas vezes ${i}`,
        status: 'aberto',
        mensagens: [message('Primeira')],
        criadoEm: new Date().toISOString(),
        atualizadoEm: new Date().toISOString(),
        _deleted: false,
      };
      const row = { assumedMasterState: null, newDocumentState: ticket };
      const [a, b] = await Promise.all([
        push<SyncTicket>(as.rep, 'chamados', [row]),
        push<SyncTicket>(as.rep, 'chamados', [row]),
      ]);
      expect(a[0]?.idChamado).toEqual(expect.any(Number));
      expect(b[0]?.idChamado).toBe(a[0]?.idChamado);
      const opened = a[0] as SyncTicket;
      const withReply = { ...opened, mensagens: [...opened.mensagens, message('Segunda')] };
      const replyRow = { assumedMasterState: opened, newDocumentState: withReply };
      const [c, d] = await Promise.all([
        push<SyncTicket>(as.rep, 'chamados', [replyRow]),
        push<SyncTicket>(as.rep, 'chamados', [replyRow]),
      ]);
      expect(c[0]?.mensagens.map((m) => m.texto)).toEqual(['Primeira', 'Segunda']);
      expect(d[0]?.mensagens.map((m) => m.texto)).toEqual(['Primeira', 'Segunda']);
      const n = await db.pool.query('select count(*)::int as n from app.chamados where chave = $1', [ticket.id]);
      expect(n.rows[0].n).toBe(1);
    }
  });

  it('a pull waits for a transaction still open rather than pass its revision', async () => {
    const { checkpoint } = await pullAll(as.rep, 'funil');
    const slow = await db.pool.connect();
    try {
      // An earlier transaction writes a revision and stays open...
      await slow.query('begin');
      // As every Campo transaction does (withScope): registered before it takes an xid.
      await slow.query('select pg_advisory_xact_lock_shared($1, pg_backend_pid())', [WRITER_LOCK_NS]);
      await slow.query(
        `insert into app.sync_alteracoes (id_empresa, colecao, chave, escopo, documento, hash, revisao)
         values ($1, 'funil', 'lento', $2, 'lento', 'x', nextval('app.sync_revisao'))`,
        [s.idEmpresa, s.codVendedor],
      );
      // ...while a later one commits a card.
      const card = { id: randomUUID(), estagio: 'lead', nomeProspect: 'Depois', _deleted: false };
      await push(as.rep, 'funil', [{ assumedMasterState: null, newDocumentState: card }]);
      // The pull neither answers the card alone nor a short "up to date" page: it waits.
      let answered = false;
      const during = pullAll(as.rep, 'funil', checkpoint).finally(() => {
        answered = true;
      });
      await new Promise((r) => setTimeout(r, 300));
      expect(answered).toBe(false);
      await slow.query('commit');
      expect((await during).documents.map((d) => d.id)).toEqual(['lento', card.id]);
    } finally {
      slow.release();
    }
  });

  it('an order the ERP invoices reaches the device: by the refresh, and at once when anyone reads it', async () => {
    const placed = async () => {
      const [m] = await push<SyncOrder>(as.rep, 'pedidos', [
        { assumedMasterState: null, newDocumentState: queued(draft([0])) },
      ]);
      const id = m?.order?.id as number;
      expect((await as.sup('POST', `/orders/${id}/approve`)).status).toBe(200);
      const erp = await db.pool.query('select erp_id_pedido from app.pedidos where id = $1', [id]);
      return { id, key: m?.id as string, erpId: erp.rows[0].erp_id_pedido as number };
    };
    const invoice = (erpId: number) =>
      db.pool.query(`update pedidos_venda set situacao = 'F' where id_pedido = $1`, [erpId]);
    const status = async (id: number) =>
      (await db.pool.query('select situa from app.pedidos where id = $1', [id])).rows[0].situa as number;

    const first = await placed();
    const { checkpoint } = await pullAll(as.rep, 'pedidos');
    await invoice(first.erpId);
    // Nobody reads it through REST: the scheduled refresh (the same as POST /catalog/sync) does it.
    expect((await as.manager('POST', '/catalog/sync')).status).toBe(200);
    const refreshed = await pullAll(as.rep, 'pedidos', checkpoint);
    expect(refreshed.documents).toEqual([expect.objectContaining({ id: first.key, status: 'invoiced' })]);
    expect(await status(first.id)).toBe(3);

    const second = await placed();
    const before = await pullAll(as.rep, 'pedidos', refreshed.checkpoint);
    await invoice(second.erpId);
    // A REST read reconciles it and the device's copy goes out in the same transaction.
    expect((await as.sup('GET', `/orders/${second.id}`)).status).toBe(200);
    const read = await pullAll(as.rep, 'pedidos', before.checkpoint);
    expect(read.documents).toEqual([expect.objectContaining({ id: second.key, status: 'invoiced' })]);
  });

  it("a client's last order date reaches the device with the order, not at the next refresh", async () => {
    const { checkpoint } = await pullAll(as.rep, 'clientes');
    const before = Date.now();
    await push(as.rep, 'pedidos', [{ assumedMasterState: null, newDocumentState: queued(draft([0])) }]);
    const { documents } = await pullAll(as.rep, 'clientes', checkpoint);
    const client = documents.find((d) => d.id === String(s.idCliente)) as { lastOrderAt: string | null };
    expect(new Date(client.lastOrderAt ?? 0).getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('a refused card comes back with its reason and the rest of the batch is applied', async () => {
    const foreignClient = await db.pool.query(
      'select id_cliente from app.vw_clientes where id_empresa = $1 and cod_vendedor <> $2 limit 1',
      [s.idEmpresa, s.codVendedor],
    );
    const card = (over: Partial<SyncOpportunity>) => aCard({ nomeProspect: null, valor: null, ...over });
    const gone = card({ idCliente: foreignClient.rows[0].id_cliente });
    const invalid = card({ nomeProspect: 'Sem motivo', estagio: 'perdido' });
    const fine = card({ nomeProspect: 'Mercearia São João' });
    const answer = await push<SyncOpportunity>(as.rep, 'funil', [
      { assumedMasterState: null, newDocumentState: gone },
      { assumedMasterState: null, newDocumentState: fine },
      { assumedMasterState: null, newDocumentState: invalid },
    ]);
    // Only the refusals answer; the good card is taken and comes by pull.
    expect(answer).toEqual([
      expect.objectContaining({ id: gone.id, recusa: expect.objectContaining({ code: 'CLIENT_NOT_IN_PORTFOLIO' }) }),
      expect.objectContaining({ id: invalid.id, recusa: expect.objectContaining({ code: 'VALIDATION' }) }),
    ]);
    expect(answer[1]?.recusa?.message).toContain('motivo');
    const pulled = (await pullAll(as.rep, 'funil')).documents;
    expect(pulled.map((d) => d.id)).toContain(fine.id);
    expect(pulled.map((d) => d.id)).not.toContain(gone.id);
    // Fixed on the device (a prospect instead), pushed again from the refused state: created.
    const refused = answer[0] as SyncOpportunity;
    const fixed = { ...refused, idCliente: null, nomeProspect: 'Cliente novo', recusa: null };
    expect(await push(as.rep, 'funil', [{ assumedMasterState: refused, newDocumentState: fixed }])).toEqual([]);
    expect((await pullAll(as.rep, 'funil')).documents.map((d) => d.id)).toContain(gone.id);
    // An edit the server cannot take: the server's card comes back, with the values refused.
    const master = pulled.find((d) => d.id === fine.id) as SyncOpportunity;
    const [edit] = await push<SyncOpportunity>(as.rep, 'funil', [
      { assumedMasterState: master, newDocumentState: { ...master, estagio: 'perdido', valor: 5 } },
    ]);
    expect(edit).toMatchObject({ id: fine.id, estagio: 'lead', valor: null });
    expect(edit?.recusa).toMatchObject({ code: 'LOSS_REASON_REQUIRED', campos: { estagio: 'perdido', valor: 5 } });
    // Another device changes the card meanwhile: the refusal is still on it when pulled.
    await push(as.rep, 'funil', [
      { assumedMasterState: master, newDocumentState: { ...master, observacoes: 'ligar' } },
    ]);
    const card2 = (await pullAll(as.rep, 'funil')).documents.find((d) => d.id === fine.id) as SyncOpportunity;
    expect(card2).toMatchObject({ observacoes: 'ligar', recusa: { code: 'LOSS_REASON_REQUIRED' } });
    // Discarded on the device (recusa cleared): gone from the card on every device.
    await push(as.rep, 'funil', [{ assumedMasterState: card2, newDocumentState: { ...card2, recusa: null } }]);
    const card3 = (await pullAll(as.rep, 'funil')).documents.find((d) => d.id === fine.id) as SyncOpportunity;
    expect(card3.recusa).toBeUndefined();
  });

  it('a reply written offline to a ticket resolved meanwhile comes back with its reason, text kept', async () => {
    const [order] = await push<SyncOrder>(as.rep, 'pedidos', [
      { assumedMasterState: null, newDocumentState: queued(draft([0])) },
    ]);
    const message = (texto: string) => ({
      id: randomUUID(),
      autorTipo: 'representante',
      autorNome: 'rep',
      texto,
      criadoEm: new Date().toISOString(),
    });
    const ticket = {
      ...blankDocument('chamados', randomUUID()),
      idPedido: order?.order?.id ?? null,
      assunto: 'Troca',
      status: 'aberto',
      mensagens: [message('Veio quebrado')],
      _deleted: false,
    } as SyncTicket;
    const [opened] = await push<SyncTicket>(as.rep, 'chamados', [
      { assumedMasterState: null, newDocumentState: ticket },
    ]);
    const idChamado = opened?.idChamado as number;
    expect((await as.manager('POST', `/ger/chamados/${idChamado}/resolver`)).status).toBe(200);
    const late = message('Também faltou uma caixa — €12 😕');
    const [answer] = await push<SyncTicket>(as.rep, 'chamados', [
      {
        assumedMasterState: opened,
        newDocumentState: { ...(opened as SyncTicket), mensagens: [...(opened as SyncTicket).mensagens, late] },
      },
    ]);
    expect(answer?.status).toBe('resolvido');
    expect(answer?.mensagens.at(-1)).toMatchObject({
      id: late.id,
      texto: late.texto,
      recusa: { code: 'TICKET_CLOSED' },
    });
    // Kept on the server too: every later pull of the ticket (another device, a reinstall)
    // shows the reply and its reason, until the representative discards it.
    const pulledTicket = async () =>
      (await pullAll(as.rep, 'chamados')).documents.find((d) => d.id === ticket.id) as SyncTicket;
    expect((await pulledTicket()).mensagens.at(-1)).toMatchObject({ id: late.id, recusa: { code: 'TICKET_CLOSED' } });
    const kept = answer as SyncTicket;
    await push(as.rep, 'chamados', [
      { assumedMasterState: kept, newDocumentState: { ...kept, mensagens: kept.mensagens.slice(0, -1) } },
    ]);
    expect((await pulledTicket()).mensagens.map((m) => m.id)).not.toContain(late.id);
    // A ticket that cannot be opened (an order that is not there) comes back with its reason.
    const [bad] = await push<SyncTicket>(as.rep, 'chamados', [
      { assumedMasterState: null, newDocumentState: { ...ticket, id: randomUUID(), idPedido: 2_000_000_000 } },
    ]);
    expect(bad).toMatchObject({ idChamado: null, recusa: { code: expect.any(String) } });
    // Discarded on the device: the deletion of a ticket the server never opened is taken.
    const discarded = { ...(bad as SyncTicket), _deleted: true };
    expect(await push(as.rep, 'chamados', [{ assumedMasterState: bad, newDocumentState: discarded }])).toEqual([]);
    const held = await db.pool.query('select 1 from app.chamados where chave = $1', [discarded.id]);
    expect(held.rows).toHaveLength(0);
  });

  it('every request names its protocol version: 426 below the minimum, 400 above the current', async () => {
    const raised = testApp(db.pool, {}, { syncMinVersion: SYNC_PROTOCOL_VERSION + 1 });
    const today = testApp(db.pool);
    const bearer = await logInAs(today, db.pool, {
      login: 'rep-versao@push.test',
      role: 'representative',
      idEmpresa: s.idEmpresa,
      codVendedor: s.codVendedor,
    });
    const call = (app: typeof today, path: string, version?: string, init: RequestInit = {}) =>
      app.request(`/api/v1${path}`, {
        ...init,
        headers: {
          authorization: `Bearer ${bearer}`,
          'content-type': 'application/json',
          ...(version ? { [SYNC_VERSION_HEADER]: version } : {}),
        },
      });
    for (const [path, init] of [
      ['/sync/funil/pull', {}],
      ['/sync/funil/push', { method: 'POST', body: '[]' }],
      ['/sync/stream', {}],
    ] as const) {
      const old = await call(raised, path, String(SYNC_PROTOCOL_VERSION), init);
      expect(old.status, path).toBe(426);
      expect(await old.json()).toMatchObject({
        status: 426,
        code: 'SYNC_VERSION_UNSUPPORTED',
        minVersion: SYNC_PROTOCOL_VERSION + 1,
      });
      // No header: the first release, older still.
      expect((await call(raised, path, undefined, init)).status, path).toBe(426);
    }
    // Today's server serves the current version and the first release (no header); not a newer one.
    expect((await call(today, '/sync/funil/pull', String(SYNC_PROTOCOL_VERSION))).status).toBe(200);
    expect((await call(today, '/sync/funil/pull')).status).toBe(200);
    const ahead = await call(today, '/sync/funil/pull', String(SYNC_PROTOCOL_VERSION + 1));
    expect(ahead.status).toBe(400);
  });
});
