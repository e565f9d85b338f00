// Dashboards of the representative, the supervisor and the manager (spec: Dashboards), and the
// manager's team cards. Definitions (docs/dashboards.md): positivation is the number of
// distinct clients with at least one order that was not rejected (Campo) or cancelled (ERP);
// billing is the value of the non-cancelled ERP invoices; months and days are São Paulo's.
import { z } from 'zod';
import { ZClientOrderStatus } from './clients.ts';
import { ZOrderStatus } from './orders.ts';

/** Bounds of every list a dashboard returns. */
export const DASHBOARD_INACTIVE_CLIENTS_MAX = 20;
export const DASHBOARD_RECENT_ORDERS_MAX = 20;
export const DASHBOARD_REPS_MAX = 200;
export const DASHBOARD_SUPERVISORS_MAX = 100;

export const POSITIVATION_DEFINITION =
  'Positivation: distinct clients with at least one order in the period that was not rejected (Campo orders) or cancelled (ERP orders); Campo orders by creation day, ERP orders by emission day; an approved Campo order and its ERP copy count once (on the Campo order, by its creation day).';
export const BILLING_DEFINITION =
  'Billing (faturamento): value of the non-cancelled ERP invoices (notas fiscais) issued in the period.';
export const COMMISSION_DEFINITION =
  "Commission: fixed part = the rep's fixed rate (perc_comissao, percent) × billing of the month; FLEX part = the rep's flex rate (perc_comissao_flex, percent) × the sum, over the lines of the ERP orders whose first non-cancelled invoice was issued by the rep in the month, of (sold unit price − list price) × quantity where positive.";
export const INACTIVE_DEFINITION =
  'Inactive client: latest order (Campo order not rejected, ERP order not cancelled, or the ERP last-purchase date) more than 30 days ago, or never.';
export const ACTIVE_REP_DEFINITION =
  'Active representative: at least one order that counts for positivation, or one non-cancelled invoice, in the month.';

export const ZMes = z
  .string()
  .max(7)
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'use o formato AAAA-MM')
  .describe('A São Paulo calendar month, YYYY-MM');

const money = (what: string) => z.number().describe(`${what}, in BRL`);

export const ZPositivacao = z
  .object({
    clientes: z.number().int().describe('Distinct clients positivated (see the definition)'),
    meta: z
      .number()
      .int()
      .nullable()
      .describe('Daily target (config_empresa.meta_positivacao_dia, clients per day); null when unset'),
    progresso: z
      .number()
      .nullable()
      .describe('clientes / meta, 1 = target reached; null when the target is unset or 0'),
  })
  .describe(`Positivation of today (São Paulo) against the daily target. ${POSITIVATION_DEFINITION}`);
export type Positivacao = z.infer<typeof ZPositivacao>;

export const ZRepDashboard = z
  .object({
    codVendedor: z.number().int().describe('The representative'),
    nome: z.string().nullable().describe("The representative's name (ERP)"),
    mes: ZMes.describe('The month of the monthly figures (YYYY-MM, São Paulo)'),
    meta: z
      .object({
        valor: money('Monthly target (app.metas_representante)')
          .nullable()
          .describe('Monthly target in BRL; null when unset'),
        faturamento: money(`Billing of the month. ${BILLING_DEFINITION}`),
        progresso: z.number().nullable().describe('faturamento / valor, 1 = target reached; null when unset or 0'),
      })
      .describe('Monthly target and progress'),
    comissao: z
      .object({
        percFixa: z.number().nullable().describe('Fixed rate in percent (ERP perc_comissao)'),
        percFlex: z.number().nullable().describe('FLEX rate in percent (ERP perc_comissao_flex)'),
        baseFlex: money('Sum over the invoiced lines of (unit price − list price) × quantity where positive'),
        fixa: money('Fixed part = percFixa / 100 × billing of the month'),
        flex: money('FLEX part = percFlex / 100 × baseFlex'),
        total: money('fixa + flex'),
      })
      .describe(COMMISSION_DEFINITION),
    clientesInativos: z
      .object({
        total: z.number().int().describe('Inactive clients of the portfolio'),
        itens: z
          .array(
            z.object({
              idCliente: z.number().int().describe('Client id (ERP corrent)'),
              nome: z.string().nullable().describe('Legal name (razão social)'),
              ultimoPedidoEm: z.string().nullable().describe('Latest order, ISO 8601; null when never'),
            }),
          )
          .max(DASHBOARD_INACTIVE_CLIENTS_MAX)
          .describe(
            `At most ${DASHBOARD_INACTIVE_CLIENTS_MAX}: the most recently lapsed first (latest order newest first, never-ordered last), then by id`,
          ),
      })
      .describe(INACTIVE_DEFINITION),
    pedidosRecentes: z
      .array(
        z.object({
          id: z.number().int().describe('Order id'),
          numPedSar: z.number().int().describe('Order number (num_ped_sar)'),
          idCliente: z.number().int().describe('Client id'),
          nomeCliente: z.string().describe('Client name copied into the order'),
          status: ZOrderStatus,
          valorTotal: money('Order total'),
          criadoEm: z.string().describe('Created at, ISO 8601'),
        }),
      )
      .max(DASHBOARD_RECENT_ORDERS_MAX)
      .describe(
        `Campo orders created today or in the 6 previous São Paulo days (any status), newest first, at most ${DASHBOARD_RECENT_ORDERS_MAX}`,
      ),
    pedidosErpRecentes: z
      .array(
        z.object({
          erpId: z.number().int().describe('ERP order id (GET /clients/{id}/erp-orders/{erpId})'),
          numero: z.number().int().nullable().describe('ERP order number'),
          idCliente: z.number().int().describe('Client id'),
          nomeCliente: z.string().nullable().describe('Legal name (razão social)'),
          status: ZClientOrderStatus,
          valorTotal: money('Order total'),
          emitidoEm: z.string().describe('Issued at, ISO 8601'),
        }),
      )
      .max(DASHBOARD_RECENT_ORDERS_MAX)
      .describe(
        `Orders placed in the ERP (telesales, counter; not Campo's replicas) for the representative's portfolio, issued today or in the 6 previous São Paulo days, newest first, at most ${DASHBOARD_RECENT_ORDERS_MAX}`,
      ),
    positivacaoHoje: ZPositivacao,
  })
  .describe('The representative dashboard');
