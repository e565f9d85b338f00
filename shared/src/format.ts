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

const whole = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2 });

/**
 * The word a count takes in Brazilian Portuguese: the singular for exactly one, the plural
 * otherwise, zero included ("0 itens", "nenhum item" being the other way to say it).
 * Intl.PluralRules('pt-BR') files 0 under "one" (CLDR's rule for Portuguese), which would
 * print "0 item"; Brazilian usage writes the plural after zero, so the rule is written here.
 */
export function pluralWord(n: number, one: string, many: string): string {
  return Math.abs(n) === 1 ? one : many;
}

/**
 * A count and its noun: "1 item", "2 itens", "1.234 clientes". The one way every screen and
 * every server message writes a count (never "item(s)", never "1 clientes").
 */
export function plural(n: number, one: string, many: string): string {
  return `${whole.format(n)} ${pluralWord(n, one, many)}`;
}

/**
 * How a client is named wherever a person reads it: the trade name (nome fantasia, what the
 * counter and the rep call the shop) first, the legal name (razão social) when there is no
 * trade name. The legal name stays beside the tax id where a document needs it.
 */
export function clientDisplayName(c: { tradeName?: string | null; name?: string | null }): string {
  const trade = c.tradeName?.trim();
  return trade || c.name?.trim() || '';
}

/** 24260761 -> 24260-761; anything that is not 8 digits comes back as given. */
export function formatCep(value: string | null | undefined): string {
  if (!value) return '';
  const digits = value.replace(/\D/g, '');
  return digits.length === 8 ? `${digits.slice(0, 5)}-${digits.slice(5)}` : value;
}

/**
 * An address as people read it: the CEP masked ("CEP 24260-761"), whatever the ERP stored
 * ("CEP 24260761"); the rest as given.
 */
export function formatAddress(text: string | null | undefined): string {
  if (!text) return '';
  return text.replace(/\bCEP:?\s*(\d{5})-?(\d{3})\b/g, 'CEP $1-$2');
}
