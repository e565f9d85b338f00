// Every SQL statement of the visits domain (docs/visits.md): visits, their photos, the reasons
// list, the route plan (the ERP's through app.dias_visita_erp, else Campo's), the route order of
// a day and the clients' positions (the ERP's through app.posicao_clientes_erp, else a
// confirmed first check-in).
import { VISIT_REASON_DEFAULTS } from '@campo/shared';
import { sql } from 'kysely';
import type { Tx } from '../db/scope.ts';

export interface VisitRow {
  id: number;
  chave: string;
  cod_vendedor: number;
  id_cliente: number;
  nome_cliente: string | null;
  data: string;
  entrada_em: Date;
  entrada_recebida_em: Date;
  latitude: number | null;
  longitude: number | null;
  precisao_m: number | null;
  distancia_m: number | null;
  saida_em: Date | null;
  saida_recebida_em: Date | null;
  saida_latitude: number | null;
  saida_longitude: number | null;
  saida_precisao_m: number | null;
  id_pedido: number | null;
  num_ped_sar: number | null;
  id_motivo: number | null;
  motivo: string | null;
  observacao: string | null;
  foto: boolean;
  /** The device's times replaced by the server's (docs/visits.md, "The device's clock"). */
  entrada_aparelho_em: Date | null;
  saida_aparelho_em: Date | null;
  saida_automatica: boolean;
}

/** Visits with their client's name, reason, order number and whether a photo is held. */
function visits(tx: Tx, idEmpresa: number) {
  return tx
    .selectFrom('app.visitas as v')
    .leftJoin('app.visita_motivos as m', (j) =>
      j.onRef('m.id_empresa', '=', 'v.id_empresa').onRef('m.id', '=', 'v.id_motivo'),
    )
    .leftJoin('app.pedidos as p', 'p.id', 'v.id_pedido')
    .select([
      'v.id',
      'v.chave',
      'v.cod_vendedor',
      'v.id_cliente',
      sql<string>`v.data::text`.as('data'),
      'v.entrada_em',
      'v.entrada_recebida_em',
      'v.latitude',
      'v.longitude',
      'v.precisao_m',
      'v.distancia_m',
      'v.saida_em',
      'v.saida_recebida_em',
      'v.saida_latitude',
      'v.saida_longitude',
      'v.saida_precisao_m',
      'v.id_pedido',
      'p.num_ped_sar',
      'v.id_motivo',
      'm.descricao as motivo',
      'v.observacao',
      'v.entrada_aparelho_em',
      'v.saida_aparelho_em',
      'v.saida_automatica',
    ])
    .select((eb) => [
      eb
        .selectFrom('app.vw_clientes as c')
        .select(sql<string | null>`coalesce(nullif(btrim(c.nome_fantasia), ''), c.razao_social)`.as('n'))
        .where('c.id_empresa', '=', idEmpresa)
        .whereRef('c.id_cliente', '=', 'v.id_cliente')
        .limit(1)
        .as('nome_cliente'),
      eb
        .exists(
          eb
            .selectFrom('app.visita_fotos as f')
            .select(sql.lit(1).as('one'))
            .whereRef('f.id_empresa', '=', 'v.id_empresa')
            .whereRef('f.chave_visita', '=', 'v.chave'),
        )
        .as('foto'),
    ])
    .where('v.id_empresa', '=', idEmpresa);
}

export async function selectVisitByKey(tx: Tx, idEmpresa: number, chave: string): Promise<VisitRow | undefined> {
  return (await visits(tx, idEmpresa).where('v.chave', '=', chave).executeTakeFirst()) as VisitRow | undefined;
}

/** The owner of a visit id, whoever it is (the caller's own rows only, under row-level security). */
export function selectVisitOwner(tx: Tx, idEmpresa: number, chave: string) {
  return tx
    .selectFrom('app.visitas')
    .select(['cod_vendedor', 'id_cliente', 'saida_em'])
    .where('id_empresa', '=', idEmpresa)
    .where('chave', '=', chave)
    .executeTakeFirst();
}

/**
 * Serialises, until the transaction ends, every write under one visit id (check-in, check-out,
 * photo), whatever the tenant: a retry crossing its original waits for it and then reads what it
 * stored, and two tenants naming one id cannot both take it (docs/visits.md, "One visit per id").
 */
