// The representative's day in the field (docs/visits.md): the route of the day (roteiro), visits
// with check-in and check-out where the client is, a reason for every visit without an order,
// and the supervisor's summary of a day. A visit is made offline under an id the device makes
// (a UUID), so a check-in or a check-out sent twice writes one visit.
//
// Pure rules both sides run: whether a client is due on a day (visitDue) and the distance
// between two positions (distanceMeters), so the phone shows what the server stores.
import { z } from 'zod';
import { ZIsoDate } from './dates.ts';
import { pageOf, ZPageQuery } from './pagination.ts';

/** A visit's photo: the bytes decide its type (PNG, JPEG or WebP), never the declared one. */
export const VISIT_PHOTO_MAX_BYTES = 768 * 1024;
export const VISIT_PHOTO_MAX_DIMENSION = 4096;
export const VISIT_PHOTO_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const VISIT_PHOTO_UPLOAD_CONTENT_TYPES = [...VISIT_PHOTO_MIME_TYPES, 'application/octet-stream'] as const;

/** A visit farther than this from its client's known position is "far" unless asked otherwise. */
export const VISIT_FAR_METERS_DEFAULT = 300;
export const VISIT_NOTE_MAX = 500;
export const VISIT_REASON_TEXT_MAX = 60;
/**
 * The longest a visit's time at the client counts: beyond a working day the check-out was
 * forgotten, or a clock was off, and its minutes say nothing of the time spent there.
 */
export const VISIT_MINUTES_MAX = 12 * 60;
/** The most clients a day's route holds (a portfolio's clients due that day); more are cut. */
export const ROUTE_MAX_CLIENTS = 200;

/** The reasons every tenant starts with (the manager edits, adds and deactivates them). */
export const VISIT_REASON_DEFAULTS = [
  { codigo: 'fechado', descricao: 'Fechado', exigeFoto: false, exigeObservacao: false },
  { codigo: 'sem_necessidade', descricao: 'Sem necessidade', exigeFoto: false, exigeObservacao: false },
  { codigo: 'estoque_alto', descricao: 'Estoque alto', exigeFoto: false, exigeObservacao: false },
  { codigo: 'preco', descricao: 'Preço', exigeFoto: false, exigeObservacao: false },
  { codigo: 'concorrente', descricao: 'Concorrente', exigeFoto: false, exigeObservacao: false },
  { codigo: 'comprador_ausente', descricao: 'Comprador ausente', exigeFoto: false, exigeObservacao: false },
  { codigo: 'outro', descricao: 'Outro', exigeFoto: false, exigeObservacao: true },
] as const;

// Counted in characters (code points) of the trimmed text, like the funnel's texts.
const text = (max: number) =>
  z
    .string()
    .meta({ maxLength: max })
    .trim()
    .min(1, 'não pode ficar em branco')
    .refine((s) => Array.from(s).length <= max, `no máximo ${max} caracteres`);

const ZId = z.int().positive().max(2_147_483_647);
const ZInstant = z.iso
  .datetime({ offset: true })
  .max(40)
  .describe('An instant (ISO 8601 with its offset), as the device clock read it');

export const ZVisitReason = z
  .object({
    id: z.int().describe('Reason id'),
    codigo: z
      .string()
      .nullable()
      .describe('Stable code of a default reason (fechado, preco, outro...); null for one a manager added'),
    descricao: z.string().describe('What the representative picks, in pt-BR'),
    exigeFoto: z.boolean().describe('A visit closed with this reason needs a photo (PUT /visits/{id}/photo first)'),
    exigeObservacao: z.boolean().describe('A visit closed with this reason needs a note (outro)'),
    ativo: z
      .boolean()
      .describe('Offered to the representatives; a deactivated reason stays on the visits that used it'),
    ordem: z.int().describe('Position in the list'),
  })
  .describe('A reason for a visit without an order');
export type VisitReason = z.infer<typeof ZVisitReason>;

