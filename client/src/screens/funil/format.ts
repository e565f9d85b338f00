// Display and input helpers of the funnel: money typed the Brazilian way ("1.500,00") and
// stage names as the sales team says them.

import type { FunnelStage } from '@campo/shared';
import { formatBrl } from '@campo/shared/format';
import { round2 } from '@campo/shared/money';

export const STAGE_LABELS: Record<FunnelStage, string> = {
  lead: 'Lead',
  proposta: 'Proposta',
  negociacao: 'Negociação',
  ganho: 'Ganho',
  perdido: 'Perdido',
};

export function formatMoney(v: number): string {
  return formatBrl(v);
}

/** A day kept as YYYY-MM-DD, shown as dd/mm/aaaa without going through a time zone. */
export function formatDay(day: string): string {
  const [y, m, d] = day.split('-');
  return y && m && d ? `${d}/${m}/${y}` : day;
}

/**
 * Reads a value typed in reais: "1.500,00", "1500,5", "1500.50" or "R$ 1.500". Empty is null;
 * anything else that is not a number is an error the form shows.
 */
export function parseMoney(text: string): { ok: true; value: number | null } | { ok: false } {
  let t = text.replace(/R\$/i, '').replace(/\s/g, '');
  if (t === '') return { ok: true, value: null };
  if (t.includes(',')) t = t.replace(/\./g, '').replace(',', '.');
  else if ((t.match(/\./g) ?? []).length > 1 || /^\d{1,3}(\.\d{3})+$/.test(t)) t = t.replace(/\./g, '');
  if (!/^\d+(\.\d+)?$/.test(t)) return { ok: false };
  return { ok: true, value: round2(Number(t)) };
}

const money2 = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** The value as the form shows it for editing, the Brazilian way: "1.500,50". */
export function moneyInput(v: number | null): string {
  return v === null ? '' : money2.format(v);
}
