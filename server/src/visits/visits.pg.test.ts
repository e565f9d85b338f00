// Visits against a real LATIN1 PostgreSQL (docs/visits.md): each rule of check-in and check-out
// with its typed refusal, the reasons list, the photo with its attack set, the route from the
// ERP's visit days and Campo's plan, the distance to the client, the supervisor's summary, and
// a push whose answer was lost, sent again (one visit).
import { randomUUID } from 'node:crypto';
import {
  businessDate,
  isoWeekday,
  type Problem,
  type RouteDay,
  type SyncClient,
  type SyncVisit,
  type Visit,
  type VisitPlan,
  type VisitReason,
  type VisitSummary,
} from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { HTML, png } from '../../../test/fixtures/images.ts';
import { testApp } from '../../../test/support/app.ts';
import { type Api, anOrder, aRepresentative, type Rep, signedIn } from '../../../test/support/builders.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { apiAs, logInAs } from '../../../test/support/session.ts';

const db = useTestDatabase();

const body = async <T>(res: Response) => (await res.json()) as T;
// The device's clock in these tests reads half an hour ago, so a check-out 20 minutes after the
// check-in is still in the past: a device time beyond the server's clock is replaced by it
// (docs/visits.md, "The device's clock"; device-clock.pg.test.ts).
const now = () => new Date(Date.now() - 30 * 60_000).toISOString();
const later = (minutes: number) => new Date(Date.now() + (minutes - 30) * 60_000).toISOString();
/** A point about `meters` north of another. */
const north = (p: { latitude: number; longitude: number }, meters: number) => ({
  latitude: p.latitude + meters / 111_195,
  longitude: p.longitude,
  precisao: 12,
});

