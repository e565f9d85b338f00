// An ERP without visit days (no public.corrent_visitas) and without client coordinates (no
// corrent.latitude/longitude) provisions, and the route then comes from Campo's plan and the
// positions from confirmed check-ins (docs/erp-contract.md, "Optional: visit days and
// positions"); an ERP that gains the table later is read at once, without provisioning again.
import { randomUUID } from 'node:crypto';
import { businessDate, isoWeekday, type RouteDay, type Visit, type VisitPlan } from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { type Api, aClientOf, aRepresentative, signedIn } from '../../../test/support/builders.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';

const db = useTestDatabase();

describe('an ERP without visit days or coordinates', () => {
  let rep: Api;
  let supervisor: Api;
  let idCliente: number;
  const today = businessDate();
  const body = async <T>(res: Response) => (await res.json()) as T;

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool, { without: ['corrent_visitas'] });
    await db.pool.query('alter table public.corrent drop column latitude, drop column longitude');
    const r = await aRepresentative(db.pool, erp);
    const app = testApp(db.pool);
    rep = await signedIn(app, db.pool, {
      login: 'rep@sem-roteiro.test',
      role: 'representative',
      idEmpresa: r.idEmpresa,
      codVendedor: r.codVendedor,
    });
    supervisor = await signedIn(app, db.pool, {
      login: 'sup@sem-roteiro.test',
      role: 'supervisor',
      idEmpresa: r.idEmpresa,
      codSupervisor: r.codSupervisor,
    });
    idCliente = (await aClientOf(db.pool, r)).idCliente;
  });

  it("plans the route in Campo and measures against a confirmed check-in's position", async () => {
    expect(await body<VisitPlan>(await rep('GET', `/visit-plans/${idCliente}`))).toEqual({
      idCliente,
      origem: 'nenhum',
      dias: [],
    });
    expect((await body<RouteDay>(await rep('GET', '/visits/route'))).clientes).toEqual([]);
    const planned = await supervisor('PUT', `/visit-plans/${idCliente}`, { dias: [{ diaSemana: isoWeekday(today) }] });
    expect(planned.status).toBe(200);
    const route = await body<RouteDay>(await rep('GET', '/visits/route'));
    expect(route.clientes.map((c) => c.idCliente)).toEqual([idCliente]);
    expect(route.clientes[0]?.posicao).toBeNull();

    const at = { latitude: -15.7939, longitude: -47.8828, precisao: 20 };
    const first = await body<Visit>(
      await rep('POST', '/visits', { id: randomUUID(), idCliente, em: new Date().toISOString(), posicao: at }),
    );
    expect(first).toMatchObject({ distanciaMetros: null, noRoteiro: true });
    const confirmed = await supervisor('POST', `/visits/${first.id}/confirm-position`);
    expect(confirmed.status).toBe(200);
    expect((await body<Visit>(confirmed)).distanciaMetros).toBe(0);
    const after = await body<RouteDay>(await rep('GET', '/visits/route'));
    expect(after.clientes[0]).toMatchObject({ estado: 'em_visita', posicao: { latitude: at.latitude } });
  });

  it('reads the visit days of an ERP that gains the table, without provisioning again', async () => {
    await db.pool.query(
      `create table public.corrent_visitas (id_corrent integer not null, dia_semana smallint not null,
         intervalo_semanas smallint not null default 1, data_base date, primary key (id_corrent, dia_semana))`,
    );
    await db.pool.query('insert into public.corrent_visitas (id_corrent, dia_semana) values ($1, 3)', [idCliente]);
    expect(await body<VisitPlan>(await rep('GET', `/visit-plans/${idCliente}`))).toMatchObject({
      origem: 'erp',
      dias: [{ diaSemana: 3, intervaloSemanas: 1, dataBase: null }],
    });
    expect((await supervisor('PUT', `/visit-plans/${idCliente}`, { dias: [] })).status).toBe(409);
  });
});
