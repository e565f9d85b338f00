// The representative's day in the field (docs/visits.md). A visit is the representative's own
// (check-in, check-out, photo), under an id the device makes, so a check-in or check-out that
// reaches the server twice (a retried request, a push whose answer was lost) writes one visit.
// The server keeps the device's times and its own receipt times; it refuses, with a typed
// reason, a visit to a client outside the portfolio, a second open visit, a check-out without
// a check-in, and a visit without an order closed without a reason from the manager's list (or
// without the note or photo that reason asks for).
import {
  boundDeviceTime,
  businessDate,
  type CheckIn,
  type CheckOut,
  decodeLossless,
  distanceMeters,
  encodeLossless,
  type Position,
  ROUTE_MAX_CLIENTS,
  type RouteClient,
  type RouteDay,
  VISIT_REASONS_MAX,
  type Visit,
  type VisitDay,
  type VisitPlan,
  type VisitReason,
  type VisitReasonCreate,
  type VisitReasonPatch,
  type VisitSummary,
  visitDue,
} from '@campo/shared';
import { authorize, notYours, type RepresentativeAuth, reaches, scopeOf, teamScope } from '../auth/authorize.ts';
import { touchDocuments, touchSqlDocuments } from '../changelog/changelog.ts';
import { portfolioDocuments } from '../clients/portfolio-documents.ts';
import type { Db } from '../db/kysely.ts';
import { type Tx, withScope } from '../db/scope.ts';
import { findRep } from '../directory/service.ts';
import { DomainError, notFound } from '../errors.ts';
import type { AuthContext } from '../http/env.ts';
import { plansOf, syncWindowStart, visitSyncDoc, visitsOf } from './documents.ts';
import { inspectPhoto } from './photo.ts';
import * as q from './queries.ts';

const field = (code: 'VALIDATION_FAILED', detail: string, path: string) =>
  new DomainError(code, detail, { errors: [{ path, message: detail }] });

function toReason(r: Awaited<ReturnType<typeof q.selectReasons>>[number]): VisitReason {
  return {
    id: r.id,
    codigo: r.codigo,
    descricao: decodeLossless(r.descricao),
    exigeFoto: r.exige_foto,
    exigeObservacao: r.exige_observacao,
    ativo: r.ativo,
    ordem: r.ordem,
  };
}

/** The visit as answered, with whether its client was on its day's route. */
async function visitOf(tx: Tx, idEmpresa: number, chave: string): Promise<Visit> {
  const row = await q.selectVisitByKey(tx, idEmpresa, chave);
  if (!row) throw notFound('Visita');
  const [visit] = await visitsOf(tx, idEmpresa, [row]);
  return visit as Visit;
}

/** Records the visit's new state in the change log (collection visitas) and answers it. */
async function touched(tx: Tx, idEmpresa: number, chave: string): Promise<Visit> {
  const visit = await visitOf(tx, idEmpresa, chave);
  await touchDocuments(tx, idEmpresa, 'visitas', visit.codVendedor, [visitSyncDoc(visit)]);
  return visit;
}

/**
 * The client's portfolio document (collection clientes) carries its visit days and known
 * position, from which the phone computes the route and the distance offline: a change of
 * either is a change of the document.
 */
async function touchClient(tx: Tx, idEmpresa: number, client: q.PortfolioClient): Promise<void> {
  await touchSqlDocuments(tx, idEmpresa, portfolioDocuments, client.cod_vendedor, [client.id_cliente]);
}

/** A representative in the caller's reach, or 404 (as for one who does not exist). */
async function repInReach(tx: Tx, auth: AuthContext, asked: number | undefined): Promise<number> {
  const scope = teamScope(auth, { codVendedor: asked });
  if (scope === null) throw notFound('Representante');
  if (scope.codVendedor === undefined) {
    throw new DomainError('COD_VENDEDOR_REQUIRED', 'Informe codVendedor: o roteiro é de um representante.');
  }
  const rep = await findRep(tx, auth.idEmpresa, scope.codVendedor);
  if (!rep || !reaches(auth, { codVendedor: rep.cod_vendedor, codSupervisor: rep.cod_supervisor })) {
    throw notFound('Representante');
  }
  return scope.codVendedor;
}

// Reasons ---------------------------------------------------------------------------------------

export function listReasons(db: Db, auth: AuthContext): Promise<{ items: VisitReason[] }> {
  return withScope(db, scopeOf(auth), async (tx) => {
    await q.seedReasons(tx, auth.idEmpresa);
    return { items: (await q.selectReasons(tx, auth.idEmpresa)).map(toReason) };
  });
}