describe('visits', () => {
  let app: ReturnType<typeof testApp>;
  let r1: Rep;
  let rep: Api;
  let repToken: string;
  let rep2: Api;
  let supervisor: Api;
  let otherSupervisor: Api;
  let manager: Api;
  let clients: number[];
  let otherRepClient: number;
  const today = businessDate();

  /** The representative's active clients, by id. */
  async function portfolio(r: Rep): Promise<number[]> {
    const { rows } = await db.pool.query<{ id: number }>(
      `select id_cliente as id from app.vw_clientes
        where id_empresa = $1 and cod_vendedor = $2 and cadastro_ativo order by id_cliente`,
      [r.idEmpresa, r.codVendedor],
    );
    return rows.map((x) => x.id);
  }

  const checkIn = (api: Api, idCliente: number, extra: Record<string, unknown> = {}) =>
    api('POST', '/visits', { id: randomUUID(), idCliente, em: now(), posicao: null, ...extra });
  const checkOut = (api: Api, id: string, extra: Record<string, unknown> = {}) =>
    api('POST', `/visits/${id}/checkout`, { em: later(20), ...extra });
  const reasons = async () => {
    const res = await rep('GET', '/visit-reasons');
    if (res.status !== 200) throw new Error(`GET /visit-reasons answered ${res.status}: ${await res.text()}`);
    return (await body<{ items: VisitReason[] }>(res)).items;
  };
  const reason = async (codigo: string) => (await reasons()).find((r) => r.codigo === codigo) as VisitReason;
  const photo = (api: Api, id: string, bytes: Buffer, type = 'image/png') =>
    app.request(`/api/v1/visits/${id}/photo`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${api === rep ? repToken : ''}`, 'content-type': type },
      body: bytes,
    });

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const [t1] = erp.tenants as [number];
    r1 = await aRepresentative(db.pool, erp, { tenant: t1 });
    const r2 = erp.reps.find((r) => r.idEmpresa === t1 && r.codSupervisor !== r1.codSupervisor) as Rep;
    app = testApp(db.pool);
    const representative = (login: string, r: Rep) =>
      ({ login, role: 'representative', idEmpresa: r.idEmpresa, codVendedor: r.codVendedor }) as const;
    repToken = await logInAs(app, db.pool, representative('rep@visitas.test', r1));
    rep = apiAs(app, repToken);
    rep2 = await signedIn(app, db.pool, representative('rep2@visitas.test', r2));
    supervisor = await signedIn(app, db.pool, {
      login: 'sup@visitas.test',
      role: 'supervisor',
      idEmpresa: t1,
      codSupervisor: r1.codSupervisor,
    });
    otherSupervisor = await signedIn(app, db.pool, {
      login: 'sup2@visitas.test',
      role: 'supervisor',
      idEmpresa: t1,
      codSupervisor: r2.codSupervisor,
    });
    manager = await signedIn(app, db.pool, { login: 'ger@visitas.test', role: 'manager', idEmpresa: t1 });
    clients = await portfolio(r1);
    otherRepClient = (await portfolio(r2))[0] as number;
    // The fixture's history ends now: its orders of today would decide the states below.
    await db.pool.query(
      `update public.pedidos_venda set dt_emissao = current_date - 1
        where dt_emissao >= current_date and id_corrent = any($1)`,
      [clients],
    );
    // The route is set by the test: the ERP keeps today's visit day for the first two clients,
    // none for the others.
    await db.pool.query('delete from public.corrent_visitas where id_corrent = any($1)', [clients]);
    await db.pool.query(
      'insert into public.corrent_visitas (id_corrent, dia_semana) select unnest($1::integer[]), $2',
      [clients.slice(0, 2), isoWeekday(today)],
    );
  });

  it('refuses a second check-in while a visit is open, and answers the same check-in again', async () => {
    const id = randomUUID();
    const first = await rep('POST', '/visits', { id, idCliente: clients[2], em: now(), posicao: null });
    expect(first.status).toBe(201);
    const visit = await body<Visit>(first);
    expect(visit).toMatchObject({ id, estado: 'aberta', posicao: null, distanciaMetros: null, noRoteiro: false });
    const again = await rep('POST', '/visits', { id, idCliente: clients[2], em: now(), posicao: null });
    expect(again.status).toBe(200);
    const twice = await checkIn(rep, clients[3] as number);
    expect(twice.status).toBe(409);
    expect(await body<Problem & { visitaAberta: string }>(twice)).toMatchObject({
      code: 'VISIT_ALREADY_OPEN',
      visitaAberta: id,
    });
    const taken = await rep('POST', '/visits', { id, idCliente: clients[3], em: now(), posicao: null });
    expect((await body<Problem>(taken)).code).toBe('VISIT_ID_TAKEN');
    expect((await checkOut(rep, id, { idMotivo: (await reason('preco')).id })).status).toBe(200);
    expect((await db.pool.query('select count(*)::int as n from app.visitas where chave = $1', [id])).rows[0].n).toBe(
      1,
    );
  });

  it('refuses a check-out without a check-in', async () => {
    const res = await checkOut(rep, randomUUID(), { idMotivo: (await reason('fechado')).id });
    expect(res.status).toBe(404);
    expect((await body<Problem>(res)).code).toBe('VISIT_NOT_CHECKED_IN');
  });

  it("refuses a visit to another representative's client", async () => {
    const res = await checkIn(rep, otherRepClient);
    expect(res.status).toBe(422);
    expect((await body<Problem>(res)).code).toBe('CLIENT_NOT_IN_PORTFOLIO');
    expect((await checkIn(supervisor, clients[0] as number)).status).toBe(403);
  });

  it('asks a reason from the list for a visit without an order, with the note or photo it needs', async () => {
    const visit = await body<Visit>(await checkIn(rep, clients[3] as number));
    const none = await checkOut(rep, visit.id);
    expect(none.status).toBe(422);
    expect((await body<Problem>(none)).code).toBe('VISIT_REASON_REQUIRED');
    const unknown = await checkOut(rep, visit.id, { idMotivo: 999_999 });
    expect((await body<Problem>(unknown)).code).toBe('VISIT_REASON_NOT_FOUND');
    const outro = await reason('outro');
    expect(outro.exigeObservacao).toBe(true);
    expect((await body<Problem>(await checkOut(rep, visit.id, { idMotivo: outro.id }))).code).toBe(
      'VISIT_NOTE_REQUIRED',
    );

    // The manager asks a photo for "fechado"; a representative may not change the list.
    const fechado = await reason('fechado');
    expect((await rep('PATCH', `/visit-reasons/${fechado.id}`, { exigeFoto: true })).status).toBe(403);
    const changed = await manager('PATCH', `/visit-reasons/${fechado.id}`, { exigeFoto: true });
    expect(await body<VisitReason>(changed)).toMatchObject({ exigeFoto: true, descricao: 'Fechado' });
    const noPhoto = await checkOut(rep, visit.id, { idMotivo: fechado.id });
    expect((await body<Problem>(noPhoto)).code).toBe('VISIT_PHOTO_REQUIRED');
    expect((await photo(rep, visit.id, png(4, 4))).status).toBe(204);
    const closed = await checkOut(rep, visit.id, { idMotivo: fechado.id, observacao: 'Portão fechado 🔒' });
    expect(closed.status).toBe(200);
    expect(await body<Visit>(closed)).toMatchObject({
      estado: 'sem_pedido',
      idMotivo: fechado.id,
      motivo: 'Fechado',
      observacao: 'Portão fechado 🔒',
      foto: true,
      minutos: 20,
    });
    // The same check-out again is done; another one is refused.
    const { saidaEm } = await body<Visit>(await rep('GET', `/visits/${visit.id}`));
    const repeated = await rep('POST', `/visits/${visit.id}/checkout`, { em: saidaEm, idMotivo: fechado.id });
    expect(repeated.status).toBe(200);
    expect((await body<Problem>(await checkOut(rep, visit.id, { idMotivo: outro.id, observacao: 'x' }))).code).toBe(
      'VISIT_ALREADY_CLOSED',
    );
    await manager('PATCH', `/visit-reasons/${fechado.id}`, { exigeFoto: false });
  });

  it('keeps the manager’s reasons: the defaults, a new one, a deactivated one refused', async () => {
    const list = await reasons();
    expect(list.map((r) => r.codigo)).toEqual([
      'fechado',
      'sem_necessidade',
      'estoque_alto',
      'preco',
      'concorrente',
      'comprador_ausente',
      'outro',
    ]);
    expect((await rep('POST', '/visit-reasons', { descricao: 'Inadimplente' })).status).toBe(403);
    const added = await body<VisitReason>(await manager('POST', '/visit-reasons', { descricao: 'Inadimplente 💸' }));
    expect(added).toMatchObject({ codigo: null, descricao: 'Inadimplente 💸', ativo: true, exigeFoto: false });
    await manager('PATCH', `/visit-reasons/${added.id}`, { ativo: false });
    const visit = await body<Visit>(await checkIn(rep, clients[4] as number));
    expect((await body<Problem>(await checkOut(rep, visit.id, { idMotivo: added.id }))).code).toBe(
      'VISIT_REASON_NOT_FOUND',
    );
    await checkOut(rep, visit.id, { idMotivo: (await reason('sem_necessidade')).id });
  });

  it('refuses a photo that is not an image, too large or cut short, and serves it only as an image', async () => {
    const id = randomUUID();
    const html = await photo(rep, id, HTML, 'image/png');
    expect(html.status).toBe(415);
    expect((await body<Problem>(html)).code).toBe('VISIT_PHOTO_TYPE_NOT_SUPPORTED');
    const large = await photo(rep, id, png(8, 8, 768 * 1024 + 1));
    expect(large.status).toBe(413);
    expect((await body<Problem>(large)).code).toBe('VISIT_PHOTO_TOO_LARGE');
    const whole = png(8, 8);
    const cut = await photo(rep, id, whole.subarray(0, whole.length - 6));
    expect(cut.status).toBe(422);
    expect((await body<Problem>(cut)).code).toBe('VISIT_PHOTO_INVALID');
    expect((await photo(rep, id, whole)).status).toBe(204);
    // Sent before its visit: kept under the visit's id, and the visit then shows it.
    const visit = await body<Visit>(
      await rep('POST', '/visits', { id, idCliente: clients[5], em: now(), posicao: null }),
    );
    expect(visit.foto).toBe(true);
    const got = await supervisor('GET', `/visits/${id}/photo`);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await got.arrayBuffer()).equals(whole)).toBe(true);
    expect((await otherSupervisor('GET', `/visits/${id}/photo`)).status).toBe(404);
    expect((await rep2('GET', `/visits/${id}/photo`)).status).toBe(404);
    await checkOut(rep, id, { idMotivo: (await reason('preco')).id });
  });

  it('links the order placed during an open visit', async () => {
    const client = { idCliente: clients[0] as number, razaoSocial: 'x' };
    const visit = await body<Visit>(await checkIn(rep, client.idCliente));
    const order = await anOrder(db.pool, r1, { client });
    const closed = await body<Visit>(await checkOut(rep, visit.id));
    expect(closed).toMatchObject({
      estado: 'com_pedido',
      idPedido: order.id,
      numPedSar: order.numPedSar,
      idMotivo: null,
    });

    // A phone offline for two days sends the visit and its order together: linked all the same.
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    const old = { idCliente: clients[5] as number, razaoSocial: 'y' };
    const late = await body<Visit>(await checkIn(rep, old.idCliente, { em: twoDaysAgo.toISOString() }));
    expect(late.data).toBe(businessDate(twoDaysAgo));
    const sentLater = await anOrder(db.pool, r1, { client: old });
    const linked = await checkOut(rep, late.id, { em: new Date(twoDaysAgo.getTime() + 600_000).toISOString() });
    expect(await body<Visit>(linked)).toMatchObject({ estado: 'com_pedido', idPedido: sentLater.id });
  });

  it("builds the day's route from the ERP's visit days and the supervisor's plan, in the representative's order", async () => {
    const [a, b, c, d] = clients as [number, number, number, number];
    // The ERP keeps a's days: Campo's plan may not change them.
    const erpPlan = await supervisor('PUT', `/visit-plans/${a}`, { dias: [{ diaSemana: 1 }] });
    expect(erpPlan.status).toBe(409);
    expect((await body<Problem>(erpPlan)).code).toBe('VISIT_PLAN_FROM_ERP');
    expect((await rep('PUT', `/visit-plans/${d}`, { dias: [] })).status).toBe(403);
    expect((await otherSupervisor('PUT', `/visit-plans/${d}`, { dias: [] })).status).toBe(404);
    const every2 = await supervisor('PUT', `/visit-plans/${d}`, { dias: [{ diaSemana: 1, intervaloSemanas: 2 }] });
    expect((await body<Problem>(every2)).code).toBe('VALIDATION_FAILED');
    const planned = await supervisor('PUT', `/visit-plans/${d}`, { dias: [{ diaSemana: isoWeekday(today) }] });
    expect(await body<VisitPlan>(planned)).toMatchObject({ origem: 'campo', dias: [{ diaSemana: isoWeekday(today) }] });
    expect(await body<VisitPlan>(await rep('GET', `/visit-plans/${a}`))).toMatchObject({ origem: 'erp' });
    const plans = await body<{ items: (VisitPlan & { nome: string | null })[]; total: number }>(
      await supervisor('GET', `/visit-plans?codVendedor=${r1.codVendedor}&pageSize=100`),
    );
    expect(plans.total).toBe(clients.length);
    const origin = (id: number) => plans.items.find((p) => p.idCliente === id)?.origem;
    expect([origin(a), origin(d), origin(c)]).toEqual(['erp', 'campo', 'nenhum']);
    expect((await otherSupervisor('GET', `/visit-plans?codVendedor=${r1.codVendedor}`)).status).toBe(404);

    const route = await body<RouteDay>(await rep('GET', '/visits/route'));
    const ids = route.clientes.map((x) => x.idCliente);
    expect([...ids].sort((x, y) => x - y)).toEqual([a, b, d].sort((x, y) => x - y));
    const state = (id: number) => route.clientes.find((x) => x.idCliente === id)?.estado;
    expect(state(a)).toBe('visitado_com_pedido');
    expect(state(b)).toBe('a_visitar');
    expect(state(d)).toBe('visitado_sem_pedido');
    expect(route.extras.map((x) => x.idCliente)).toContain(c);
    expect(route.resumo).toMatchObject({ planejados: 3, visitados: 2, comPedido: 1 });

    const reordered = await body<RouteDay>(await rep('PUT', '/visits/route/order', { clientes: [b, d] }));
    expect(reordered.clientes.map((x) => x.idCliente)).toEqual([b, d, a]);
    // A supervisor sees the representative's route; one of another team does not.
    const seen = await supervisor('GET', `/visits/route?codVendedor=${r1.codVendedor}`);
    expect((await body<RouteDay>(seen)).clientes.map((x) => x.idCliente)).toEqual([b, d, a]);
    expect((await otherSupervisor('GET', `/visits/route?codVendedor=${r1.codVendedor}`)).status).toBe(404);
    expect((await body<Problem>(await supervisor('GET', '/visits/route'))).code).toBe('COD_VENDEDOR_REQUIRED');
  });

  it("carries each client's visit days and position to the phone, and a new plan as a change of the client", async () => {
    type Pulled = { documents: SyncClient[]; checkpoint: string };
    const pullAll = async (checkpoint?: string) => {
      const docs: SyncClient[] = [];
      let at = checkpoint;
      for (;;) {
        const query = at === undefined ? 'limit=1000' : `limit=1000&checkpoint=${encodeURIComponent(at)}`;
        const page = await body<Pulled>(await rep('GET', `/sync/clientes/pull?${query}`));
        docs.push(...page.documents);
        at = page.checkpoint;
        if (page.documents.length < 1000) return { docs, checkpoint: at };
      }
    };
    const [a, , , , , , , , f] = clients as number[];
    const shop = { latitude: -22.9068, longitude: -43.1729 };
    await db.pool.query('update public.corrent set latitude = $2, longitude = $3 where id_corrent = $1', [
      a,
      shop.latitude,
      shop.longitude,
    ]);
    const first = await pullAll();
    const docOf = (docs: SyncClient[], id: number | undefined) => docs.find((d) => d.id === String(id));
    expect(docOf(first.docs, a)?.diasVisita).toEqual([
      { diaSemana: isoWeekday(today), intervaloSemanas: 1, dataBase: null },
    ]);
    expect(docOf(first.docs, a)?.posicao).toEqual(shop);
    expect(docOf(first.docs, f)).toMatchObject({ diasVisita: [], posicao: null });

    const dias = [{ diaSemana: 3, intervaloSemanas: 2, dataBase: '2026-01-07' }];
    expect((await supervisor('PUT', `/visit-plans/${f}`, { dias })).status).toBe(200);
    const next = await pullAll(first.checkpoint);
    expect(docOf(next.docs, f)?.diasVisita).toEqual(dias);
  });

  it("measures the distance to the client's position: the ERP's, or a first check-in a supervisor confirms", async () => {
    const [, b] = clients as [number, number];
    const shop = { latitude: -23.5505, longitude: -46.6333 };
    await db.pool.query('update public.corrent set latitude = $2, longitude = $3 where id_corrent = $1', [
      b,
      shop.latitude,
      shop.longitude,
    ]);
    const far = await body<Visit>(await checkIn(rep, b, { posicao: north(shop, 500) }));
    expect(far.distanciaMetros).toBeGreaterThanOrEqual(495);
    expect(far.distanciaMetros).toBeLessThanOrEqual(505);
    expect(far.noRoteiro).toBe(true);
    await checkOut(rep, far.id, { idMotivo: (await reason('estoque_alto')).id });

    // A client without a position: the first check-in proposes one, confirmed by the supervisor.
    const e = clients[6] as number;
    const first = await body<Visit>(await checkIn(rep, e, { posicao: north(shop, 0) }));
    expect(first.distanciaMetros).toBeNull();
    await checkOut(rep, first.id, { idMotivo: (await reason('preco')).id });
    expect((await rep('POST', `/visits/${first.id}/confirm-position`)).status).toBe(403);
    const proposals = await body<{ items: { idCliente: number; visita: string | null }[] }>(
      await supervisor('GET', '/visit-positions'),
    );
    expect(proposals.items).toContainEqual(expect.objectContaining({ idCliente: e, visita: first.id }));
    expect((await body<{ total: number }>(await otherSupervisor('GET', '/visit-positions'))).total).toBe(0);
    const confirmed = await body<Visit>(await supervisor('POST', `/visits/${first.id}/confirm-position`));
    expect(confirmed.distanciaMetros).toBe(0);
    const left = await body<{ items: { idCliente: number }[] }>(await supervisor('GET', '/visit-positions'));
    expect(left.items.map((p) => p.idCliente)).not.toContain(e);
    const second = await body<Visit>(await checkIn(rep, e, { posicao: north(shop, 100) }));
    expect(second.distanciaMetros).toBeGreaterThanOrEqual(98);
    await checkOut(rep, second.id, { idMotivo: (await reason('preco')).id });
    expect((await body<Problem>(await supervisor('POST', `/visits/${far.id}/confirm-position`))).code).toBe(
      'VISIT_PLAN_FROM_ERP',
    );
  });

  it("sums up each representative's day for the supervisor", async () => {
    const res = await supervisor('GET', '/visits/summary?longeMetros=300');
    expect(res.status).toBe(200);
    const summary = await body<VisitSummary>(res);
    // No tile server configured: the screen lists the visits.
    expect(summary.tileUrl).toBeNull();
    expect(summary.tileAttribution).toBeNull();
    const mine = summary.items.find((x) => x.codVendedor === r1.codVendedor);
    // An order the ERP took by telephone today counts for positivation, as on the dashboards.
    const e = clients[6] as number;
    const before = await body<RouteDay>(await rep('GET', '/visits/route'));
    expect(before.extras.find((x) => x.idCliente === e)?.estado).toBe('visitado_sem_pedido');
    await db.pool.query(
      `insert into public.pedidos_venda (id_empresa, num_pedido, id_corrent, cod_vendedor, dt_emissao, valor_total)
       select c.id_empresa, (select max(num_pedido) + 1 from public.pedidos_venda), c.id_corrent, c.cod_vendedor,
              now()::timestamp, 10
         from public.corrent c where c.id_corrent = $1`,
      [e],
    );
    const after = await body<RouteDay>(await rep('GET', '/visits/route'));
    expect(after.extras.find((x) => x.idCliente === e)?.estado).toBe('visitado_com_pedido');
    const again = await body<VisitSummary>(await supervisor('GET', '/visits/summary?longeMetros=300'));
    expect(again.items.find((x) => x.codVendedor === r1.codVendedor)?.positivados).toBe((mine?.positivados ?? 0) + 1);
    expect(mine).toMatchObject({ planejados: 3, visitados: 3, cobertura: 1, comPedido: 1, longe: 1 });
    expect(mine?.semPedidoPorMotivo.reduce((n, m) => n + m.visitas, 0)).toBe((mine?.visitas ?? 0) - 1);
    expect(mine?.minutosEmVisita).toBeGreaterThan(0);
    expect(summary.total).toBe(summary.items.length);
    expect((await rep('GET', '/visits/summary')).status).toBe(403);
    // Managers see every team; a supervisor only theirs.
    const all = await body<VisitSummary>(await manager('GET', '/visits/summary?pageSize=100'));
    expect(all.total).toBeGreaterThan(summary.total);
    const far = await body<{ items: Visit[]; total: number }>(await supervisor('GET', '/visits?alemMetros=300'));
    expect(far.total).toBe(mine?.longe);
    expect(far.items.every((v) => (v.distanciaMetros ?? 0) > 300)).toBe(true);
    const list = await body<{ items: Visit[]; total: number }>(await supervisor('GET', '/visits?pageSize=2'));
    expect(list.items).toHaveLength(2);
    expect(list.total).toBe(mine?.visitas);
    expect((await body<{ total: number }>(await otherSupervisor('GET', '/visits'))).total).toBe(0);
  });

  it('takes a visit pushed offline once, whatever the retries, and refuses one outside the portfolio per document', async () => {
    const fechado = await reason('sem_necessidade');
    const id = randomUUID();
    const doc: Partial<SyncVisit> & { id: string } = {
      id,
      idCliente: clients[7] as number,
      entradaEm: now(),
      posicao: null,
      saidaEm: later(15),
      saidaPosicao: null,
      idMotivo: fechado.id,
      observacao: null,
      _deleted: false,
    };
    const push = () => rep('POST', '/sync/visitas/push', [{ assumedMasterState: null, newDocumentState: doc }]);
    // The first answer is lost: the device sends the same push again.
    expect((await push()).status).toBe(200);
    const again = await push();
    expect(again.status).toBe(200);
    const [master] = await body<SyncVisit[]>(again);
    expect(master).toMatchObject({ id, estado: 'sem_pedido', idMotivo: fechado.id });
    expect((await db.pool.query('select count(*)::int as n from app.visitas where chave = $1', [id])).rows[0].n).toBe(
      1,
    );

    // A phone offline for longer than the pulled window still closes its visit.
    const longAgo = Date.now() - 45 * 86_400_000;
    const stale = {
      ...doc,
      id: randomUUID(),
      entradaEm: new Date(longAgo).toISOString(),
      saidaEm: new Date(longAgo + 600_000).toISOString(),
    };
    await rep('POST', '/sync/visitas/push', [{ assumedMasterState: null, newDocumentState: stale }]);
    const staleRow = await db.pool.query('select saida_em from app.visitas where chave = $1', [stale.id]);
    expect(staleRow.rows[0]?.saida_em).not.toBeNull();

    const foreign = { ...doc, id: randomUUID(), idCliente: otherRepClient };
    const refused = await rep('POST', '/sync/visitas/push', [{ assumedMasterState: null, newDocumentState: foreign }]);
    const [answer] = await body<SyncVisit[]>(refused);
    expect(answer?.recusa?.code).toBe('CLIENT_NOT_IN_PORTFOLIO');

    // A check-out the server cannot take stays open, with its reason, until fixed.
    const open = { ...doc, id: randomUUID(), idMotivo: null };
    const [kept] = await body<SyncVisit[]>(
      await rep('POST', '/sync/visitas/push', [{ assumedMasterState: null, newDocumentState: open }]),
    );
    expect(kept).toMatchObject({ estado: 'aberta', recusa: { code: 'VISIT_REASON_REQUIRED' } });
    const fixed = { ...open, idMotivo: fechado.id };
    const [closed] = await body<SyncVisit[]>(
      await rep('POST', '/sync/visitas/push', [{ assumedMasterState: kept, newDocumentState: fixed }]),
    );
    expect(closed?.estado).toBe('sem_pedido');
    expect(closed?.recusa ?? null).toBeNull();
    const pulled = await body<{ documents: SyncVisit[] }>(await rep('GET', '/sync/visitas/pull?limit=1000'));
    expect(pulled.documents.find((v) => v.id === open.id)).toMatchObject({ estado: 'sem_pedido' });
    expect(pulled.documents.every((v) => v.codVendedor === r1.codVendedor)).toBe(true);
    expect((await supervisor('GET', '/sync/visitas/pull')).status).toBe(403);
  });
});
