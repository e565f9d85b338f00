// Brazilian number and date formats for the management screens.
import { businessDate } from '@campo/shared/dates';
import { formatBrl, formatDateTime, formatPercent } from '@campo/shared/format';

const numFmt = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2 });
const dateFmt = new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo' });

export const brl = (n: number | null | undefined) => (n === null || n === undefined ? '—' : formatBrl(n));
export const num = (n: number) => numFmt.format(n);
/**
 * A target as every screen says it: the amount, or "sem meta" when there is none (a zero
 * target is no target: "Meta R$ 0,00" reads as a goal already met).
 */
export const NO_TARGET = 'sem meta';
export const targetText = (n: number | null | undefined) =>
  n === null || n === undefined || n <= 0 ? NO_TARGET : brl(n);
export const pct = (n: number | null | undefined) => (n === null || n === undefined ? '—' : formatPercent(n));
export const dateTime = (iso: string) => formatDateTime(iso);
/** A YYYY-MM-DD business day as dd/mm/aaaa, without a time-zone shift. */
export function day(iso: string | null): string {
  if (!iso) return 'sem fim';
  const [y, m, d] = iso.slice(0, 10).split('-');
  return `${d}/${m}/${y}`;
}
export const date = (iso: string) => dateFmt.format(new Date(iso));

export const ORDER_STATUS_LABEL = {
  pending_approval: 'Aguardando aprovação',
  approved: 'Aprovado',
  invoiced: 'Faturado',
  rejected: 'Rejeitado',
  cancelled: 'Cancelado no ERP',
} as const;

export const FINANCIAL_LABEL = {
  ok: 'Em dia',
  overdue: 'Com títulos vencidos',
  blocked: 'Bloqueado',
} as const;

/** Today in São Paulo, YYYY-MM-DD: the business calendar the server decides with. */
export const today = (): string => businessDate();
