// Display and input masks for the portfolio and catalog screens. Masks are applied as the
// person types and stripped again by ZNewClient, so what is stored and sent is the bare
// number the ERP keeps; the shared validators stay the only judges of a valid document.

import { formatCnpj, formatCpf, normalizeDocument } from '@campo/shared/documents';
import { formatBrl, formatPercent } from '@campo/shared/format';

const day = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short' });

export function formatMoney(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : formatBrl(value);
}

/** ISO timestamp or YYYY-MM-DD to dd/mm/aaaa; a date-only value is not shifted by time zone. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (dateOnly) return `${dateOnly[3]}/${dateOnly[2]}/${dateOnly[1]}`;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : day.format(d);
}

export { formatPercent };

/** A stored CPF/CNPJ as people read it. */
export function formatDocument(doc: string | null | undefined): string {
  if (!doc) return '—';
  return doc.length === 11 ? formatCpf(doc) : doc.length === 14 ? formatCnpj(doc) : doc;
}

/** Groups `chars` by the mask's '#' slots, stopping where the typed text ends. */
function applyMask(chars: string, mask: string): string {
  let out = '';
  let i = 0;
  for (const m of mask) {
    if (i >= chars.length) break;
    if (m === '#') out += chars[i++];
    else out += m;
  }
  return out;
}

/**
 * CPF while it fits one (11 digits), CNPJ beyond; letters make it an alphanumeric CNPJ
 * (issued from July 2026), whose last two characters are still digits.
 */
export function maskDocument(value: string): string {
  const bare = normalizeDocument(value)
    .replace(/[^0-9A-Z]/g, '')
    .slice(0, 14);
  if (bare.length <= 11 && /^\d*$/.test(bare)) return applyMask(bare, '###.###.###-##');
  return applyMask(bare, '##.###.###/####-##');
}

export function maskCep(value: string): string {
  return applyMask(value.replace(/\D/g, '').slice(0, 8), '#####-###');
}

/** (11) 3456-7890 for landlines, (11) 93456-7890 for mobiles. */
export function maskPhone(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 11);
  return applyMask(digits, digits.length > 10 ? '(##) #####-####' : '(##) ####-####');
}

/** The RxDB $regex of one folded search word, matched anywhere in a `busca` key. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