export const ZVisitReasonCreate = z
  .object({
    descricao: text(VISIT_REASON_TEXT_MAX).describe(`The reason's text, 1 to ${VISIT_REASON_TEXT_MAX} characters`),
    exigeFoto: z.boolean().default(false).describe('Require a photo'),
    exigeObservacao: z.boolean().default(false).describe('Require a note'),
    ordem: z.int().min(0).max(1000).optional().describe('Position in the list; last when absent'),
  })
  .strict()
  .describe('A new reason');
export type VisitReasonCreate = z.infer<typeof ZVisitReasonCreate>;

export const ZVisitReasonPatch = z
  .object({
    descricao: text(VISIT_REASON_TEXT_MAX).optional().describe('New text'),
    exigeFoto: z.boolean().optional().describe('Require a photo'),
    exigeObservacao: z.boolean().optional().describe('Require a note'),
    ativo: z.boolean().optional().describe('Offer it (true) or deactivate it (false)'),
    ordem: z.int().min(0).max(1000).optional().describe('Position in the list'),
  })
  .strict()
  .describe('What changes in a reason; fields not sent are kept');
export type VisitReasonPatch = z.infer<typeof ZVisitReasonPatch>;

export const ZVisitReasonList = z
  .object({ items: z.array(ZVisitReason).max(100).describe('Every reason of the tenant, active first, by position') })
  .describe("The tenant's reasons (at most 100)");
export const VISIT_REASONS_MAX = 100;

export const ZPosition = z
  .object({
    latitude: z.number().min(-90).max(90).describe('Degrees, WGS 84'),
    longitude: z.number().min(-180).max(180).describe('Degrees, WGS 84'),
    precisao: z
      .number()
      .min(0)
      .max(100_000)
      .nullable()
      .describe("Accuracy in metres, as the browser's Geolocation API gave it"),
  })
  .describe('Where the device was');
export type Position = z.infer<typeof ZPosition>;

export const ZCheckIn = z
  .object({
    id: z
      .uuid()
      .max(36)
      .describe('The visit id, a UUID made by the device: a repeated check-in with it is answered the same visit'),
    idCliente: ZId.describe("A client of the representative's portfolio"),
    em: ZInstant.describe(
      "When the representative arrived (device clock). Outside the window (60 days before the server's clock to 5 minutes after) the server's time is kept instead, never a refusal",
    ),
    posicao: ZPosition.nullable().describe(
      'Where; null when the representative refused location (the visit counts, marked)',
    ),
  })
  .strict()
  .describe('Cheguei: the start of a visit');
export type CheckIn = z.infer<typeof ZCheckIn>;

export const ZCheckOut = z
  .object({
    em: ZInstant.describe(
      "When the representative left (device clock). Outside the window the server's time is kept; before the check-in, the check-in's (no duration): never a refusal",
    ),
    posicao: ZPosition.nullable().default(null).describe('Where; null without location'),
    idMotivo: ZId.nullable()
      .default(null)
      .describe('Why nothing was sold: required when the visit has no order, ignored when it has one'),
    observacao: text(VISIT_NOTE_MAX)
      .nullable()
      .default(null)
      .describe(
        `A note, kept as typed (emoji included), at most ${VISIT_NOTE_MAX} characters; required by some reasons`,
      ),
  })
  .strict()
  .describe('Saí: the end of a visit');
export type CheckOut = z.infer<typeof ZCheckOut>;

