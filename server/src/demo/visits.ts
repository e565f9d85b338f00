// The demo's field day (docs/visits.md): a first look at Visitas should show a supervisor's
// evening, not an empty table. Each demo representative gets a route (visit days, the ERP's for
// some clients and Campo's plan for the others), clients placed around a Brazilian city, and
// today's and yesterday's visits, made through the same services the phone and the supervisor
// use: today as it looks at mid-afternoon (visits with an order, reasons with a note and with a
// photo, one far from its client, one without location, one outside the route, one still
// open), yesterday closed, with part of the route not visited. Like demo/orders.ts, the demo
// plays the ERP's part where the ERP keeps the data (visit days, coordinates: erp-fixture/field.ts,
// per ERP profile).
// Visit ids derive from the representative, the day and the slot, so a second run answers
// the same visits instead of adding more.
import { createHash } from 'node:crypto';
import { addDays, businessDate, isoWeekday, type VisitDay } from '@campo/shared';
import { sql } from 'kysely';
import sharp from 'sharp';
import type { Db } from '../db/kysely.ts';
import { setErpClientPosition, setErpVisitDays } from '../erp-fixture/field.ts';
import type { AuthContext } from '../http/env.ts';
import { checkIn, checkOut, listReasons, putPhoto, putPlan, updateReason } from '../visits/service.ts';
import { type DemoRep, demoManager, demoReps } from './orders.ts';

/** Where each tenant's clients are: São Paulo for the first, Campinas for the second. */
const CITIES: readonly { latitude: number; longitude: number }[] = [
  { latitude: -23.5505, longitude: -46.6333 },
  { latitude: -22.9056, longitude: -47.0608 },
];

/** How many clients a weekday's route holds outside today and yesterday. */
const ROUTE_SIZE = 8;

/** A stable UUID (version 8 layout) for one slot of one representative's day. */
function visitId(rep: DemoRep, data: string, slot: string): string {
  const h = createHash('sha256').update(`campo-demo-visit:${rep.id_empresa}:${rep.cod_vendedor}:${data}:${slot}`);
  const hex = h.digest('hex').slice(0, 32).split('');
  hex[12] = '8';
  hex[16] = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

/** A client's place: a few kilometres around the tenant's city, fixed by its id. */
function placeOf(idEmpresa: number, idCliente: number): { latitude: number; longitude: number } {
  const city = CITIES[(idEmpresa - 1) % CITIES.length] as { latitude: number; longitude: number };
  const a = ((idCliente * 7919) % 1000) / 1000 - 0.5;
  const b = ((idCliente * 104_729) % 1000) / 1000 - 0.5;
  const round = (x: number) => Math.round(x * 1e6) / 1e6;
  return { latitude: round(city.latitude + a * 0.12), longitude: round(city.longitude + b * 0.16) };
}

/** `meters` north of a place: where a phone reads itself standing near (or far from) a client. */
function north(at: { latitude: number; longitude: number }, meters: number, precisao = 12) {
  return { latitude: at.latitude + meters / 111_320, longitude: at.longitude, precisao };
}

/** The photo of a closed shop's door, drawn like the catalogue's (erp-fixture/images.ts). */
async function closedDoorPhoto(): Promise<Uint8Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480" viewBox="0 0 640 480">
  <rect width="640" height="480" fill="hsl(205,30%,85%)"/>
  <rect x="80" y="60" width="480" height="380" fill="hsl(30,20%,45%)"/>
  ${Array.from({ length: 12 }, (_, i) => `<rect x="100" y="${80 + i * 30}" width="440" height="22" fill="hsl(30,10%,70%)"/>`).join('')}
  <rect x="200" y="200" width="240" height="70" rx="8" fill="#fff"/>
  <text x="320" y="248" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="40" font-weight="bold" text-anchor="middle" fill="hsl(0,70%,40%)">FECHADO</text>
</svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer());
}

/** Visit days: the ERP keeps them for two clients in three (as its fixture does), Campo the rest. */
async function plan(db: Db, rep: DemoRep, days: Map<number, VisitDay[]>, portfolio: number[]): Promise<void> {
  const boss = demoManager(rep.id_empresa);
  for (const id of portfolio) {
    const dias = days.get(id) ?? [];
    if (id % 3 === 0) {
      await setErpVisitDays(db, id, []);
      await putPlan(db, boss, id, dias);
    } else await setErpVisitDays(db, id, dias);
  }
}