export async function lockVisitId(tx: Tx, chave: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`campo.visita:${chave}`}, 0))`.execute(tx);
}

/** Who owns a visit id (its visit or its photo), in any tenant, across row-level security. */
export async function selectVisitIdOwner(
  tx: Tx,
  chave: string,
): Promise<{ id_empresa: number; cod_vendedor: number } | undefined> {
  const r = await sql<{ id_empresa: number; cod_vendedor: number }>`
    select id_empresa, cod_vendedor from app.dono_visita(${chave})`.execute(tx);
  return r.rows[0];
}

export function selectOpenVisit(tx: Tx, idEmpresa: number, codVendedor: number) {
  return tx
    .selectFrom('app.visitas')
    .select(['chave', 'id_cliente'])
    .where('id_empresa', '=', idEmpresa)
    .where('cod_vendedor', '=', codVendedor)
    .where('saida_em', 'is', null)
    .executeTakeFirst();
}

/** Which visits of a day a list asks for: some representatives (all when null), farther than some metres. */
export interface DayFilter {
  reps: number[] | null;
  data: string;
  /** Only visits farther than this from their client (their distance known). */
  alemMetros?: number | undefined;
}

/** The visits of a day, by check-in time, a page of them (all when page is null). */
export async function selectDayVisits(
  tx: Tx,
  idEmpresa: number,
  filter: DayFilter,
  page: { limit: number; offset: number } | null,
): Promise<VisitRow[]> {
  if (filter.reps !== null && filter.reps.length === 0) return [];
  let q = visits(tx, idEmpresa).where('v.data', '=', filter.data);
  if (filter.reps !== null) q = q.where('v.cod_vendedor', 'in', filter.reps);
  if (filter.alemMetros !== undefined) q = q.where('v.distancia_m', '>', filter.alemMetros);
  q = q.orderBy('v.entrada_em').orderBy('v.id');
  if (page) q = q.limit(page.limit).offset(page.offset);
  return (await q.execute()) as VisitRow[];
}

export async function countDayVisits(tx: Tx, idEmpresa: number, filter: DayFilter) {
  if (filter.reps !== null && filter.reps.length === 0) return 0;
  let q = tx
    .selectFrom('app.visitas')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('id_empresa', '=', idEmpresa)
    .where('data', '=', filter.data);
  if (filter.reps !== null) q = q.where('cod_vendedor', 'in', filter.reps);
  if (filter.alemMetros !== undefined) q = q.where('distancia_m', '>', filter.alemMetros);
  return Number((await q.executeTakeFirst())?.n ?? 0);
}

/** The tenant's visits since a day (the replicated window), or those of the given ids. */
export async function selectRecentVisits(
  tx: Tx,
  idEmpresa: number,
  since: string,
  chaves: string[] | null,
): Promise<VisitRow[]> {
  if (chaves !== null && chaves.length === 0) return [];
  let q = visits(tx, idEmpresa).where('v.data', '>=', since);
  if (chaves !== null) q = q.where('v.chave', 'in', chaves);
  return (await q.orderBy('v.id').execute()) as VisitRow[];
}

export interface NewVisit {
  id_empresa: number;
  chave: string;
  cod_vendedor: number;
  id_cliente: number;
  data: string;
  entrada_em: string;
  latitude: number | null;
  longitude: number | null;
  precisao_m: number | null;
  distancia_m: number | null;
  /** The device's time when the server's replaced it (outside the window). */
  entrada_aparelho_em: string | null;
}

/** Inserts a visit; false when its id is taken (a repeated check-in, or someone else's id). */
export async function insertVisit(tx: Tx, v: NewVisit): Promise<boolean> {
  const r = await tx
    .insertInto('app.visitas')
    .values(v)
    .onConflict((oc) => oc.columns(['id_empresa', 'chave']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return r !== undefined;
}

export interface VisitClose {
  saida_em: string;
  saida_latitude: number | null;
  saida_longitude: number | null;
  saida_precisao_m: number | null;
  id_pedido: number | null;
  id_motivo: number | null;
  observacao: string | null;
  /** The device's time when the server's (or the check-in's) replaced it. */
  saida_aparelho_em: string | null;
}

export async function closeVisit(tx: Tx, idEmpresa: number, chave: string, close: VisitClose): Promise<void> {
  await tx
    .updateTable('app.visitas')
    .set({
      ...close,
      saida_automatica: false,
      saida_recebida_em: sql<Date>`now()`,
      atualizado_em: sql<Date>`now()`,
    })
    .where('id_empresa', '=', idEmpresa)
    .where('chave', '=', chave)
    // A visit the server closed itself is still the device's to close (with its reason).
    .where((eb) => eb.or([eb('saida_em', 'is', null), eb('saida_automatica', '=', true)]))
    .execute();
}

/** What the server's clock rules need of a visit: its times as stored, and who closed it. */
export function selectVisitClock(tx: Tx, idEmpresa: number, chave: string) {
  return tx
    .selectFrom('app.visitas')
    .select([
      'chave',
      'entrada_em',
      'entrada_recebida_em',
      'entrada_aparelho_em',
      'saida_em',
      'saida_aparelho_em',
      'saida_automatica',
    ])
    .where('id_empresa', '=', idEmpresa)
    .where('chave', '=', chave)
    .executeTakeFirst();
}

/** Puts the server's time in place of a check-in time outside the window, keeping the device's. */
export async function reclockEntry(
  tx: Tx,
  idEmpresa: number,
  chave: string,
  entry: { entrada_em: string; data: string; entrada_aparelho_em: string },
): Promise<void> {
  await tx
    .updateTable('app.visitas')
    .set({ ...entry, atualizado_em: sql<Date>`now()` })
    .where('id_empresa', '=', idEmpresa)
    .where('chave', '=', chave)
    .execute();
}

/**
 * Closes a visit left open that no longer counts as open (docs/visits.md, "The device's
 * clock"): at its own check-in time (no duration), without a reason, marked as the server's.
 */
export async function closeByServer(tx: Tx, idEmpresa: number, chave: string): Promise<void> {
  await tx
    .updateTable('app.visitas')
    .set({
      saida_em: sql<Date>`entrada_em`,
      saida_automatica: true,
      saida_recebida_em: sql<Date>`now()`,
      atualizado_em: sql<Date>`now()`,
    })
    .where('id_empresa', '=', idEmpresa)
    .where('chave', '=', chave)
    .where('saida_em', 'is', null)
    .execute();
}

/**
 * The representative's order for the client that a visit links: one received on the visit's
 * day, or on the day the server received its check-in (a phone offline for days sends the
 * order and the visit together, and orders keep no device time), not rejected, not linked to
 * another visit, the latest first.
 */
export function selectOrderOfVisit(
  tx: Tx,
  idEmpresa: number,
  codVendedor: number,
  visit: { idCliente: number; data: string; entradaRecebidaEm: string },
) {
  return tx
    .selectFrom('app.pedidos as p')
    .select('p.id')
    .where('p.id_empresa', '=', idEmpresa)
    .where('p.cod_vendedor', '=', codVendedor)
    .where('p.id_cliente', '=', visit.idCliente)
    .where('p.situa', 'not in', [4, 5])
    .where(
      sql<boolean>`(p.criado_em at time zone 'America/Sao_Paulo')::date
                     in (${visit.data}::date, (${visit.entradaRecebidaEm}::timestamptz at time zone 'America/Sao_Paulo')::date)`,
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('app.visitas as o')
            .select(sql.lit(1).as('one'))
            .whereRef('o.id_empresa', '=', 'p.id_empresa')
            .whereRef('o.id_pedido', '=', 'p.id'),
        ),
      ),
    )
    .orderBy('p.id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

// Reasons ---------------------------------------------------------------------------------------

/** The defaults, written the first time a tenant's list is read (a no-op afterwards). */
export async function seedReasons(tx: Tx, idEmpresa: number): Promise<void> {
  const defaults = VISIT_REASON_DEFAULTS.map(
    (r, i) =>
      sql`(${r.codigo}::text, ${r.descricao}::text, ${r.exigeFoto}::boolean, ${r.exigeObservacao}::boolean, ${i * 10}::integer)`,
  );
  await sql`
    insert into app.visita_motivos (id_empresa, codigo, descricao, exige_foto, exige_observacao, ordem)
    select ${idEmpresa}, d.codigo, d.descricao, d.exige_foto, d.exige_observacao, d.ordem
      from (values ${sql.join(defaults)}) as d (codigo, descricao, exige_foto, exige_observacao, ordem)
     where not exists (select 1 from app.visita_motivos m where m.id_empresa = ${idEmpresa})
    on conflict do nothing`.execute(tx);
}

const REASON_COLUMNS = ['id', 'codigo', 'descricao', 'exige_foto', 'exige_observacao', 'ativo', 'ordem'] as const;

export function selectReasons(tx: Tx, idEmpresa: number) {
  return tx
    .selectFrom('app.visita_motivos')
    .select(REASON_COLUMNS)
    .where('id_empresa', '=', idEmpresa)
    .orderBy('ativo', 'desc')
    .orderBy('ordem')
    .orderBy('id')
    .limit(100)
    .execute();
}

export function selectReason(tx: Tx, idEmpresa: number, id: number) {
  return tx
    .selectFrom('app.visita_motivos')
    .select(REASON_COLUMNS)
    .where('id_empresa', '=', idEmpresa)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function countReasons(tx: Tx, idEmpresa: number): Promise<number> {
  const r = await tx
    .selectFrom('app.visita_motivos')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('id_empresa', '=', idEmpresa)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

export function insertReason(
  tx: Tx,
  v: { id_empresa: number; descricao: string; exige_foto: boolean; exige_observacao: boolean; ordem: number },
) {
  return tx.insertInto('app.visita_motivos').values(v).returning(REASON_COLUMNS).executeTakeFirstOrThrow();
}

export function updateReason(
  tx: Tx,
  idEmpresa: number,
  id: number,
  set: Partial<{ descricao: string; exige_foto: boolean; exige_observacao: boolean; ativo: boolean; ordem: number }>,
) {
  return tx
    .updateTable('app.visita_motivos')
    .set({ ...set, atualizado_em: sql<Date>`now()` })
    .where('id_empresa', '=', idEmpresa)
    .where('id', '=', id)
    .returning(REASON_COLUMNS)
    .executeTakeFirst();
}

export async function maxReasonOrder(tx: Tx, idEmpresa: number): Promise<number> {
  const r = await tx
    .selectFrom('app.visita_motivos')
    .select((eb) => eb.fn.max('ordem').as('m'))
    .where('id_empresa', '=', idEmpresa)
    .executeTakeFirst();
  return Number(r?.m ?? 0);
}

// Photos ----------------------------------------------------------------------------------------

export async function upsertPhoto(
  tx: Tx,
  v: {
    id_empresa: number;
    chave_visita: string;
    cod_vendedor: number;
    mime: string;
    largura: number;
    altura: number;
    bytes: Buffer;
  },
): Promise<void> {
  await tx
    .insertInto('app.visita_fotos')
    .values(v)
    .onConflict((oc) =>
      oc.columns(['id_empresa', 'chave_visita']).doUpdateSet((eb) => ({
        mime: eb.ref('excluded.mime'),
        largura: eb.ref('excluded.largura'),
        altura: eb.ref('excluded.altura'),
        bytes: eb.ref('excluded.bytes'),
        criado_em: sql<Date>`now()`,
      })),
    )
    .execute();
}

export function selectPhoto(tx: Tx, idEmpresa: number, chave: string) {
  return tx
    .selectFrom('app.visita_fotos')
    .select(['cod_vendedor', 'mime', 'bytes'])
    .where('id_empresa', '=', idEmpresa)
    .where('chave_visita', '=', chave)
    .executeTakeFirst();
}

export async function hasPhoto(tx: Tx, idEmpresa: number, chave: string): Promise<boolean> {
  const r = await tx
    .selectFrom('app.visita_fotos')
    .select('chave_visita')
    .where('id_empresa', '=', idEmpresa)
    .where('chave_visita', '=', chave)
    .executeTakeFirst();
  return r !== undefined;
}

// Clients, representatives, the plan -------------------------------------------------------------

export interface PortfolioClient {
  id_cliente: number;
  cod_vendedor: number | null;
  nome: string | null;
  cidade: string | null;
  endereco: string | null;
}

function clients(tx: Tx, idEmpresa: number) {
  return tx
    .selectFrom('app.vw_clientes as c')
    .select([
      sql<number>`c.id_cliente`.as('id_cliente'),
      'c.cod_vendedor',
      sql<string | null>`coalesce(nullif(btrim(c.nome_fantasia), ''), c.razao_social)`.as('nome'),
      'c.cidade',
      sql<string | null>`nullif(concat_ws(', ', c.endereco, c.numero), '')`.as('endereco'),
    ])
    .where('c.id_empresa', '=', idEmpresa);
}

export async function selectClient(tx: Tx, idEmpresa: number, idCliente: number): Promise<PortfolioClient | undefined> {
  return clients(tx, idEmpresa).where('c.id_cliente', '=', idCliente).executeTakeFirst();
}

/** A page of a representative's active clients, by name, and how many there are. */
export async function selectPortfolioPage(
  tx: Tx,
  idEmpresa: number,
  codVendedor: number,
  page: { limit: number; offset: number },
): Promise<{ rows: PortfolioClient[]; total: number }> {
  const base = clients(tx, idEmpresa).where('c.cod_vendedor', '=', codVendedor).where('c.cadastro_ativo', '=', true);
  const rows = await base
    .orderBy(sql`coalesce(nullif(btrim(c.nome_fantasia), ''), c.razao_social)`)
    .orderBy('c.id_cliente')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const count = await base
    .clearSelect()
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirst();
  return { rows, total: Number(count?.n ?? 0) };
}

/** The active clients of the representatives' portfolios. */
export async function selectPortfolios(tx: Tx, idEmpresa: number, reps: number[]): Promise<PortfolioClient[]> {
  if (reps.length === 0) return [];
  return clients(tx, idEmpresa).where('c.cod_vendedor', 'in', reps).where('c.cadastro_ativo', '=', true).execute();
}

export async function selectClientsByIds(tx: Tx, idEmpresa: number, ids: number[]): Promise<PortfolioClient[]> {
  if (ids.length === 0) return [];
  return clients(tx, idEmpresa).where('c.id_cliente', 'in', ids).execute();
}

/** Active representatives of the tenant (one team when codSupervisor is set), by name. */
export function selectRepresentatives(
  tx: Tx,
  idEmpresa: number,
  filter: { codVendedor?: number | undefined; codSupervisor?: number | undefined },
  page: { limit: number; offset: number },
) {
  let q = tx
    .selectFrom('app.vw_vendedores')
    .select([sql<number>`cod_vendedor`.as('cod_vendedor'), 'nome'])
    .where('id_empresa', '=', idEmpresa)
    .where('ativo', '=', true);
  if (filter.codVendedor !== undefined) q = q.where('cod_vendedor', '=', filter.codVendedor);
  if (filter.codSupervisor !== undefined) q = q.where('cod_supervisor', '=', filter.codSupervisor);
  return {
    rows: () => q.orderBy('nome').orderBy('cod_vendedor').limit(page.limit).offset(page.offset).execute(),
    count: async () =>
      Number(
        (
          await q
            .clearSelect()
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirst()
        )?.n ?? 0,
      ),
  };
}

export interface PlanDay {
  id_cliente: number;
  dia_semana: number;
  intervalo_semanas: number;
  data_base: string | null;
}

/** The ERP's visit days of the clients (none when the ERP keeps none). */
export async function selectErpVisitDays(tx: Tx, ids: number[]): Promise<PlanDay[]> {
  if (ids.length === 0) return [];
  const r = await sql<PlanDay>`select id_cliente, dia_semana, intervalo_semanas, data_base::text as data_base
                                 from app.dias_visita_erp(${ids}::integer[])`.execute(tx);
  return r.rows;
}

/** Campo's visit days of the clients. */
export async function selectCampoVisitDays(tx: Tx, idEmpresa: number, ids: number[]): Promise<PlanDay[]> {
  if (ids.length === 0) return [];
  return tx
    .selectFrom('app.roteiro_plano')
    .select(['id_cliente', 'dia_semana', 'intervalo_semanas', sql<string | null>`data_base::text`.as('data_base')])
    .where('id_empresa', '=', idEmpresa)
    .where('id_cliente', 'in', ids)
    .orderBy('dia_semana')
    .execute();
}

/**
 * Serialises the replacements of one client's visit days until the transaction ends: a PUT sent
 * again while the first is in flight waits for it, then replaces its days with the same ones.
 */
export async function lockClientPlan(tx: Tx, idEmpresa: number, idCliente: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`campo.plano:${idEmpresa}:${idCliente}`}, 0))`.execute(tx);
}

