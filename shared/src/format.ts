// pt-BR display formats shared by the app's screens and the server's own texts (push
// notifications), so an amount reads the same wherever a person sees it.

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/** An amount in reais: "R$ 1.234,50" (Intl puts a no-break space after the symbol). */
export const formatBrl = (value: number): string => brl.format(value);

const upTo2 = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2 });

/** A percentage as people write it: "12,5%", at most two decimals. */
export const formatPercent = (value: number): string => `${upTo2.format(value)}%`;

// São Paulo's clock, the server's business calendar (dates.ts), whatever the device's zone.
const dateTime = new Intl.DateTimeFormat('pt-BR', {
  dateStyle: 'short',
  timeStyle: 'short',
  timeZone: 'America/Sao_Paulo',
});

/** An instant as "dd/mm/aaaa hh:mm" in São Paulo; '' when absent or not a date. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : dateTime.format(d);
}

const monthYear = new Intl.DateTimeFormat('pt-BR', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** A month written YYYY-MM as "março de 2026"; the text itself when it is not one. */
export function formatMonth(mes: string): string {
  const [y, m] = mes.split('-').map(Number);
  if (!y || !m) return mes;
  return monthYear.format(new Date(Date.UTC(y, m - 1, 1)));
}
