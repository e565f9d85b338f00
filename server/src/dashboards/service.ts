// Dashboards: read-only aggregates of a month and of today, in São Paulo's calendar, for the
// representative, the supervisor and the manager. Who may see whom: a representative sees
// themself; a supervisor, the representatives whose ERP supervisor they are; managers and
// admins, the whole tenant. Someone out of reach answers 404, as if absent.
import {
  DASHBOARD_INACTIVE_CLIENTS_MAX,
  DASHBOARD_RECENT_ORDERS_MAX,
  DASHBOARD_REPS_MAX,
  DASHBOARD_SUPERVISORS_MAX,
  inactiveBefore,
  type ManagerDashboard,
  type Positivacao,
  percentOfMoney,
  type RepDashboard,
  type RepRanking,
  round2,
  type SupervisorCard,
  type SupervisorCards,
  type SupervisorDashboard,
  statusOfSitua,
  sumMoney,
  ZClientOrderStatus,
} from '@campo/shared';
import { reaches, scopeOf, teamScope } from '../auth/authorize.ts';
import type { Db } from '../db/kysely.ts';
import { type Tx, withScope } from '../db/scope.ts';
import { DomainError, notFound } from '../errors.ts';
import type { AuthContext } from '../http/env.ts';
import * as q from './queries.ts';

const ratio = (value: number, target: number | null) => (target ? value / target : null);
const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

function byRep(figures: q.Figure[]): Map<number, number> {
  return new Map(
    figures.flatMap((f) => (f.nivel === 'rep' && f.cod_vendedor !== null ? [[f.cod_vendedor, f.valor] as const] : [])),
  );
}
function bySupervisor(figures: q.Figure[]): Map<number | null, number> {
  return new Map(figures.filter((f) => f.nivel === 'sup').map((f) => [f.cod_supervisor, f.valor]));
}
const total = (figures: q.Figure[]) => figures.find((f) => f.nivel === 'all')?.valor ?? 0;

async function positivationToday(tx: Tx, idEmpresa: number, cal: q.Calendar, f: q.TeamFilter): Promise<Positivacao> {
  const clientes = total(await q.selectPositivation(tx, idEmpresa, cal.today, f));
  const meta = await q.selectMetaPositivacaoDia(tx, idEmpresa);
  return { clientes, meta, progresso: ratio(clientes, meta) };
}

/** The representative whose dashboard the caller asks for, or 404 when out of reach. */
async function repInReach(tx: Tx, auth: AuthContext, asked: number | undefined) {
  // A representative's own, whatever they ask for; the others name one in their reach.
  const scope = teamScope(auth, { codVendedor: asked });
  if (scope === null) throw notFound('Representante');
  const { codVendedor } = scope;
  if (codVendedor === undefined) {
    throw new DomainError(
      'COD_VENDEDOR_REQUIRED',
      'Informe codVendedor: o painel do representante é de um representante.',
    );
  }
  const [rep] = await q.selectReps(tx, auth.idEmpresa, { codVendedor }, 1);
  if (!rep || !reaches(auth, { codVendedor: rep.cod_vendedor, codSupervisor: rep.cod_supervisor })) {
    throw notFound('Representante');
  }
  return rep;
}

