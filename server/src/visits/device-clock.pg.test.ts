// A phone's clock never locks a representative out (issue 50, item 4; docs/visits.md, "The
// device's clock"): check-ins and check-outs dated 1999 or 2099 are kept at the server's time
// with the device's marked, a visit left open with such a time no longer blocks the next
// check-in, a check-out before its check-in closes the visit, and the supervisor's summary
// counts no absurd duration, through REST and through the push alike.
import { randomUUID } from 'node:crypto';
import {
  businessDate,
  DEVICE_TIME_FUTURE_MINUTES,
  type Problem,
  type SyncVisit,
  type Visit,
  type VisitReason,
  type VisitSummary,
} from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { type Api, aRepresentative, type Rep, signedIn } from '../../../test/support/builders.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';

const db = useTestDatabase();

const body = async <T>(res: Response) => (await res.json()) as T;
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
const Y2099 = '2099-06-15T12:00:00.000Z';
const Y1999 = '1999-06-15T12:00:00.000Z';

/** The answer's time is the server's: between the moments before and after the request. */
function expectServerTime(at: string | null | undefined, before: number, after: number) {
  const t = new Date(at ?? '').getTime();
  expect(t).toBeGreaterThanOrEqual(before - 1000);
  expect(t).toBeLessThanOrEqual(after + 1000);
}

