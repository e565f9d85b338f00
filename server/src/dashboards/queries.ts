// Every SQL statement of the dashboards: aggregates over the views (vw_notas_fiscais,
// vw_pedidos_cliente, vw_pedidos_erp_itens, vw_vendedores, vw_clientes) and the app tables.
// Each names its tenant itself; withScope's settings are the second line of defence. Dates
// are São Paulo's: withScope sets the session time zone, so current_date, a date cast to
// timestamptz and an ERP timestamp cast to timestamptz all follow the business calendar.
import { sql } from 'kysely';
import { clientNameSql } from '../db/client-name.ts';
import { PREPARED } from '../db/prepared.ts';
import type { Tx } from '../db/scope.ts';

/**
 * Runs `reads` on generic plans from their first execution, then hands the planner back the
 * setting it had for the rest of the transaction. For prepared statements whose generic plan
 * is the one PostgreSQL would pick anyway but whose generic estimate stays above the custom
 * ones, so that it plans them for their parameters on every call: today's positivation (an
 * unknown date range is estimated at 0.5 % of the ERP's orders, a known day at a handful) was
 * planned in 1 ms to run in 0.15 ms on the large fixture. Not for the statements whose plan
 * rightly depends on their values (a portfolio's history, the FLEX base's invoices): those are
 * not prepared, and run outside, planned per call.
 */
export async function withGenericPlans<T>(tx: Tx, reads: () => Promise<T>): Promise<T> {
  const { rows } = await sql<{ before: string }>`${sql.raw(PREPARED)}
    select current_setting('plan_cache_mode') as before,
           set_config('plan_cache_mode', 'force_generic_plan', true)`.execute(tx);
  const result = await reads();
  await sql`${sql.raw(PREPARED)}select set_config('plan_cache_mode', ${rows[0]?.before ?? 'auto'}, true)`.execute(tx);
  return result;
}

/** Which representatives a figure covers: one, one supervisor's team, or the whole tenant. */
export interface TeamFilter {
  codVendedor?: number | undefined;
  codSupervisor?: number | undefined;
}

export interface Period {
  /** First day, inclusive (YYYY-MM-DD). */
  ini: string;
  /** Day after the last, exclusive (YYYY-MM-DD). */
  fim: string;
}

export interface Calendar {
  mes: string;
  month: Period;
  previousMonth: Period;
  today: Period;
  /** First day of the last-7-days window (today and the 6 days before). */
  weekStart: string;
}

/** The month asked (YYYY-MM) or the current one, and today, in São Paulo. */
export async function selectCalendar(tx: Tx, mes: string | undefined): Promise<Calendar> {
  const { rows } = await sql<Record<string, string>>`${sql.raw(PREPARED)}
    select to_char(m, 'YYYY-MM')                            as mes,
           m::text                                          as ini,
           (m + interval '1 month')::date::text             as fim,
           (m - interval '1 month')::date::text             as anterior,
           current_date::text                               as hoje,
           (current_date + 1)::text                         as amanha,
           (current_date - 6)::text                         as semana
      from (select coalesce(to_date(${mes ?? null}::text, 'YYYY-MM'),
                            date_trunc('month', current_date)::date) as m) x`.execute(tx);
  const r = rows[0] as Record<string, string>;
  return {
    mes: r.mes as string,
    month: { ini: r.ini as string, fim: r.fim as string },
    previousMonth: { ini: r.anterior as string, fim: r.ini as string },
    today: { ini: r.hoje as string, fim: r.amanha as string },
    weekStart: r.semana as string,
  };
}

/**
 * The filter's representatives, on the column of the rows read: a supervisor's team as the
 * list of its representatives' codes, so that the read of the ERP's orders or invoices reaches
 * only theirs through its (id_empresa, cod_vendedor, ...) index rather than reading the whole
 * tenant's and dropping the other teams after the join.
 */