export function createReason(db: Db, auth: AuthContext, input: VisitReasonCreate): Promise<VisitReason> {
  authorize(auth, 'visits.reasons');
  return withScope(db, scopeOf(auth), async (tx) => {
    await q.seedReasons(tx, auth.idEmpresa);
    if ((await q.countReasons(tx, auth.idEmpresa)) >= VISIT_REASONS_MAX) {
      throw new DomainError(
        'VISIT_REASONS_FULL',
        `A lista já tem ${VISIT_REASONS_MAX} motivos; desative ou altere um deles em vez de criar outro.`,
      );
    }
    const ordem = input.ordem ?? (await q.maxReasonOrder(tx, auth.idEmpresa)) + 10;
    return toReason(
      await q.insertReason(tx, {
        id_empresa: auth.idEmpresa,
        descricao: encodeLossless(input.descricao),
        exige_foto: input.exigeFoto,
        exige_observacao: input.exigeObservacao,
        ordem,
      }),
    );
  });
}

export function updateReason(db: Db, auth: AuthContext, id: number, patch: VisitReasonPatch): Promise<VisitReason> {
  authorize(auth, 'visits.reasons');
  return withScope(db, scopeOf(auth), async (tx) => {
    const row = await q.updateReason(tx, auth.idEmpresa, id, {
      ...(patch.descricao !== undefined ? { descricao: encodeLossless(patch.descricao) } : {}),
      ...(patch.exigeFoto !== undefined ? { exige_foto: patch.exigeFoto } : {}),
      ...(patch.exigeObservacao !== undefined ? { exige_observacao: patch.exigeObservacao } : {}),
      ...(patch.ativo !== undefined ? { ativo: patch.ativo } : {}),
      ...(patch.ordem !== undefined ? { ordem: patch.ordem } : {}),
    });
    if (!row) throw notFound('Motivo');
    return toReason(row);
  });
}

// Check-in and check-out ------------------------------------------------------------------------

/** The clients' trusted positions: the ERP's, else a confirmed check-in's (docs/visits.md). */
async function positionsOf(tx: Tx, idEmpresa: number, ids: number[]): Promise<Map<number, q.ClientPosition>> {
  const found = new Map((await q.selectErpPositions(tx, ids)).map((p) => [p.id_cliente, p]));
  const rest = ids.filter((id) => !found.has(id));
  for (const p of await q.selectConfirmedPositions(tx, idEmpresa, rest)) found.set(p.id_cliente, p);
  return found;
}

/** A unique violation of the one-open-visit index: a concurrent check-in got there first. */
function isOpenVisitRace(err: unknown): boolean {
  const e = err as { code?: unknown; constraint?: unknown } | null;
  return typeof e === 'object' && e !== null && e.code === '23505' && e.constraint === 'visitas_aberta';
}

// The device's clock (docs/visits.md, "The device's clock") --------------------------------------

/**
 * A check-in time as the server would have taken it when it received it: the device's inside
 * the window, else the receipt time, the device's kept. Visits stored before the window existed
 * (a check-in dated 2099) are mended by it when next touched.
 */
async function mendEntry(
  tx: Tx,
  idEmpresa: number,
  visit: { chave: string; entrada_em: Date; entrada_recebida_em: Date; entrada_aparelho_em: Date | null },
): Promise<Date> {
  const entrada = boundDeviceTime(visit.entrada_em, visit.entrada_recebida_em);
  if (entrada.aparelho === null || visit.entrada_aparelho_em !== null) return new Date(visit.entrada_em);
  await q.reclockEntry(tx, idEmpresa, visit.chave, {
    entrada_em: entrada.at.toISOString(),
    data: businessDate(entrada.at),
    entrada_aparelho_em: entrada.aparelho.toISOString(),
  });
  return entrada.at;
}

/**
 * Whether a visit left open still blocks the next check-in: only while a phone can hold it (its
 * check-in on a day the collection keeps) and its check-in is not beyond the window's future
 * bound. One no phone will close (dated 2099 or 1999, or from a phone lost weeks ago) is closed
 * by the server instead, so nothing a device sent blocks the representative's next visit.
 */
function stillOpen(entradaEm: Date, now: Date): boolean {
  return businessDate(entradaEm) >= syncWindowStart(now) && boundDeviceTime(entradaEm, now).fora !== 'futuro';
}

/** The open visit that blocks a check-in, after closing one that no longer does; undefined: none. */
async function blockingOpenVisit(tx: Tx, rep: RepresentativeAuth, now: Date): Promise<string | undefined> {
  const open = await q.selectOpenVisit(tx, rep.idEmpresa, rep.codVendedor);
  if (!open) return undefined;
  const clock = await q.selectVisitClock(tx, rep.idEmpresa, open.chave);
  if (!clock || stillOpen(clock.entrada_em, now)) return open.chave;
  await mendEntry(tx, rep.idEmpresa, clock);
  await q.closeByServer(tx, rep.idEmpresa, open.chave);
  await touched(tx, rep.idEmpresa, open.chave);
  return undefined;
}