export function getRepDashboard(
  db: Db,
  auth: AuthContext,
  input: { codVendedor?: number | undefined; mes?: string | undefined },
): Promise<RepDashboard> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const idEmpresa = auth.idEmpresa;
    // The prepared reads first, on generic plans; then the portfolio's history, planned per call.
    const { rep, cal, faturamento, meta, recent, positivacaoHoje } = await q.withGenericPlans(tx, async () => {
      const rep = await repInReach(tx, auth, input.codVendedor);
      const cal = await q.selectCalendar(tx, input.mes);
      const f = { codVendedor: rep.cod_vendedor };
      const faturamento = total(await q.selectBilling(tx, idEmpresa, cal.month, f));
      const metaRow = (await q.selectTargets(tx, idEmpresa, cal.month.ini, f)).find((x) => x.nivel === 'rep');
      const recent = await q.selectRecentOrders(
        tx,
        idEmpresa,
        rep.cod_vendedor,
        cal.weekStart,
        DASHBOARD_RECENT_ORDERS_MAX,
      );
      const positivacaoHoje = await positivationToday(tx, idEmpresa, cal, f);
      return { rep, cal, faturamento, meta: metaRow ? metaRow.valor : null, recent, positivacaoHoje };
    });
    const cod = rep.cod_vendedor;
    const baseFlex = await q.selectFlexBase(tx, idEmpresa, cod, cal.month);
    const percFixa = rep.perc_comissao === null ? null : Number(rep.perc_comissao);
    const percFlex = rep.perc_comissao_flex === null ? null : Number(rep.perc_comissao_flex);
    // Each part rounded once to centavos, half away from zero (docs/money.md), then added.
    const fixa = percentOfMoney(faturamento, percFixa ?? 0);
    const flex = percentOfMoney(baseFlex, percFlex ?? 0);
    const inactive = await q.selectInactiveClients(
      tx,
      idEmpresa,
      cod,
      inactiveBefore(new Date()),
      DASHBOARD_INACTIVE_CLIENTS_MAX,
    );
    const recentErp = await q.selectRecentErpOrders(tx, idEmpresa, cod, cal.weekStart, DASHBOARD_RECENT_ORDERS_MAX);
    return {
      codVendedor: cod,
      nome: rep.nome,
      mes: cal.mes,
      meta: { valor: meta, faturamento: round2(faturamento), progresso: ratio(faturamento, meta) },
      comissao: { percFixa, percFlex, baseFlex, fixa, flex, total: sumMoney([fixa, flex]) },
      clientesInativos: {
        total: inactive.total,
        itens: inactive.items.map((c) => ({
          idCliente: c.id_cliente as number,
          nome: c.nome,
          ultimoPedidoEm: iso(c.ultimo_pedido_em as Date | null),
        })),
      },
      pedidosRecentes: recent.map((o) => ({
        id: Number(o.id),
        numPedSar: o.num_ped_sar,
        idCliente: o.id_cliente,
        nomeCliente: o.nome_cliente,
        status: statusOfSitua(o.situa),
        valorTotal: Number(o.valor_total),
        criadoEm: iso(o.criado_em as Date) as string,
      })),
      pedidosErpRecentes: recentErp.map((o) => ({
        erpId: o.id_pedido_erp as number,
        numero: o.num_pedido_erp,
        idCliente: o.id_cliente as number,
        nomeCliente: o.nome_cliente,
        status: ZClientOrderStatus.options.find((st) => st === o.status) ?? 'approved',
        valorTotal: Number(o.valor_total ?? 0),
        emitidoEm: iso(o.emitido_em as Date) as string,
      })),
      positivacaoHoje,
    };
  });
}

export function getSupervisorDashboard(
  db: Db,
  auth: AuthContext,
  input: { codSupervisor?: number | undefined; mes?: string | undefined },
): Promise<SupervisorDashboard> {
  return withScope(db, scopeOf(auth), async (tx) => {
    // A supervisor's own team, whatever they ask for; managers and admins the one they ask for, or all.
    const scope = teamScope(auth, { codSupervisor: input.codSupervisor });
    if (scope === null) throw notFound('Supervisor');
    const { codSupervisor } = scope;
    if (codSupervisor !== undefined && !(await q.selectSupervisor(tx, auth.idEmpresa, codSupervisor))) {
      throw notFound('Supervisor');
    }
    const idEmpresa = auth.idEmpresa;
    const f = { codSupervisor };
    const cal = await q.selectCalendar(tx, input.mes);
    const reps = await q.selectReps(tx, idEmpresa, f, DASHBOARD_REPS_MAX);
    const billing = byRep(await q.selectBilling(tx, idEmpresa, cal.month, f));
    const positivation = byRep(await q.selectPositivation(tx, idEmpresa, cal.month, f));
    const targets = byRep(await q.selectTargets(tx, idEmpresa, cal.month.ini, f));
    const rows: RepRanking[] = reps.map((r) => {
      const faturamento = round2(billing.get(r.cod_vendedor) ?? 0);
      const meta = targets.get(r.cod_vendedor) ?? null;
      return {
        codVendedor: r.cod_vendedor,
        nome: r.nome,
        faturamento,
        positivacao: positivation.get(r.cod_vendedor) ?? 0,
        meta,
        progresso: ratio(faturamento, meta),
      };
    });
    const tie = (a: RepRanking, b: RepRanking) => a.codVendedor - b.codVendedor;
    return {
      codSupervisor: codSupervisor ?? null,
      mes: cal.mes,
      porFaturamento: [...rows].sort((a, b) => b.faturamento - a.faturamento || tie(a, b)),
      porPositivacao: [...rows].sort((a, b) => b.positivacao - a.positivacao || tie(a, b)),
      positivacaoHoje: await positivationToday(tx, idEmpresa, cal, f),
    };
  });
}