export const VISIT_STATES = ['aberta', 'com_pedido', 'sem_pedido'] as const;
export const ZVisit = z
  .object({
    id: z.string().describe('The visit id the device made'),
    codVendedor: z.int().describe('Representative'),
    idCliente: z.int().describe('Client'),
    nomeCliente: z.string().nullable().describe("The client's trade name, else legal name"),
    data: ZIsoDate.describe('The route day it counts for (São Paulo calendar day of the check-in)'),
    estado: z
      .enum(VISIT_STATES)
      .describe('aberta: checked in, not out; com_pedido: an order is linked; sem_pedido: closed without one'),
    entradaEm: z
      .string()
      .describe(
        "Check-in, device clock (ISO 8601); the server's receipt time when the device's was outside the window (60 days before the server's clock to 5 minutes after)",
      ),
    entradaRecebidaEm: z.string().describe('When the server received the check-in'),
    saidaEm: z
      .string()
      .nullable()
      .describe(
        "Check-out, device clock; null while open; the server's receipt time when the device's was outside the window, the check-in's when it was before it",
      ),
    saidaRecebidaEm: z.string().nullable().describe('When the server received the check-out'),
    posicao: ZPosition.nullable().describe('Where the check-in was made; null without location'),
    saidaPosicao: ZPosition.nullable().describe('Where the check-out was made; null without location'),
    distanciaMetros: z
      .int()
      .nullable()
      .describe("Metres from the check-in to the client's known position; null when either is unknown"),
    minutos: z
      .int()
      .nullable()
      .describe(
        'Minutes between check-in and check-out (device clock); null while open, when the server\'s time replaced a device time outside its window or the server closed the visit, or beyond 12 hours (docs/visits.md, "The device\'s clock")',
      ),
    noRoteiro: z.boolean().describe("The client was on the representative's route of that day"),
    idPedido: z.int().nullable().describe('The order placed during the visit'),
    numPedSar: z.int().nullable().describe("That order's Campo number"),
    idMotivo: z.int().nullable().describe('Why nothing was sold'),
    motivo: z.string().nullable().describe("The reason's text"),
    observacao: z.string().nullable().describe('The note, as typed'),
    foto: z.boolean().describe('The server holds a photo of the visit (GET /visits/{id}/photo)'),
  })
  .describe('A visit to a client');
export type Visit = z.infer<typeof ZVisit>;

export const ROUTE_STATES = [
  'a_visitar',
  'visitado_com_pedido',
  'visitado_sem_pedido',
  'nao_visitado',
  'em_visita',
] as const;
export const ZRouteState = z
  .enum(ROUTE_STATES)
  .describe(
    'a_visitar: due today, not visited yet; em_visita: checked in now; visitado_com_pedido / visitado_sem_pedido: visited, with or without an order that day; nao_visitado: due on a past day and never visited',
  );
export type RouteState = z.infer<typeof ZRouteState>;

export const ZRouteClient = z
  .object({
    idCliente: z.int().describe('Client'),
    nome: z.string().nullable().describe('Trade name, else legal name'),
    cidade: z.string().nullable().describe('City'),
    endereco: z.string().nullable().describe('Street and number'),
    estado: ZRouteState,
    posicao: ZPosition.nullable().describe(
      "The client's known position (ERP, or a confirmed check-in); null when unknown",
    ),
    visitas: z.array(z.string()).max(20).describe('Ids of the visits to the client that day'),
  })
  .describe('A client on the route');
export type RouteClient = z.infer<typeof ZRouteClient>;

export const ZRouteDay = z
  .object({
    data: ZIsoDate.describe('The day'),
    codVendedor: z.int().describe('Representative'),
    clientes: z
      .array(ZRouteClient)
      .max(ROUTE_MAX_CLIENTS)
      .describe(`The clients due that day, in the representative's order (at most ${ROUTE_MAX_CLIENTS})`),
    extras: z.array(ZRouteClient).max(ROUTE_MAX_CLIENTS).describe('Clients visited that day outside the route'),
    resumo: z
      .object({
        planejados: z.int().describe('Clients on the route'),
        visitados: z.int().describe('Of them, visited'),
        comPedido: z.int().describe('Of them, with an order that day'),
        extras: z.int().describe('Clients visited outside the route'),
      })
      .describe('"roteiro de hoje: 5 de 8 visitados, 3 com pedido"'),
  })
  .describe("A representative's route of one day");
export type RouteDay = z.infer<typeof ZRouteDay>;

export const ZRouteQuery = z.object({
  data: ZIsoDate.optional().describe('The day; today (São Paulo) when absent'),
  codVendedor: z.coerce
    .number()
    .int()
    .positive()
    .max(2_147_483_647)
    .optional()
    .describe('Representative (supervisors and managers; a representative gets their own)'),
});