async function checkInTx(
  tx: Tx,
  rep: RepresentativeAuth,
  input: CheckIn,
  now: Date,
): Promise<{ created: boolean; body: Visit }> {
  const { idEmpresa, codVendedor } = rep;
  // A copy of this check-in in flight (a retry crossing its original) is waited for, then read.
  await q.lockVisitId(tx, input.id);
  const held = await q.selectVisitOwner(tx, idEmpresa, input.id);
  if (held) {
    if (held.id_cliente !== input.idCliente) {
      throw new DomainError('VISIT_ID_TAKEN', 'Este id já é de uma visita a outro cliente; gere um novo UUID.');
    }
    return { created: false, body: await visitOf(tx, idEmpresa, input.id) };
  }
  // The id is someone else's (a visit or a photo of another representative, or of another
  // tenant, which row-level security hides): taken, saying nothing of whose it is. The device's
  // own photo, sent before its visit, is not.
  const owner = await q.selectVisitIdOwner(tx, input.id);
  if (owner && (owner.id_empresa !== idEmpresa || owner.cod_vendedor !== codVendedor)) throw idTaken();
  const client = await q.selectClient(tx, idEmpresa, input.idCliente);
  if (!client || client.cod_vendedor !== codVendedor) {
    throw new DomainError('CLIENT_NOT_IN_PORTFOLIO', `O cliente ${input.idCliente} não está na sua carteira.`, {
      errors: [{ path: 'body.idCliente', message: 'fora da carteira do representante' }],
    });
  }
  const open = await blockingOpenVisit(tx, rep, now);
  if (open) throw alreadyOpen(open);
  // A time outside the window is the server's, the device's kept: the visit counts today.
  const entrada = boundDeviceTime(input.em, now);
  const known = (await positionsOf(tx, idEmpresa, [input.idCliente])).get(input.idCliente);
  const at = input.posicao;
  const inserted = await q.insertVisit(tx, {
    id_empresa: idEmpresa,
    chave: input.id,
    cod_vendedor: codVendedor,
    id_cliente: input.idCliente,
    data: businessDate(entrada.at),
    entrada_em: entrada.at.toISOString(),
    entrada_aparelho_em: entrada.aparelho?.toISOString() ?? null,
    latitude: at?.latitude ?? null,
    longitude: at?.longitude ?? null,
    precisao_m: at?.precisao ?? null,
    distancia_m: at && known ? distanceMeters(at, known) : null,
  });
  // Only a row written before ids were serialised (docs/visits.md) can still hold it.
  if (!inserted) throw idTaken();
  // A client without a known position takes the first check-in's as a proposal, which a
  // supervisor confirms before distances count against it.
  if (at && !known) {
    await q.proposePosition(tx, {
      id_empresa: idEmpresa,
      id_cliente: input.idCliente,
      latitude: at.latitude,
      longitude: at.longitude,
      precisao_m: at.precisao,
      chave_visita: input.id,
    });
  }
  return { created: true, body: await touched(tx, idEmpresa, input.id) };
}

/**
 * A visit id someone else owns: another representative of the tenant (403, the id exists and
 * the device must not take it for its own) or another tenant (404, saying nothing of it).
 */
function assertVisitIdFree(owner: { id_empresa: number; cod_vendedor: number } | undefined, rep: RepresentativeAuth) {
  if (!owner) return;
  if (owner.id_empresa !== rep.idEmpresa) throw notFound('Visita');
  if (owner.cod_vendedor !== rep.codVendedor) throw notYours('Esta visita');
}

const idTaken = () => new DomainError('VISIT_ID_TAKEN', 'Este id já pertence a outra visita; gere um novo UUID.');

const alreadyOpen = (chave: string) =>
  new DomainError(
    'VISIT_ALREADY_OPEN',
    'Há uma visita em andamento: registre a saída dela antes de chegar a outro cliente.',
    { visitaAberta: chave },
  );

/** Cheguei: opens a visit (idempotent by its id); `now` is the server's clock. */
export async function checkIn(
  db: Db,
  auth: AuthContext,
  input: CheckIn,
  now = new Date(),
): Promise<{ created: boolean; body: Visit }> {
  const rep = authorize(auth, 'visits.representative');
  try {
    return await withScope(db, scopeOf(rep), (tx) => checkInTx(tx, rep, input, now));
  } catch (err) {
    if (!isOpenVisitRace(err)) throw err;
    const open = await withScope(db, scopeOf(rep), (tx) => q.selectOpenVisit(tx, rep.idEmpresa, rep.codVendedor));
    // The concurrent check-in was this one, sent twice at once: answer the visit it wrote.
    if (open?.chave === input.id) return { created: false, body: await getVisit(db, auth, input.id) };
    throw alreadyOpen(open?.chave ?? input.id);
  }
}

const sameInstant = (a: string | null, b: string) => a !== null && new Date(a).getTime() === new Date(b).getTime();
const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