function teamWhere(f: TeamFilter, idEmpresa: number, rep: ReturnType<typeof sql.ref>) {
  return sql`${f.codVendedor === undefined ? sql`true` : sql`${rep} = ${f.codVendedor}`}
         and ${
           f.codSupervisor === undefined
             ? sql`true`
             : sql`${rep} in (select t.cod_vendedor from app.vw_vendedores t
                               where t.id_empresa = ${idEmpresa} and t.cod_supervisor = ${f.codSupervisor})`
         }`;
}

/**
 * A figure per representative (with their supervisor), per supervisor and for the whole
 * filter: `nivel` is 'rep', 'sup' or 'all'. Distinct counts cannot be added up, hence the
 * grouping sets rather than sums in the caller.
 */
export interface Figure {
  nivel: 'rep' | 'sup' | 'all';
  cod_vendedor: number | null;
  cod_supervisor: number | null;
  valor: number;
}

const nivel = sql<string>`case grouping(x.cod_supervisor, x.cod_vendedor) when 0 then 'rep' when 1 then 'sup' else 'all' end`;

async function figures(tx: Tx, inner: ReturnType<typeof sql>, aggregate: ReturnType<typeof sql>): Promise<Figure[]> {
  const { rows } = await sql<{
    nivel: Figure['nivel'];
    cod_vendedor: number | null;
    cod_supervisor: number | null;
    valor: string | number;
  }>`${sql.raw(PREPARED)}
    select ${nivel} as nivel, x.cod_vendedor, x.cod_supervisor, ${aggregate} as valor
      from (${inner}) x
     group by grouping sets ((x.cod_supervisor, x.cod_vendedor), (x.cod_supervisor), ())`.execute(tx);
  return rows.map((r) => ({ ...r, valor: Number(r.valor) }));
}

/** Billing: the value of the non-cancelled invoices issued in the period. */
export function selectBilling(tx: Tx, idEmpresa: number, p: Period, f: TeamFilter): Promise<Figure[]> {
  return figures(
    tx,
    sql`select n.cod_vendedor, v.cod_supervisor, n.valor_total
          from app.vw_notas_fiscais n
          left join app.vw_vendedores v on v.id_empresa = n.id_empresa and v.cod_vendedor = n.cod_vendedor
         where n.id_empresa = ${idEmpresa}
           and n.dt_emissao >= ${p.ini}::date and n.dt_emissao < ${p.fim}::date
           and ${teamWhere(f, idEmpresa, sql.ref('n.cod_vendedor'))}`,
    sql`coalesce(sum(x.valor_total), 0)`,
  );
}

/**
 * Positivation: distinct clients with an order in the period, Campo's not rejected (by
 * creation day) and the ERP's not cancelled (by emission day), as app.vw_positivacao_dia
 * counts them; ERP copies of Campo orders are left out, so an approved order counts once.
 * Written on app.pedidos and vw_sitpedido (whose dt_emissao is the ERP's own column) so
 * that the period reaches the ERP's (id_empresa, cod_vendedor, dt_emissao) index.
 */
export function selectPositivation(tx: Tx, idEmpresa: number, p: Period, f: TeamFilter): Promise<Figure[]> {
  return figures(
    tx,
    sql`select o.cod_vendedor, v.cod_supervisor, o.id_cliente
          from (select p.cod_vendedor, p.id_cliente
                  from app.pedidos p
                 where p.id_empresa = ${idEmpresa} and p.situa not in (4, 5)
                   and p.criado_em >= ${p.ini}::date::timestamptz and p.criado_em < ${p.fim}::date::timestamptz
                   and ${teamWhere(f, idEmpresa, sql.ref('p.cod_vendedor'))}
                union all
                select s.cod_vendedor, s.id_corrent
                  from app.vw_sitpedido s
                 where s.id_empresa = ${idEmpresa} and s.situacao <> 'C'
                   and s.dt_emissao >= ${p.ini}::timestamp and s.dt_emissao < ${p.fim}::timestamp
                   and not exists (select 1 from app.pedidos c where c.erp_id_pedido = s.id_pedido)
                   and ${teamWhere(f, idEmpresa, sql.ref('s.cod_vendedor'))}) o
          left join app.vw_vendedores v on v.id_empresa = ${idEmpresa} and v.cod_vendedor = o.cod_vendedor`,
    sql`count(distinct x.id_cliente)`,
  );
}

