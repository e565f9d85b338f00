// Targets typed in reais the way people write them: "15.000", "15.000,00", "15000,5" or
// "15000.50"; shown back with the thousands separator ("15.000,00"), never as "15000,00".

const money2 = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** The amount typed; null when empty (no target); NaN when it is not an amount in reais. */
export function parseMoney(s: string): number | null {
  let t = s
    .trim()
    .replace(/^R\$\s*/, '')
    .replace(/\s/g, '');
  if (t === '') return null;
  if (t.includes(',')) {
    // A comma is the decimal mark: every dot before it groups thousands, three digits apiece.
    if (!/^\d{1,3}(\.\d{3})*,\d{1,2}$|^\d+,\d{1,2}$/.test(t)) return Number.NaN;
    t = t.replace(/\./g, '').replace(',', '.');
  } else if (/^\d{1,3}(\.\d{3})+$/.test(t)) {
    // "15.000": dots grouping thousands, no cents.
    t = t.replace(/\./g, '');
  }
  return /^\d+(\.\d{1,2})?$/.test(t) ? Number(t) : Number.NaN;
}

/** An amount as the field shows it: "15.000,00"; empty for no target. */
export const show = (v: number | null) => (v === null ? '' : money2.format(v));