/**
 * Saí: closes a visit, linking the order placed during it, or with a reason for no sale. `now`
 * is the server's clock: a time outside the window is replaced by it, and one before the
 * check-in by the check-in's (no duration), the device's kept; never a refusal.
 */
export async function checkOut(
  db: Db,
  auth: AuthContext,
  chave: string,
  input: CheckOut,
  now = new Date(),
): Promise<Visit> {
  const rep = authorize(auth, 'visits.representative');
  return withScope(db, scopeOf(rep), async (tx) => {
    const { idEmpresa, codVendedor } = rep;
    // The same check-out in flight (a retry crossing its original) is waited for, then answered.
    await q.lockVisitId(tx, chave);
    const held = await q.selectVisitOwner(tx, idEmpresa, chave);
    if (!held) {
      assertVisitIdFree(await q.selectVisitIdOwner(tx, chave), rep);
      throw new DomainError(
        'VISIT_NOT_CHECKED_IN',
        'O servidor não tem a chegada desta visita: registre "Cheguei" antes de "Saí".',
      );
    }
    const clock = await q.selectVisitClock(tx, idEmpresa, chave);
    const current = await visitOf(tx, idEmpresa, chave);
    if (current.saidaEm !== null && !clock?.saida_automatica) {
      // The same check-out again (a retry, a push whose answer was lost): done already.
      const sent = sameInstant(current.saidaEm, input.em) || sameInstant(iso(clock?.saida_aparelho_em), input.em);
      const same = sent && (current.idPedido !== null || current.idMotivo === input.idMotivo);
      if (same) return current;
      throw new DomainError('VISIT_ALREADY_CLOSED', 'Esta visita já foi encerrada.', { atual: current });
    }
    // A check-in stored before the window (dated 2099) takes its receipt time first.
    const entrada = clock ? await mendEntry(tx, idEmpresa, clock) : new Date(current.entradaEm);
    const bounded = boundDeviceTime(input.em, now);
    const before = bounded.at.getTime() < entrada.getTime();
    const saida = before ? entrada : bounded.at;
    const saidaAparelho = bounded.aparelho ?? (before ? new Date(input.em) : null);
    const order = await q.selectOrderOfVisit(tx, idEmpresa, codVendedor, current);
    let idMotivo: number | null = null;
    if (!order) {
      idMotivo = input.idMotivo;
      if (idMotivo === null) {
        throw new DomainError(
          'VISIT_REASON_REQUIRED',
          'Informe o motivo de não venda para encerrar a visita sem pedido.',
          {
            errors: [{ path: 'body.idMotivo', message: 'obrigatório numa visita sem pedido' }],
          },
        );
      }
      await q.seedReasons(tx, idEmpresa);
      const reason = await q.selectReason(tx, idEmpresa, idMotivo);
      if (!reason?.ativo) {
        throw new DomainError(
          'VISIT_REASON_NOT_FOUND',
          `O motivo ${idMotivo} não está na lista de motivos da empresa.`,
          {
            errors: [{ path: 'body.idMotivo', message: 'não está na lista' }],
          },
        );
      }
      if (reason.exige_observacao && input.observacao === null) {
        throw new DomainError(
          'VISIT_NOTE_REQUIRED',
          `O motivo "${decodeLossless(reason.descricao)}" pede uma observação.`,
          {
            errors: [{ path: 'body.observacao', message: 'obrigatória para este motivo' }],
          },
        );
      }
      if (reason.exige_foto && !(await q.hasPhoto(tx, idEmpresa, chave))) {
        throw new DomainError(
          'VISIT_PHOTO_REQUIRED',
          `O motivo "${decodeLossless(reason.descricao)}" pede uma foto: envie a foto da visita antes de registrar a saída.`,
        );
      }
    }
    const at: Position | null = input.posicao;
    await q.closeVisit(tx, idEmpresa, chave, {
      saida_em: saida.toISOString(),
      saida_aparelho_em: saidaAparelho?.toISOString() ?? null,
      saida_latitude: at?.latitude ?? null,
      saida_longitude: at?.longitude ?? null,
      saida_precisao_m: at?.precisao ?? null,
      id_pedido: order?.id ?? null,
      id_motivo: idMotivo,
      observacao: input.observacao === null ? null : encodeLossless(input.observacao),
    });
    return touched(tx, idEmpresa, chave);
  });
}

/** One visit, for whoever reaches its representative. */
export function getVisit(db: Db, auth: AuthContext, chave: string): Promise<Visit> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const visit = await visitOf(tx, auth.idEmpresa, chave);
    await assertReaches(tx, auth, visit.codVendedor, 'Visita');
    return visit;
  });
}

async function assertReaches(tx: Tx, auth: AuthContext, codVendedor: number, what: string): Promise<void> {
  const rep = await findRep(tx, auth.idEmpresa, codVendedor);
  if (!reaches(auth, { codVendedor, codSupervisor: rep?.cod_supervisor ?? null })) throw notFound(what);
}