/**
 * The demo's representatives, whole days, and their teammates (no login of their own), whose
 * days stop earlier, so that a supervisor's table and cards compare a team.
 */
async function fieldReps(db: Db): Promise<{ rep: DemoRep; auth: AuthContext; until: string }[]> {
  const reps = await demoReps(db);
  const teammates = await sql<{ id_empresa: number; cod_vendedor: number; nome: string }>`
    select v.id_empresa, v.cod_vendedor, v.nome
      from app.vw_vendedores v
     where v.ativo
       and (v.id_empresa, v.cod_supervisor) in (
             select d.id_empresa, d.cod_supervisor from app.vw_vendedores d
              where (d.id_empresa, d.cod_vendedor) in (${sql.join(reps.map((r) => sql`(${r.rep.id_empresa}, ${r.rep.cod_vendedor})`))}))
       and (v.id_empresa, v.cod_vendedor) not in (${sql.join(reps.map((r) => sql`(${r.rep.id_empresa}, ${r.rep.cod_vendedor})`))})
     order by v.id_empresa, v.cod_vendedor`.execute(db);
  const stops = ['14:30', '12:00'];
  return [
    ...reps.map((r) => ({ ...r, until: '24:00' })),
    ...teammates.rows.map((t, i) => {
      const rep: DemoRep = { user_id: 0, login: `vendedor${t.cod_vendedor}`, ...t };
      const auth: AuthContext = {
        userId: 0,
        login: rep.login,
        name: t.nome,
        role: 'representative',
        idEmpresa: t.id_empresa,
        codVendedor: t.cod_vendedor,
        codSupervisor: null,
      };
      return { rep, auth, until: stops[i % stops.length] as string };
    }),
  ];
}