export async function replaceCampoVisitDays(
  tx: Tx,
  idEmpresa: number,
  idCliente: number,
  days: { dia_semana: number; intervalo_semanas: number; data_base: string | null }[],
  by: string,
): Promise<void> {
  await tx
    .deleteFrom('app.roteiro_plano')
    .where('id_empresa', '=', idEmpresa)
    .where('id_cliente', '=', idCliente)
    .execute();
  if (days.length === 0) return;
  await tx
    .insertInto('app.roteiro_plano')
    .values(days.map((d) => ({ ...d, id_empresa: idEmpresa, id_cliente: idCliente, atualizado_por: by })))
    .execute();
}

export function selectRouteOrder(tx: Tx, idEmpresa: number, codVendedor: number, data: string) {
  return tx
    .selectFrom('app.roteiro_ordem')
    .select('clientes')
    .where('id_empresa', '=', idEmpresa)
    .where('cod_vendedor', '=', codVendedor)
    .where('data', '=', data)
    .executeTakeFirst();
}

export async function upsertRouteOrder(
  tx: Tx,
  idEmpresa: number,
  codVendedor: number,
  data: string,
  clientes: number[],
) {
  await tx
    .insertInto('app.roteiro_ordem')
    .values({ id_empresa: idEmpresa, cod_vendedor: codVendedor, data, clientes })
    .onConflict((oc) =>
      oc
        .columns(['id_empresa', 'cod_vendedor', 'data'])
        .doUpdateSet({ clientes: (eb) => eb.ref('excluded.clientes'), atualizado_em: sql<Date>`now()` }),
    )
    .execute();
}