describe("visits and the device's clock", () => {
  let r1: Rep;
  let rep: Api;
  let supervisor: Api;
  let clients: number[];
  let idMotivo: number;
  const today = businessDate();

  const checkIn = (idCliente: number, em: string, id = randomUUID()) =>
    rep('POST', '/visits', { id, idCliente, em, posicao: null });
  const checkOut = (id: string, em: string) => rep('POST', `/visits/${id}/checkout`, { em, idMotivo });
  const push = (doc: Partial<SyncVisit>) =>
    rep('POST', '/sync/visitas/push', [{ assumedMasterState: null, newDocumentState: { _deleted: false, ...doc } }]);

  /** Closes whatever visit the representative left open, so each test starts free. */
  async function closeOpen() {
    const { rows } = await db.pool.query<{ chave: string }>(
      'select chave from app.visitas where id_empresa = $1 and cod_vendedor = $2 and saida_em is null',
      [r1.idEmpresa, r1.codVendedor],
    );
    for (const r of rows) {
      await db.pool.query('update app.visitas set saida_em = entrada_em where chave = $1', [r.chave]);
    }
  }

  /** A visit as a server before the window stored it: the device's times as sent, unmarked. */
  async function storedBeforeTheWindow(idCliente: number, entrada: string, saida: string | null): Promise<string> {
    const chave = randomUUID();
    await db.pool.query(
      `insert into app.visitas (id_empresa, chave, cod_vendedor, id_cliente, data, entrada_em, saida_em, id_motivo)
       values ($1, $2, $3, $4, ($5::timestamptz at time zone 'America/Sao_Paulo')::date, $5, $6, $7)`,
      [r1.idEmpresa, chave, r1.codVendedor, idCliente, entrada, saida, saida === null ? null : idMotivo],
    );
    return chave;
  }

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const [t1] = erp.tenants as [number];
    r1 = await aRepresentative(db.pool, erp, { tenant: t1 });
    const app = testApp(db.pool);
    rep = await signedIn(app, db.pool, {
      login: 'rep@relogio.test',
      role: 'representative',
      idEmpresa: r1.idEmpresa,
      codVendedor: r1.codVendedor,
    });
    supervisor = await signedIn(app, db.pool, {
      login: 'sup@relogio.test',
      role: 'supervisor',
      idEmpresa: t1,
      codSupervisor: r1.codSupervisor,
    });
    const { rows } = await db.pool.query<{ id: number }>(
      `select id_cliente as id from app.vw_clientes
        where id_empresa = $1 and cod_vendedor = $2 and cadastro_ativo order by id_cliente`,
      [r1.idEmpresa, r1.codVendedor],
    );
    clients = rows.map((x) => x.id);
    const reasons = await body<{ items: VisitReason[] }>(await rep('GET', '/visit-reasons'));
    idMotivo = (reasons.items.find((r) => r.codigo === 'preco') as VisitReason).id;
  });

  it('keeps a check-in dated 2099 at the server’s time, then closes it with today’s and checks in again', async () => {
    await closeOpen();
    const before = Date.now();
    const res = await checkIn(clients[0] as number, Y2099);
    const after = Date.now();
    expect(res.status).toBe(201);
    const visit = await body<Visit>(res);
    expectServerTime(visit.entradaEm, before, after);
    expect(visit.data).toBe(today);
    // Closing it with the phone's corrected clock is a check-out like any other.
    const closed = await checkOut(visit.id, new Date().toISOString());
    expect(closed.status).toBe(200);
    expect(await body<Visit>(closed)).toMatchObject({ estado: 'sem_pedido', idMotivo });
    const next = await checkIn(clients[1] as number, new Date().toISOString());
    expect(next.status).toBe(201);
    await checkOut((await body<Visit>(next)).id, new Date().toISOString());
    // The device's own time is kept, marked.
    const row = await db.pool.query('select entrada_aparelho_em from app.visitas where chave = $1', [visit.id]);
    expect(row.rows[0]?.entrada_aparelho_em?.toISOString()).toBe(Y2099);
  });

  it('keeps a check-in dated 1999 at the server’s time, on today’s route day', async () => {
    await closeOpen();
    const before = Date.now();
    const res = await checkIn(clients[0] as number, Y1999);
    const after = Date.now();
    expect(res.status).toBe(201);
    const visit = await body<Visit>(res);
    expectServerTime(visit.entradaEm, before, after);
    expect(visit.data).toBe(today);
    expect((await checkOut(visit.id, new Date().toISOString())).status).toBe(200);
  });

  it('keeps a check-out dated 2099 at the server’s time, and the summary counts no absurd minutes', async () => {
    await closeOpen();
    const summary = async () =>
      (await body<VisitSummary>(await supervisor('GET', '/visits/summary?pageSize=100'))).items.find(
        (x) => x.codVendedor === r1.codVendedor,
      )?.minutosEmVisita ?? 0;
    const counted = await summary();
    const visit = await body<Visit>(await checkIn(clients[2] as number, minutesAgo(30)));
    const before = Date.now();
    const res = await checkOut(visit.id, Y2099);
    const after = Date.now();
    expect(res.status).toBe(200);
    const closed = await body<Visit>(res);
    expectServerTime(closed.saidaEm, before, after);
    // A time the server put in place of the device's says nothing of the duration.
    expect(closed.minutos).toBeNull();
    // The same check-out again (a retry) is answered the visit.
    expect((await checkOut(visit.id, Y2099)).status).toBe(200);
    // A visit stored before the window, closed in 2099: not 38 million minutes.
    const old = await storedBeforeTheWindow(clients[3] as number, minutesAgo(60), Y2099);
    expect((await body<Visit>(await rep('GET', `/visits/${old}`))).minutos).toBeNull();
    expect(await summary()).toBe(counted);
  });

  it('lets a visit left open in 2099 (stored before the window) be closed with today’s time', async () => {
    await closeOpen();
    const open = await storedBeforeTheWindow(clients[0] as number, Y2099, null);
    const closed = await checkOut(open, new Date().toISOString());
    expect(closed.status).toBe(200);
    const visit = await body<Visit>(closed);
    expect(visit.estado).toBe('sem_pedido');
    // Its check-in became the server's receipt of it: the visit counts on that day.
    expect(visit.data).toBe(today);
    expect(new Date(visit.entradaEm).getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('does not let a visit left open in 2099 or 1999 block the next check-in', async () => {
    for (const entrada of [Y2099, Y1999]) {
      await closeOpen();
      const open = await storedBeforeTheWindow(clients[0] as number, entrada, null);
      const next = await checkIn(clients[1] as number, new Date().toISOString());
      expect(next.status).toBe(201);
      // The server closed the stale one: no reason, no duration; the phone's check-out, when it
      // comes, still closes it with its reason.
      const stale = await body<Visit>(await rep('GET', `/visits/${open}`));
      expect(stale).toMatchObject({ estado: 'sem_pedido', idMotivo: null, minutos: null });
      const late = await checkOut(open, new Date().toISOString());
      expect(late.status).toBe(200);
      expect(await body<Visit>(late)).toMatchObject({ estado: 'sem_pedido', idMotivo });
      await checkOut((await body<Visit>(next)).id, new Date().toISOString());
    }
    // The same through the push: the phone's check-out of a visit the server closed is taken.
    await closeOpen();
    const open = await storedBeforeTheWindow(clients[0] as number, Y2099, null);
    const next = await body<Visit>(await checkIn(clients[1] as number, new Date().toISOString()));
    const stale = await body<Visit>(await rep('GET', `/visits/${open}`));
    const [closed] = await body<SyncVisit[]>(
      await push({ ...stale, saidaEm: new Date().toISOString(), idMotivo, observacao: 'Voltei depois' }),
    );
    expect(closed).toMatchObject({ estado: 'sem_pedido', idMotivo, observacao: 'Voltei depois' });
    await checkOut(next.id, new Date().toISOString());
  });

  it('still refuses a second check-in while a visit of the last days is open', async () => {
    await closeOpen();
    const open = await body<Visit>(await checkIn(clients[0] as number, minutesAgo(3 * 24 * 60)));
    const next = await checkIn(clients[1] as number, new Date().toISOString());
    expect(next.status).toBe(409);
    expect((await body<Problem>(next)).code).toBe('VISIT_ALREADY_OPEN');
    expect((await checkOut(open.id, new Date().toISOString())).status).toBe(200);
  });

  it('closes a visit whose check-out is before its check-in, without a duration', async () => {
    await closeOpen();
    const visit = await body<Visit>(await checkIn(clients[0] as number, minutesAgo(10)));
    const res = await checkOut(visit.id, minutesAgo(40));
    expect(res.status).toBe(200);
    const closed = await body<Visit>(res);
    expect(closed.saidaEm).toBe(closed.entradaEm);
    expect(closed.minutos).toBeNull();
  });

  it('takes a time a few minutes ahead (clock skew) as sent', async () => {
    await closeOpen();
    const ahead = new Date(Date.now() + (DEVICE_TIME_FUTURE_MINUTES - 2) * 60_000).toISOString();
    const visit = await body<Visit>(await checkIn(clients[0] as number, minutesAgo(20)));
    const closed = await body<Visit>(await checkOut(visit.id, ahead));
    expect(closed.saidaEm).toBe(ahead);
    expect(closed.minutos).toBe(20 + DEVICE_TIME_FUTURE_MINUTES - 2);
  });

  it('does the same through the push: a 2099 visit is kept at the server’s time and blocks nothing', async () => {
    await closeOpen();
    const id = randomUUID();
    const before = Date.now();
    const [master] = await body<SyncVisit[]>(await push({ id, idCliente: clients[0] as number, entradaEm: Y2099 }));
    const after = Date.now();
    expect(master?.recusa ?? null).toBeNull();
    expectServerTime(master?.entradaEm, before, after);
    expect(master?.data).toBe(today);
    // Closed from the phone with a check-out dated 1999: kept, at the server's time.
    const [closed] = await body<SyncVisit[]>(
      await push({ ...(master as SyncVisit), saidaEm: Y1999, idMotivo, observacao: null, saidaPosicao: null }),
    );
    expect(closed).toMatchObject({ estado: 'sem_pedido', minutos: null });
    expect(closed?.recusa ?? null).toBeNull();
    const [next] = await body<SyncVisit[]>(
      await push({ id: randomUUID(), idCliente: clients[1] as number, entradaEm: new Date().toISOString() }),
    );
    expect(next?.recusa ?? null).toBeNull();
    expect(next?.estado).toBe('aberta');
  });
});