// Photos ----------------------------------------------------------------------------------------

/**
 * Keeps the photo of a visit, by the visit's id: the phone may send it before the visit (a
 * reason that asks for a photo checks it at the check-out). Sending it again replaces it.
 */
export async function putPhoto(db: Db, auth: AuthContext, chave: string, bytes: Uint8Array): Promise<void> {
  const rep = authorize(auth, 'visits.representative');
  const image = await inspectPhoto(bytes);
  await withScope(db, scopeOf(rep), async (tx) => {
    // Under the id's lock: a check-in of another tenant cannot take the id meanwhile.
    await q.lockVisitId(tx, chave);
    // The representative's own visit, else an id nobody else holds: row-level security hides
    // another representative's visit or photo, so the owner is asked across it, and an id of
    // theirs is refused (403 in the tenant, 404 across tenants) rather than written over.
    const held = await q.selectVisitOwner(tx, rep.idEmpresa, chave);
    if (!held) assertVisitIdFree(await q.selectVisitIdOwner(tx, chave), rep);
    await q.upsertPhoto(tx, {
      id_empresa: rep.idEmpresa,
      chave_visita: chave,
      cod_vendedor: rep.codVendedor,
      mime: image.mime,
      largura: image.width,
      altura: image.height,
      bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    });
    if (held) await touched(tx, rep.idEmpresa, chave);
  });
}

export function getPhoto(db: Db, auth: AuthContext, chave: string): Promise<{ mime: string; bytes: Uint8Array }> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const photo = await q.selectPhoto(tx, auth.idEmpresa, chave);
    if (!photo) throw notFound('Foto');
    await assertReaches(tx, auth, photo.cod_vendedor, 'Foto');
    return { mime: photo.mime, bytes: photo.bytes };
  });
}

// The route -------------------------------------------------------------------------------------

interface DayFacts {
  portfolio: q.PortfolioClient[];
  plans: Map<number, VisitPlan>;
  visits: Visit[];
  ordered: Set<number>;
}

/**
 * What a day of each representative is made of: the portfolio with its visit days, the day's
 * visits and the clients with an order that day. A few queries for all of them, whatever their
 * number (the summary asks for a page of representatives at once).
 */
async function daysFacts(tx: Tx, idEmpresa: number, reps: number[], data: string): Promise<Map<number, DayFacts>> {
  const facts = new Map<number, DayFacts>(
    reps.map((r) => [r, { portfolio: [], plans: new Map(), visits: [], ordered: new Set() }]),
  );
  const portfolios = await q.selectPortfolios(tx, idEmpresa, reps);
  const plans = await plansOf(
    tx,
    idEmpresa,
    portfolios.map((c) => c.id_cliente),
  );
  for (const c of portfolios) {
    const f = facts.get(c.cod_vendedor as number);
    f?.portfolio.push(c);
    f?.plans.set(c.id_cliente, plans.get(c.id_cliente) as VisitPlan);
  }
  for (const v of await visitsOf(tx, idEmpresa, await q.selectDayVisits(tx, idEmpresa, { reps, data }, null))) {
    facts.get(v.codVendedor)?.visits.push(v);
  }
  for (const o of await q.selectOrderedClients(tx, idEmpresa, reps, data))
    facts.get(o.cod_vendedor)?.ordered.add(o.id_cliente);
  return facts;
}

async function dayFacts(tx: Tx, idEmpresa: number, codVendedor: number, data: string): Promise<DayFacts> {
  return (await daysFacts(tx, idEmpresa, [codVendedor], data)).get(codVendedor) as DayFacts;
}

function stateOf(visits: Visit[], ordered: boolean, past: boolean): RouteClient['estado'] {
  if (visits.some((v) => v.estado === 'aberta')) return 'em_visita';
  if (visits.length > 0)
    return ordered || visits.some((v) => v.idPedido !== null) ? 'visitado_com_pedido' : 'visitado_sem_pedido';
  return past ? 'nao_visitado' : 'a_visitar';
}