/**
 * The clients with an order of the representatives that day: positivation as the dashboards
 * count it (docs/dashboards.md, app.vw_positivacao_dia): Campo orders not rejected, by creation
 * day, and ERP orders not cancelled (telesales, the counter), by emission day, leaving out the
 * ERP copies of Campo orders.
 */
export async function selectOrderedClients(
  tx: Tx,
  idEmpresa: number,
  reps: number[],
  data: string,
): Promise<{ cod_vendedor: number; id_cliente: number }[]> {
  if (reps.length === 0) return [];
  const r = await sql<{ cod_vendedor: number; id_cliente: number }>`
    select p.cod_vendedor, p.id_cliente
      from app.pedidos p
     where p.id_empresa = ${idEmpresa} and p.cod_vendedor = any(${reps}::integer[]) and p.situa not in (4, 5)
       and (p.criado_em at time zone 'America/Sao_Paulo')::date = ${data}::date
    union
    select s.cod_vendedor, s.id_corrent
      from app.vw_sitpedido s
     where s.id_empresa = ${idEmpresa} and s.cod_vendedor = any(${reps}::integer[]) and s.situacao <> 'C'
       and s.dt_emissao >= ${data}::date and s.dt_emissao < ${data}::date + 1
       and not exists (select 1 from app.pedidos p where p.erp_id_pedido = s.id_pedido)`.execute(tx);
  return r.rows;
}