export async function seedDemoVisits(db: Db, now = new Date()): Promise<void> {
  const today = businessDate(now);
  const yesterday = addDays(today, -1);
  const at = (data: string, time: string) => `${data}T${time}:00-03:00`;
  // The day is played as at its end, whenever the demo starts: a visit of 15:05 seeded at 09:00
  // would be in the future for the server's clock, which would put its own time in its place.
  const clock = new Date(Math.max(now.getTime(), Date.parse(at(today, '17:00'))));
  const photo = await closedDoorPhoto();
  for (const { rep, auth, until } of await fieldReps(db)) {
    const boss = demoManager(rep.id_empresa);
    // The closed shop's reason asks for a photo, as many distributors require.
    const reasons = (await listReasons(db, boss)).items;
    const reason = (codigo: string) => {
      const r = reasons.find((x) => x.codigo === codigo);
      if (!r) throw new Error(`demo: reason ${codigo} is missing`);
      return r.id;
    };
    await updateReason(db, boss, reason('fechado'), { exigeFoto: true });

    const portfolio = (
      await sql<{ id_cliente: number }>`
        select id_cliente from app.vw_clientes
         where id_empresa = ${rep.id_empresa} and cod_vendedor = ${rep.cod_vendedor} and cadastro_ativo
         order by id_cliente`.execute(db)
    ).rows.map((r) => r.id_cliente);
    // The clients with one of the demo's orders (demo/orders.ts): a visit to them links the order.
    const ordered = new Set(
      (
        await sql<{ id_cliente: number }>`
          select distinct id_cliente from app.pedidos
           where id_empresa = ${rep.id_empresa} and cod_vendedor = ${rep.cod_vendedor}`.execute(db)
      ).rows.map((r) => r.id_cliente),
    );
    const withOrder = portfolio.filter((id) => ordered.has(id));
    const others = portfolio.filter((id) => !ordered.has(id));
    // Today's slots, in the order of the day; a slot without a client is left out.
    const [sold1, sold2, sold3, waiting] = withOrder;
    const [note, closed, far, blind, open, extra] = others;
    const todayRoute = [sold1, sold2, sold3, note, closed, far, blind, open, waiting, ...others.slice(6, 7)].filter(
      (id): id is number => id !== undefined,
    );
    // Yesterday: none of today's orders (a check-in received today would link them).
    const yesterdayRoute = [note, far, extra, closed, blind, open].filter((id): id is number => id !== undefined);

    // The week: today's and yesterday's routes, then eight clients a day on the other weekdays,
    // going round the portfolio (a small one visits some clients twice a week), one in four of
    // them every other week.
    const days = new Map<number, VisitDay[]>();
    const add = (id: number, day: VisitDay) => {
      const list = days.get(id) ?? [];
      if (!list.some((d) => d.diaSemana === day.diaSemana)) list.push(day);
      days.set(id, list);
    };
    const weekly = (diaSemana: number): VisitDay => ({ diaSemana, intervaloSemanas: 1, dataBase: null });
    for (const id of todayRoute) add(id, weekly(isoWeekday(today)));
    for (const id of yesterdayRoute) add(id, weekly(isoWeekday(yesterday)));
    const monday = addDays(today, 1 - isoWeekday(today));
    let next = todayRoute.length;
    for (let diaSemana = 1; diaSemana <= 5; diaSemana++) {
      if (diaSemana === isoWeekday(today) || diaSemana === isoWeekday(yesterday)) continue;
      for (let i = 0; i < Math.min(ROUTE_SIZE, portfolio.length); i++, next++) {
        const id = portfolio[next % portfolio.length] as number;
        add(id, next % 4 === 3 ? { diaSemana, intervaloSemanas: 2, dataBase: monday } : weekly(diaSemana));
      }
    }
    await plan(db, rep, days, portfolio);

    // Positions, as the ERP keeps them: all but the closed shop, whose first check-in proposes one.
    for (const id of portfolio) {
      const place = id === closed ? null : placeOf(rep.id_empresa, id);
      await setErpClientPosition(db, id, place);
    }

    const visit = async (
      data: string,
      slot: string,
      idCliente: number | undefined,
      times: { in: string; out?: string },
      how: { meters?: number | null; idMotivo?: number; observacao?: string; photo?: boolean } = {},
    ) => {
      // A teammate's day stops earlier; yesterday's is whole.
      if (idCliente === undefined || (data === today && times.in >= until)) return;
      const id = visitId(rep, data, slot);
      const meters = how.meters === undefined ? 20 + (idCliente % 40) : how.meters;
      const posicao = meters === null ? null : north(placeOf(rep.id_empresa, idCliente), meters);
      await checkIn(db, auth, { id, idCliente, em: at(data, times.in), posicao }, clock);
      if (how.photo) await putPhoto(db, auth, id, photo);
      if (times.out === undefined) return;
      await checkOut(
        db,
        auth,
        id,
        {
          em: at(data, times.out),
          posicao,
          idMotivo: how.idMotivo ?? null,
          observacao: how.observacao ?? null,
        },
        clock,
      );
    };

    await visit(yesterday, 'note', note, { in: '08:40', out: '09:05' }, { idMotivo: reason('estoque_alto') });
    await visit(yesterday, 'far', far, { in: '10:15', out: '10:35' }, { idMotivo: reason('preco') });
    await visit(yesterday, 'extra', extra, { in: '14:10', out: '14:30' }, { idMotivo: reason('concorrente') });

    await visit(today, 'sold1', sold1, { in: '08:15', out: '08:52' });
    await visit(today, 'sold2', sold2, { in: '09:10', out: '09:58' });
    await visit(today, 'sold3', sold3, { in: '10:20', out: '10:45' });
    await visit(
      today,
      'note',
      note,
      { in: '11:05', out: '11:20' },
      { idMotivo: reason('outro'), observacao: 'Loja em reforma; o comprador pediu para voltar na próxima semana.' },
    );
    await visit(today, 'closed', closed, { in: '11:40', out: '11:44' }, { idMotivo: reason('fechado'), photo: true });
    await visit(today, 'far', far, { in: '13:30', out: '13:55' }, { idMotivo: reason('estoque_alto'), meters: 650 });
    await visit(
      today,
      'blind',
      blind,
      { in: '14:10', out: '14:22' },
      { idMotivo: reason('comprador_ausente'), meters: null },
    );
    await visit(today, 'extra', extra, { in: '14:35', out: '14:50' }, { idMotivo: reason('sem_necessidade') });
    await visit(today, 'open', open, { in: '15:05' });
  }
}