async function buildRoute(tx: Tx, idEmpresa: number, codVendedor: number, data: string): Promise<RouteDay> {
  const facts = await dayFacts(tx, idEmpresa, codVendedor, data);
  const due = facts.portfolio
    .filter((c) => visitDue(data, facts.plans.get(c.id_cliente)?.dias ?? []))
    .sort((a, b) => (a.nome ?? '').localeCompare(b.nome ?? '', 'pt-BR') || a.id_cliente - b.id_cliente);
  const chosen = (await q.selectRouteOrder(tx, idEmpresa, codVendedor, data))?.clientes ?? [];
  const rank = new Map(chosen.map((id, i) => [id, i]));
  const ordered = due
    .map((c, i) => ({ c, key: rank.get(c.id_cliente) ?? chosen.length + i }))
    .sort((a, b) => a.key - b.key)
    .map((x) => x.c)
    .slice(0, ROUTE_MAX_CLIENTS);
  const dueIds = new Set(ordered.map((c) => c.id_cliente));
  const extraIds = [...new Set(facts.visits.map((v) => v.idCliente).filter((id) => !dueIds.has(id)))];
  const known = new Map(facts.portfolio.map((c) => [c.id_cliente, c]));
  const missing = extraIds.filter((id) => !known.has(id));
  for (const c of await q.selectClientsByIds(tx, idEmpresa, missing)) known.set(c.id_cliente, c);
  const positions = await positionsOf(tx, idEmpresa, [...dueIds, ...extraIds]);
  const past = data < businessDate();
  const entry = (idCliente: number): RouteClient => {
    const c = known.get(idCliente);
    const visits = facts.visits.filter((v) => v.idCliente === idCliente);
    const p = positions.get(idCliente);
    return {
      idCliente,
      nome: c?.nome ?? visits[0]?.nomeCliente ?? null,
      cidade: c?.cidade ?? null,
      endereco: c?.endereco ?? null,
      estado: stateOf(visits, facts.ordered.has(idCliente), past),
      posicao: p ? { latitude: p.latitude, longitude: p.longitude, precisao: null } : null,
      visitas: visits.map((v) => v.id).slice(0, 20),
    };
  };
  const clientes = ordered.map((c) => entry(c.id_cliente));
  const extras = extraIds.slice(0, ROUTE_MAX_CLIENTS).map(entry);
  const visited = (c: RouteClient) =>
    c.estado === 'visitado_com_pedido' || c.estado === 'visitado_sem_pedido' || c.estado === 'em_visita';
  return {
    data,
    codVendedor,
    clientes,
    extras,
    resumo: {
      planejados: clientes.length,
      visitados: clientes.filter(visited).length,
      comPedido: clientes.filter((c) => c.estado === 'visitado_com_pedido').length,
      extras: extras.length,
    },
  };
}

export function getRoute(
  db: Db,
  auth: AuthContext,
  input: { data?: string | undefined; codVendedor?: number | undefined },
): Promise<RouteDay> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const codVendedor = await repInReach(tx, auth, input.codVendedor);
    return buildRoute(tx, auth.idEmpresa, codVendedor, input.data ?? businessDate());
  });
}

/** The representative's order of a day's route; the clients not named follow. */
export function reorderRoute(
  db: Db,
  auth: AuthContext,
  input: { data?: string | undefined; clientes: number[] },
): Promise<RouteDay> {
  const rep = authorize(auth, 'visits.representative');
  return withScope(db, scopeOf(rep), async (tx) => {
    const data = input.data ?? businessDate();
    await q.upsertRouteOrder(tx, rep.idEmpresa, rep.codVendedor, data, [...new Set(input.clientes)]);
    return buildRoute(tx, rep.idEmpresa, rep.codVendedor, data);
  });
}

// The plan and the clients' positions -----------------------------------------------------------

/** The client, when its representative is in the caller's reach; 404 otherwise. */
async function clientInReach(tx: Tx, auth: AuthContext, idCliente: number): Promise<q.PortfolioClient> {
  const client = await q.selectClient(tx, auth.idEmpresa, idCliente);
  if (!client) throw notFound('Cliente');
  if (client.cod_vendedor === null) {
    // A client in no portfolio: only those who see the whole tenant.
    const scope = teamScope(auth);
    if (!scope || scope.codVendedor !== undefined || scope.codSupervisor !== undefined) throw notFound('Cliente');
    return client;
  }
  await assertReaches(tx, auth, client.cod_vendedor, 'Cliente');
  return client;
}

/** A representative's portfolio with each client's visit days: what the supervisor plans from. */
export function listPlans(
  db: Db,
  auth: AuthContext,
  input: { codVendedor?: number | undefined; page: number; pageSize: number },
) {
  return withScope(db, scopeOf(auth), async (tx) => {
    const codVendedor = await repInReach(tx, auth, input.codVendedor);
    const { rows, total } = await q.selectPortfolioPage(tx, auth.idEmpresa, codVendedor, {
      limit: input.pageSize,
      offset: (input.page - 1) * input.pageSize,
    });
    const plans = await plansOf(
      tx,
      auth.idEmpresa,
      rows.map((c) => c.id_cliente),
    );
    return {
      items: rows.map((c) => ({ ...(plans.get(c.id_cliente) as VisitPlan), nome: c.nome })),
      page: input.page,
      pageSize: input.pageSize,
      total,
    };
  });
}

export function getPlan(db: Db, auth: AuthContext, idCliente: number): Promise<VisitPlan> {
  return withScope(db, scopeOf(auth), async (tx) => {
    await clientInReach(tx, auth, idCliente);
    return (await plansOf(tx, auth.idEmpresa, [idCliente])).get(idCliente) as VisitPlan;
  });
}