async function cards(tx: Tx, idEmpresa: number, cal: q.Calendar) {
  const all = {};
  const billingFigures = await q.selectBilling(tx, idEmpresa, cal.month, all);
  const positivationFigures = await q.selectPositivation(tx, idEmpresa, cal.month, all);
  const billing = bySupervisor(billingFigures);
  const previous = bySupervisor(await q.selectBilling(tx, idEmpresa, cal.previousMonth, all));
  const positivation = bySupervisor(positivationFigures);
  const targets = bySupervisor(await q.selectTargets(tx, idEmpresa, cal.month.ini, all));
  const repBilling = byRep(billingFigures);
  const repPositivation = byRep(positivationFigures);
  const teamSize = new Map<number | null, number>();
  const activeReps = new Map<number | null, number>();
  for (const r of await q.selectRepSupervisors(tx, idEmpresa)) {
    teamSize.set(r.cod_supervisor, (teamSize.get(r.cod_supervisor) ?? 0) + 1);
    const cod = r.cod_vendedor;
    if (cod !== null && ((repBilling.get(cod) ?? 0) > 0 || (repPositivation.get(cod) ?? 0) > 0)) {
      activeReps.set(r.cod_supervisor, (activeReps.get(r.cod_supervisor) ?? 0) + 1);
    }
  }
  const supervisors = await q.selectSupervisors(tx, idEmpresa, DASHBOARD_SUPERVISORS_MAX);
  const items: SupervisorCard[] = supervisors.map((s) => {
    const faturamento = round2(billing.get(s.cod_supervisor) ?? 0);
    const anterior = round2(previous.get(s.cod_supervisor) ?? 0);
    return {
      codSupervisor: s.cod_supervisor as number,
      nome: s.nome,
      faturamento,
      faturamentoMesAnterior: anterior,
      variacaoPercent: anterior === 0 ? null : round2(((faturamento - anterior) / anterior) * 100),
      meta: round2(targets.get(s.cod_supervisor) ?? 0),
      positivacao: positivation.get(s.cod_supervisor) ?? 0,
      representantes: teamSize.get(s.cod_supervisor) ?? 0,
      representantesAtivos: activeReps.get(s.cod_supervisor) ?? 0,
    };
  });
  return { items, billingTotal: total(billingFigures), positivationTotal: total(positivationFigures) };
}

export function getSupervisorCards(
  db: Db,
  auth: AuthContext,
  input: { mes?: string | undefined },
): Promise<SupervisorCards> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const cal = await q.selectCalendar(tx, input.mes);
    return { mes: cal.mes, itens: (await cards(tx, auth.idEmpresa, cal)).items };
  });
}

export function getManagerDashboard(
  db: Db,
  auth: AuthContext,
  input: { mes?: string | undefined },
): Promise<ManagerDashboard> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const cal = await q.selectCalendar(tx, input.mes);
    const c = await cards(tx, auth.idEmpresa, cal);
    return {
      mes: cal.mes,
      faturamento: round2(c.billingTotal),
      positivacao: c.positivationTotal,
      pedidosPendentes: await q.countPendingOrders(tx, auth.idEmpresa),
      positivacaoHoje: await positivationToday(tx, auth.idEmpresa, cal, {}),
      supervisores: c.items,
    };
  });
}