/** Monthly targets (app.metas_representante) of the month starting at `mes`. */
export function selectTargets(tx: Tx, idEmpresa: number, mes: string, f: TeamFilter): Promise<Figure[]> {
  return figures(
    tx,
    sql`select m.cod_vendedor, v.cod_supervisor, m.valor_meta
          from app.metas_representante m
          left join app.vw_vendedores v on v.id_empresa = m.id_empresa and v.cod_vendedor = m.cod_vendedor
         where m.id_empresa = ${idEmpresa} and m.mes = ${mes}::date
           and ${teamWhere(f, idEmpresa, sql.ref('m.cod_vendedor'))}`,
    sql`sum(x.valor_meta)`,
  );
}

/**
 * The FLEX base of one representative in the period: over the lines of the ERP orders whose
 * first non-cancelled invoice was issued in the period by this rep, the sum of
 * (unit price − list price) × quantity where positive, in exact numeric, rounded once to
 * centavos half away from zero (round(), as shared's money does: docs/money.md).
 */
export async function selectFlexBase(tx: Tx, idEmpresa: number, codVendedor: number, p: Period): Promise<number> {
  const { rows } = await sql<{ base: string | null }>`
    select round(coalesce(sum(greatest((i.preco_unitario - i.preco_tabela) * i.quantidade, 0)), 0), 2) as base
      from (select distinct n.id_pedido
              from app.vw_notas_fiscais n
             where n.id_empresa = ${idEmpresa} and n.cod_vendedor = ${codVendedor}
               and n.dt_emissao >= ${p.ini}::date and n.dt_emissao < ${p.fim}::date
               and n.id_pedido is not null
               and not exists (select 1 from app.vw_notas_fiscais a
                                where a.id_pedido = n.id_pedido and a.dt_emissao < ${p.ini}::date)) o
      join app.vw_pedidos_erp_itens i on i.id_pedido = o.id_pedido and i.id_empresa = ${idEmpresa}`.execute(tx);
  return Number(rows[0]?.base ?? 0);
}

export async function selectReps(tx: Tx, idEmpresa: number, f: TeamFilter, limit: number) {
  let query = tx
    .selectFrom('app.vw_vendedores as v')
    .modifyFront(sql.raw(PREPARED))
    .select(['v.cod_vendedor', 'v.nome', 'v.cod_supervisor', 'v.perc_comissao', 'v.perc_comissao_flex'])
    .where('v.id_empresa', '=', idEmpresa);
  if (f.codVendedor !== undefined) query = query.where('v.cod_vendedor', '=', f.codVendedor);
  if (f.codSupervisor !== undefined) query = query.where('v.cod_supervisor', '=', f.codSupervisor);
  const rows = await query.orderBy('v.cod_vendedor').limit(limit).execute();
  return rows.map((r) => ({ ...r, cod_vendedor: r.cod_vendedor as number }));
}

/** Every representative's supervisor, for counting active representatives per team. */
export function selectRepSupervisors(tx: Tx, idEmpresa: number) {
  return tx
    .selectFrom('app.vw_vendedores')
    .modifyFront(sql.raw(PREPARED))
    .select(['cod_vendedor', 'cod_supervisor'])
    .where('id_empresa', '=', idEmpresa)
    .execute();
}

export function selectSupervisors(tx: Tx, idEmpresa: number, limit: number) {
  return tx
    .selectFrom('app.vw_supervisores')
    .modifyFront(sql.raw(PREPARED))
    .select(['cod_supervisor', 'nome'])
    .where('id_empresa', '=', idEmpresa)
    .orderBy('cod_supervisor')
    .limit(limit)
    .execute();
}

export function selectSupervisor(tx: Tx, idEmpresa: number, codSupervisor: number) {
  return tx
    .selectFrom('app.vw_supervisores')
    .modifyFront(sql.raw(PREPARED))
    .select(['cod_supervisor', 'nome'])
    .where('id_empresa', '=', idEmpresa)
    .where('cod_supervisor', '=', codSupervisor)
    .executeTakeFirst();
}