export function putPlan(db: Db, auth: AuthContext, idCliente: number, dias: VisitDay[]): Promise<VisitPlan> {
  authorize(auth, 'visits.plan');
  const weekdays = dias.map((d) => d.diaSemana);
  if (new Set(weekdays).size !== weekdays.length) {
    throw field('VALIDATION_FAILED', 'Cada dia da semana aparece uma vez só.', 'body.dias');
  }
  const withoutBase = dias.findIndex((d) => d.intervaloSemanas > 1 && d.dataBase === null);
  if (withoutBase >= 0) {
    throw field(
      'VALIDATION_FAILED',
      'Informe dataBase: a visita a cada N semanas conta as semanas a partir dela.',
      `body.dias.${withoutBase}.dataBase`,
    );
  }
  return withScope(db, scopeOf(auth), async (tx) => {
    const client = await clientInReach(tx, auth, idCliente);
    await q.lockClientPlan(tx, auth.idEmpresa, idCliente);
    const current = (await plansOf(tx, auth.idEmpresa, [idCliente])).get(idCliente);
    if (current?.origem === 'erp') {
      throw new DomainError('VISIT_PLAN_FROM_ERP', 'Os dias de visita deste cliente vêm do ERP; altere-os no ERP.');
    }
    await q.replaceCampoVisitDays(
      tx,
      auth.idEmpresa,
      idCliente,
      dias.map((d) => ({ dia_semana: d.diaSemana, intervalo_semanas: d.intervaloSemanas, data_base: d.dataBase })),
      auth.login,
    );
    await touchClient(tx, auth.idEmpresa, client);
    return (await plansOf(tx, auth.idEmpresa, [idCliente])).get(idCliente) as VisitPlan;
  });
}

/** The positions first check-ins proposed, waiting for the caller to confirm them. */
export function listProposals(
  db: Db,
  auth: AuthContext,
  input: { codVendedor?: number | undefined; page: number; pageSize: number },
) {
  authorize(auth, 'visits.plan');
  return withScope(db, scopeOf(auth), async (tx) => {
    const reps = await repsInReach(tx, auth, input.codVendedor);
    const { rows, total } = await q.selectProposals(tx, auth.idEmpresa, reps, {
      limit: input.pageSize,
      offset: (input.page - 1) * input.pageSize,
    });
    return {
      items: rows.map((r) => ({
        idCliente: r.id_cliente,
        nome: r.nome,
        codVendedor: r.cod_vendedor,
        visita: r.chave_visita,
        posicao: { latitude: r.latitude, longitude: r.longitude, precisao: r.precisao_m },
      })),
      page: input.page,
      pageSize: input.pageSize,
      total,
    };
  });
}

/**
 * Takes a visit's check-in position as its client's position (the first check-in proposes it;
 * a supervisor or manager confirms it), and measures the client's visits that had no distance.
 */
export function confirmPosition(db: Db, auth: AuthContext, chave: string): Promise<Visit> {
  authorize(auth, 'visits.plan');
  return withScope(db, scopeOf(auth), async (tx) => {
    const visit = await visitOf(tx, auth.idEmpresa, chave);
    await assertReaches(tx, auth, visit.codVendedor, 'Visita');
    if (visit.posicao === null) {
      throw field('VALIDATION_FAILED', 'Esta visita foi registrada sem localização.', 'path.id');
    }
    const [erp] = await q.selectErpPositions(tx, [visit.idCliente]);
    if (erp) {
      throw new DomainError('VISIT_PLAN_FROM_ERP', 'A posição deste cliente vem do ERP; altere-a no ERP.');
    }
    const at = { latitude: visit.posicao.latitude, longitude: visit.posicao.longitude };
    await q.confirmPosition(
      tx,
      {
        id_empresa: auth.idEmpresa,
        id_cliente: visit.idCliente,
        ...at,
        precisao_m: visit.posicao.precisao,
        chave_visita: chave,
      },
      auth.login,
    );
    const client = await q.selectClient(tx, auth.idEmpresa, visit.idCliente);
    if (client) await touchClient(tx, auth.idEmpresa, client);
    const measured = await q.fillDistances(tx, auth.idEmpresa, visit.idCliente, at);
    const rows = await q.selectRecentVisits(
      tx,
      auth.idEmpresa,
      '1900-01-01',
      measured.map((m) => m.chave),
    );
    for (const v of await visitsOf(tx, auth.idEmpresa, rows)) {
      await touchDocuments(tx, auth.idEmpresa, 'visitas', v.codVendedor, [visitSyncDoc(v)]);
    }
    return visitOf(tx, auth.idEmpresa, chave);
  });
}

// The supervisor's view -------------------------------------------------------------------------