export const ZRouteOrder = z
  .object({
    data: ZIsoDate.optional().describe('The day; today when absent'),
    clientes: z
      .array(ZId)
      .max(ROUTE_MAX_CLIENTS)
      .describe('Client ids in the order the representative means to visit them; the others follow'),
  })
  .strict()
  .describe("The representative's order of a day's route");

export const ZVisitDay = z
  .object({
    diaSemana: z.int().min(1).max(7).describe('ISO weekday: 1 Monday to 7 Sunday'),
    intervaloSemanas: z
      .int()
      .min(1)
      .max(8)
      .default(1)
      .describe('1: every week; N: every N weeks from the week of dataBase'),
    dataBase: ZIsoDate.nullable()
      .default(null)
      .describe('A day of a week the client is visited (needed when intervaloSemanas > 1)'),
  })
  .describe('A visit day of a client');
export type VisitDay = z.infer<typeof ZVisitDay>;

export const ZVisitPlan = z
  .object({
    idCliente: z.int().describe('Client'),
    origem: z
      .enum(['erp', 'campo', 'nenhum'])
      .describe("erp: the ERP's visit days (not editable in Campo); campo: set by a supervisor; nenhum: none"),
    dias: z.array(ZVisitDay).max(7).describe('The visit days'),
  })
  .describe("A client's visit days");
export type VisitPlan = z.infer<typeof ZVisitPlan>;

export const ZVisitPlanListQuery = ZPageQuery.extend({
  codVendedor: z.coerce
    .number()
    .int()
    .positive()
    .max(2_147_483_647)
    .optional()
    .describe('Representative whose portfolio is listed (supervisors and managers; a representative gets their own)'),
});

export const ZVisitPlanPage = pageOf(
  ZVisitPlan.extend({ nome: z.string().nullable().describe('Trade name, else legal name') }),
  "A representative's active clients, by name, each with its visit days",
);

export const ZPositionProposalQuery = ZPageQuery.extend({
  codVendedor: z.coerce.number().int().positive().max(2_147_483_647).optional().describe('One representative'),
});

export const ZPositionProposalPage = pageOf(
  z
    .object({
      idCliente: z.int().describe('Client'),
      nome: z.string().nullable().describe('Trade name, else legal name'),
      codVendedor: z.int().nullable().describe('Representative whose portfolio holds the client'),
      visita: z
        .string()
        .nullable()
        .describe('The visit whose check-in proposed it (POST /visits/{id}/confirm-position)'),
      posicao: ZPosition.describe('The proposed position, with its accuracy'),
    })
    .describe("A client's position proposed by a first check-in, waiting for confirmation"),
  'Positions waiting for a supervisor, by client name',
);

export const ZVisitPlanPut = z
  .object({
    dias: z.array(ZVisitDay).max(7).describe('The visit days, one per weekday at most; empty clears the plan'),
  })
  .strict()
  .describe("A client's visit days kept by Campo");

export const ZVisitListQuery = ZPageQuery.extend({
  data: ZIsoDate.optional().describe('The day; today when absent'),
  codVendedor: z.coerce.number().int().positive().max(2_147_483_647).optional().describe('One representative'),
  alemMetros: z.coerce
    .number()
    .int()
    .min(0)
    .max(100_000)
    .optional()
    .describe(
      'Only the visits farther than this many metres from their client (the far visits); those without a distance are left out',
    ),
});

export const ZVisitPage = pageOf(ZVisit, 'Visits of a day, by check-in time');

export const ZVisitSummaryQuery = ZPageQuery.extend({
  data: ZIsoDate.optional().describe('The day; today when absent'),
  codSupervisor: z.coerce.number().int().positive().max(2_147_483_647).optional().describe('One team (managers)'),
  longeMetros: z.coerce
    .number()
    .int()
    .min(10)
    .max(100_000)
    .default(VISIT_FAR_METERS_DEFAULT)
    .describe(`A visit farther than this from its client is far (default ${VISIT_FAR_METERS_DEFAULT} m)`),
});