// Positions -------------------------------------------------------------------------------------

export interface ClientPosition {
  id_cliente: number;
  latitude: number;
  longitude: number;
}

/** The clients' positions the ERP keeps (none when it keeps no coordinates). */
export async function selectErpPositions(tx: Tx, ids: number[]): Promise<ClientPosition[]> {
  if (ids.length === 0) return [];
  const r = await sql<ClientPosition>`select id_cliente, latitude, longitude
                                        from app.posicao_clientes_erp(${ids}::integer[])`.execute(tx);
  return r.rows;
}

/** The clients' positions a supervisor confirmed from a check-in. */
export function selectConfirmedPositions(tx: Tx, idEmpresa: number, ids: number[]): Promise<ClientPosition[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return tx
    .selectFrom('app.clientes_posicao')
    .select(['id_cliente', 'latitude', 'longitude'])
    .where('id_empresa', '=', idEmpresa)
    .where('id_cliente', 'in', ids)
    .where('confirmada', '=', true)
    .execute();
}

/** Positions proposed by a first check-in and not confirmed, of some representatives' clients (all when null). */
export async function selectProposals(
  tx: Tx,
  idEmpresa: number,
  reps: number[] | null,
  page: { limit: number; offset: number },
) {
  if (reps !== null && reps.length === 0) return { rows: [], total: 0 };
  let base = tx
    .selectFrom('app.clientes_posicao as p')
    .innerJoin('app.vw_clientes as c', (j) =>
      j.onRef('c.id_cliente', '=', 'p.id_cliente').onRef('c.id_empresa', '=', 'p.id_empresa'),
    )
    .where('p.id_empresa', '=', idEmpresa)
    .where('p.confirmada', '=', false);
  if (reps !== null) base = base.where('c.cod_vendedor', 'in', reps);
  const rows = await base
    .select([
      'p.id_cliente',
      sql<string | null>`coalesce(nullif(btrim(c.nome_fantasia), ''), c.razao_social)`.as('nome'),
      'c.cod_vendedor',
      'p.chave_visita',
      'p.latitude',
      'p.longitude',
      'p.precisao_m',
    ])
    .orderBy(sql`coalesce(nullif(btrim(c.nome_fantasia), ''), c.razao_social)`)
    .orderBy('p.id_cliente')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const count = await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst();
  return { rows, total: Number(count?.n ?? 0) };
}