export function listVisits(
  db: Db,
  auth: AuthContext,
  input: {
    data?: string | undefined;
    codVendedor?: number | undefined;
    alemMetros?: number | undefined;
    page: number;
    pageSize: number;
  },
) {
  return withScope(db, scopeOf(auth), async (tx) => {
    const filter = {
      reps: await repsInReach(tx, auth, input.codVendedor),
      data: input.data ?? businessDate(),
      alemMetros: input.alemMetros,
    };
    const offset = (input.page - 1) * input.pageSize;
    const rows = await q.selectDayVisits(tx, auth.idEmpresa, filter, { limit: input.pageSize, offset });
    return {
      items: await visitsOf(tx, auth.idEmpresa, rows),
      page: input.page,
      pageSize: input.pageSize,
      total: await q.countDayVisits(tx, auth.idEmpresa, filter),
    };
  });
}

/** The representatives a list covers: one asked for, the caller's reach otherwise (null: the tenant). */
async function repsInReach(tx: Tx, auth: AuthContext, asked: number | undefined): Promise<number[] | null> {
  if (asked !== undefined) return [await repInReach(tx, auth, asked)];
  const scope = teamScope(auth);
  if (scope === null) return [];
  if (scope.codVendedor !== undefined) return [scope.codVendedor];
  if (scope.codSupervisor !== undefined) {
    const team = q.selectRepresentatives(
      tx,
      auth.idEmpresa,
      { codSupervisor: scope.codSupervisor },
      { limit: 10_000, offset: 0 },
    );
    return (await team.rows()).map((r) => r.cod_vendedor);
  }
  return null;
}

/** The map tiles the operator configured (MAP_TILE_URL, MAP_TILE_ATTRIBUTION); url null: no map. */
export interface MapTiles {
  url: string | null;
  attribution: string | null;
}

const ratio = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 1000) / 1000);

export function daySummary(
  db: Db,
  auth: AuthContext,
  input: {
    data?: string | undefined;
    codSupervisor?: number | undefined;
    longeMetros: number;
    page: number;
    pageSize: number;
  },
  tiles: MapTiles,
): Promise<VisitSummary> {
  authorize(auth, 'visits.team');
  return withScope(db, scopeOf(auth), async (tx) => {
    const data = input.data ?? businessDate();
    const scope = teamScope(auth, { codSupervisor: input.codSupervisor });
    if (scope === null) throw notFound('Supervisor');
    const reps = q.selectRepresentatives(tx, auth.idEmpresa, scope, {
      limit: input.pageSize,
      offset: (input.page - 1) * input.pageSize,
    });
    const page = await reps.rows();
    const all = await daysFacts(
      tx,
      auth.idEmpresa,
      page.map((r) => r.cod_vendedor),
      data,
    );
    const items = [];
    for (const r of page) {
      const facts = all.get(r.cod_vendedor) as DayFacts;
      const due = new Set(
        facts.portfolio
          .filter((c) => visitDue(data, facts.plans.get(c.id_cliente)?.dias ?? []))
          .map((c) => c.id_cliente),
      );
      const visitedClients = new Set(facts.visits.map((v) => v.idCliente));
      const withOrder = new Set(
        facts.visits.filter((v) => v.idPedido !== null || facts.ordered.has(v.idCliente)).map((v) => v.idCliente),
      );
      const byReason = new Map<number | null, { idMotivo: number | null; motivo: string | null; visitas: number }>();
      for (const v of facts.visits.filter((x) => x.estado === 'sem_pedido')) {
        const entry = byReason.get(v.idMotivo) ?? { idMotivo: v.idMotivo, motivo: v.motivo, visitas: 0 };
        entry.visitas++;
        byReason.set(v.idMotivo, entry);
      }
      const visitados = [...due].filter((id) => visitedClients.has(id)).length;
      items.push({
        codVendedor: r.cod_vendedor,
        nome: r.nome,
        planejados: due.size,
        visitados,
        cobertura: ratio(visitados, due.size),
        visitas: facts.visits.length,
        clientesVisitados: visitedClients.size,
        comPedido: facts.visits.filter((v) => v.estado === 'com_pedido').length,
        positivados: facts.ordered.size,
        positivacaoVisitas: ratio(withOrder.size, visitedClients.size),
        semPedidoPorMotivo: [...byReason.values()].sort((a, b) => b.visitas - a.visitas),
        minutosEmVisita: facts.visits.reduce((sum, v) => sum + (v.minutos ?? 0), 0),
        semPosicao: facts.visits.filter((v) => v.posicao === null).length,
        longe: facts.visits.filter((v) => v.distanciaMetros !== null && v.distanciaMetros > input.longeMetros).length,
      });
    }
    return {
      items,
      page: input.page,
      pageSize: input.pageSize,
      total: await reps.count(),
      data,
      longeMetros: input.longeMetros,
      tileUrl: tiles.url,
      tileAttribution: tiles.url === null ? null : tiles.attribution,
    };
  });
}