export const ZVisitRepSummary = z
  .object({
    codVendedor: z.int().describe('Representative'),
    nome: z.string().nullable().describe("The representative's name"),
    planejados: z.int().describe('Clients on the route that day'),
    visitados: z.int().describe('Of them, visited'),
    cobertura: z.number().nullable().describe('visitados / planejados, 0 to 1; null without a route'),
    visitas: z.int().describe('Visits that day, route or not'),
    clientesVisitados: z.int().describe('Distinct clients visited'),
    comPedido: z.int().describe('Visits with an order'),
    positivados: z
      .int()
      .describe(
        "Distinct clients with an order that day, Campo's not rejected or the ERP's not cancelled (positivação)",
      ),
    positivacaoVisitas: z
      .number()
      .nullable()
      .describe('Visited clients with an order / clients visited; null without visits'),
    semPedidoPorMotivo: z
      .array(
        z.object({
          idMotivo: z.int().nullable().describe('Reason; null for visits closed without one'),
          motivo: z.string().nullable().describe("The reason's text"),
          visitas: z.int().describe('Visits'),
        }),
      )
      .max(100)
      .describe('Visits closed without an order, by reason'),
    minutosEmVisita: z
      .int()
      .describe(
        "Minutes between check-in and check-out, summed over closed visits whose minutes count (Visit's minutos)",
      ),
    semPosicao: z.int().describe('Visits checked in without location'),
    longe: z.int().describe('Visits farther than longeMetros from their client'),
  })
  .describe("One representative's day in the field");

export const ZVisitSummary = pageOf(ZVisitRepSummary, "The representatives' day, by name").extend({
  data: ZIsoDate.describe('The day'),
  longeMetros: z.int().describe('The threshold used for far visits'),
  tileUrl: z
    .string()
    .nullable()
    .describe(
      "The map tiles' URL template ({z}/{x}/{y}) the operator configured (MAP_TILE_URL); null: show the visits as a list by time",
    ),
  tileAttribution: z
    .string()
    .max(200)
    .nullable()
    .describe(
      "The tile server's credit to show on the map, plain text (MAP_TILE_ATTRIBUTION); null without one or without tileUrl",
    ),
});
export type VisitSummary = z.infer<typeof ZVisitSummary>;

/** Metres between two positions on the Earth (haversine, mean radius). */
export function distanceMeters(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return Math.round(2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(h))));
}

/**
 * The minutes a visit lasted, as the supervisor's summary counts them: null while open, when the
 * server's time replaced one of the device's (or the server closed it: docs/visits.md, "The
 * device's clock"), or beyond VISIT_MINUTES_MAX.
 */
export function visitMinutes(entrada: string | Date, saida: string | Date | null, credible = true): number | null {
  if (saida === null || !credible) return null;
  const minutes = Math.round((new Date(saida).getTime() - new Date(entrada).getTime()) / 60_000);
  return Number.isFinite(minutes) && minutes >= 0 && minutes <= VISIT_MINUTES_MAX ? minutes : null;
}

/** ISO weekday of a YYYY-MM-DD day: 1 Monday to 7 Sunday. */
export function isoWeekday(date: string): number {
  const d = new Date(`${date}T00:00:00Z`).getUTCDay();
  return d === 0 ? 7 : d;
}

/** Whether a client with these visit days is due on `date`. */
export function visitDue(
  date: string,
  days: readonly { diaSemana: number; intervaloSemanas: number; dataBase: string | null }[],
): boolean {
  const weekday = isoWeekday(date);
  return days.some((d) => {
    if (d.diaSemana !== weekday) return false;
    if (d.intervaloSemanas <= 1 || d.dataBase === null) return true;
    // Weeks counted Monday to Sunday, from the week of the base day.
    const monday = (day: string) => new Date(`${day}T00:00:00Z`).getTime() / 86_400_000 - (isoWeekday(day) - 1);
    const weeks = Math.round((monday(date) - monday(d.dataBase)) / 7);
    return weeks >= 0 && weeks % d.intervaloSemanas === 0;
  });
}