/** Proposes a client's position from a first check-in with one; an existing row is kept. */
export async function proposePosition(
  tx: Tx,
  v: {
    id_empresa: number;
    id_cliente: number;
    latitude: number;
    longitude: number;
    precisao_m: number | null;
    chave_visita: string;
  },
): Promise<void> {
  await tx
    .insertInto('app.clientes_posicao')
    .values(v)
    .onConflict((oc) => oc.columns(['id_empresa', 'id_cliente']).doNothing())
    .execute();
}

/** Sets the client's position from a visit's check-in, confirmed. */
export async function confirmPosition(
  tx: Tx,
  v: {
    id_empresa: number;
    id_cliente: number;
    latitude: number;
    longitude: number;
    precisao_m: number | null;
    chave_visita: string;
  },
  by: string,
): Promise<void> {
  await tx
    .insertInto('app.clientes_posicao')
    .values({ ...v, confirmada: true, confirmada_por: by, confirmada_em: sql<Date>`now()` })
    .onConflict((oc) =>
      oc.columns(['id_empresa', 'id_cliente']).doUpdateSet((eb) => ({
        latitude: eb.ref('excluded.latitude'),
        longitude: eb.ref('excluded.longitude'),
        precisao_m: eb.ref('excluded.precisao_m'),
        chave_visita: eb.ref('excluded.chave_visita'),
        confirmada: true,
        confirmada_por: by,
        confirmada_em: sql<Date>`now()`,
      })),
    )
    .execute();
}

/** Sets the distance of the client's visits that had none, once its position is known. */
export async function fillDistances(
  tx: Tx,
  idEmpresa: number,
  idCliente: number,
  at: { latitude: number; longitude: number },
) {
  // Haversine in SQL, the same formula as shared/src/visits.ts distanceMeters.
  return tx
    .updateTable('app.visitas')
    .set({
      distancia_m: sql<number>`round(2 * 6371008.8 * asin(least(1, sqrt(
        power(sin(radians(${at.latitude} - latitude) / 2), 2)
        + cos(radians(latitude)) * cos(radians(${at.latitude})) * power(sin(radians(${at.longitude} - longitude) / 2), 2)))))::integer`,
      atualizado_em: sql<Date>`now()`,
    })
    .where('id_empresa', '=', idEmpresa)
    .where('id_cliente', '=', idCliente)
    .where('latitude', 'is not', null)
    .where('distancia_m', 'is', null)
    .returning('chave')
    .execute();
}