export async function selectMetaPositivacaoDia(tx: Tx, idEmpresa: number): Promise<number | null> {
  const row = await tx
    .selectFrom('app.config_empresa')
    .modifyFront(sql.raw(PREPARED))
    .select('meta_positivacao_dia')
    .where('id_empresa', '=', idEmpresa)
    .executeTakeFirst();
  return row?.meta_positivacao_dia ?? null;
}

/**
 * Inactive clients of a portfolio (latest order before `before`, or never): the first `limit`
 * and, on each row, how many there are in all (one pass over the portfolio, not two).
 */
export async function selectInactiveClients(
  tx: Tx,
  idEmpresa: number,
  codVendedor: number,
  before: Date,
  limit: number,
) {
  const rows = await tx
    .selectFrom('app.vw_clientes')
    .select([
      'id_cliente',
      clientNameSql('vw_clientes').as('nome'),
      'ultimo_pedido_em',
      sql<string>`count(*) over ()`.as('total'),
    ])
    .where('id_empresa', '=', idEmpresa)
    .where('cod_vendedor', '=', codVendedor)
    // One comparison, not "is null or <": each mention of ultimo_pedido_em in the filter is a
    // look-up of the client's latest orders, and the OR made it two per client of the portfolio.
    .where(sql<boolean>`coalesce(ultimo_pedido_em, '-infinity') < ${before}`)
    .orderBy(sql`ultimo_pedido_em desc nulls last`)
    .orderBy('id_cliente')
    .limit(limit)
    .execute();
  return { total: Number(rows[0]?.total ?? 0), items: rows };
}

/** Campo orders of a representative created on or after `fromDay` (São Paulo), newest first. */
export function selectRecentOrders(tx: Tx, idEmpresa: number, codVendedor: number, fromDay: string, limit: number) {
  return tx
    .selectFrom('app.pedidos')
    .modifyFront(sql.raw(PREPARED))
    .select(['id', 'num_ped_sar', 'id_cliente', 'nome_cliente', 'situa', 'valor_total', 'criado_em'])
    .where('id_empresa', '=', idEmpresa)
    .where('cod_vendedor', '=', codVendedor)
    .where('criado_em', '>=', sql<Date>`${fromDay}::date::timestamptz`)
    .orderBy('criado_em', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** ERP-born orders of a representative's portfolio issued on or after `fromDay` (São Paulo), newest first. */
export function selectRecentErpOrders(tx: Tx, idEmpresa: number, codVendedor: number, fromDay: string, limit: number) {
  return (
    tx
      .selectFrom('app.vw_pedidos_cliente as o')
      .innerJoin('app.vw_clientes as c', (j) =>
        j.onRef('c.id_cliente', '=', 'o.id_cliente').onRef('c.id_empresa', '=', 'o.id_empresa'),
      )
      .select([
        'o.id_pedido_erp',
        'o.num_pedido_erp',
        'o.id_cliente',
        clientNameSql('c').as('nome_cliente'),
        'o.status',
        'o.valor_total',
        'o.emitido_em',
      ])
      .where('o.origem', '=', 'erp')
      .where('o.id_empresa', '=', idEmpresa)
      .where('c.cod_vendedor', '=', codVendedor)
      // On the wall-clock column, which reaches the ERP's dt_emissao indexes (emitido_em's cast does not).
      .where('o.emitido_em_local', '>=', sql<Date>`${fromDay}::date::timestamp`)
      .orderBy('o.emitido_em', 'desc')
      .orderBy('o.id_pedido_erp', 'desc')
      .limit(limit)
      .execute()
  );
}

export async function countPendingOrders(tx: Tx, idEmpresa: number): Promise<number> {
  const row = await tx
    .selectFrom('app.pedidos')
    .modifyFront(sql.raw(PREPARED))
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .where('id_empresa', '=', idEmpresa)
    .where('situa', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}