export type RepDashboard = z.infer<typeof ZRepDashboard>;

export const ZRepRanking = z.object({
  codVendedor: z.number().int().describe('The representative'),
  nome: z.string().nullable().describe("The representative's name"),
  faturamento: money(`Billing of the month. ${BILLING_DEFINITION}`),
  positivacao: z.number().int().describe('Distinct clients positivated in the month'),
  meta: money('Monthly target').nullable().describe('Monthly target in BRL; null when unset'),
  progresso: z.number().nullable().describe('faturamento / meta; null when unset or 0'),
});
export type RepRanking = z.infer<typeof ZRepRanking>;

export const ZSupervisorDashboard = z
  .object({
    codSupervisor: z.number().int().nullable().describe('The supervisor; null for the whole tenant'),
    mes: ZMes.describe('The month of the rankings (YYYY-MM, São Paulo)'),
    porFaturamento: z
      .array(ZRepRanking)
      .max(DASHBOARD_REPS_MAX)
      .describe(`The team's representatives by billing of the month, highest first (at most ${DASHBOARD_REPS_MAX})`),
    porPositivacao: z
      .array(ZRepRanking)
      .max(DASHBOARD_REPS_MAX)
      .describe(`The same representatives by positivation of the month, highest first`),
    positivacaoHoje: ZPositivacao.describe(
      `Distinct clients of the team positivated today against the daily target. ${POSITIVATION_DEFINITION}`,
    ),
  })
  .describe('The supervisor dashboard');
export type SupervisorDashboard = z.infer<typeof ZSupervisorDashboard>;

export const ZSupervisorCard = z
  .object({
    codSupervisor: z.number().int().describe('The supervisor'),
    nome: z.string().nullable().describe("The supervisor's name"),
    faturamento: money(`Team billing of the month. ${BILLING_DEFINITION}`),
    faturamentoMesAnterior: money('Team billing of the previous month'),
    variacaoPercent: z
      .number()
      .nullable()
      .describe(
        '(faturamento − faturamentoMesAnterior) / faturamentoMesAnterior × 100; null when the previous month is 0',
      ),
    meta: money("Sum of the team's monthly targets"),
    positivacao: z.number().int().describe('Distinct clients positivated by the team in the month'),
    representantes: z.number().int().describe('Representatives of the team'),
    representantesAtivos: z.number().int().describe(ACTIVE_REP_DEFINITION),
  })
  .describe('One card per supervisor; the team is the reps whose ERP supervisor is this one today');
export type SupervisorCard = z.infer<typeof ZSupervisorCard>;

export const ZSupervisorCards = z
  .object({
    mes: ZMes.describe('The month (YYYY-MM, São Paulo)'),
    itens: z
      .array(ZSupervisorCard)
      .max(DASHBOARD_SUPERVISORS_MAX)
      .describe(`At most ${DASHBOARD_SUPERVISORS_MAX}, by code`),
  })
  .describe('The team cards');
export type SupervisorCards = z.infer<typeof ZSupervisorCards>;

export const ZManagerDashboard = z
  .object({
    mes: ZMes.describe('The month (YYYY-MM, São Paulo)'),
    faturamento: money(`Tenant billing of the month. ${BILLING_DEFINITION}`),
    positivacao: z.number().int().describe('Distinct clients of the tenant positivated in the month'),
    pedidosPendentes: z.number().int().describe('Campo orders awaiting approval now (any month)'),
    positivacaoHoje: ZPositivacao,
    supervisores: z
      .array(ZSupervisorCard)
      .max(DASHBOARD_SUPERVISORS_MAX)
      .describe('Per-supervisor summaries, the same cards as GET /equipe/supervisores'),
  })
  .describe('The manager dashboard');
export type ManagerDashboard = z.infer<typeof ZManagerDashboard>;
