// The amount a manager types to adjust a representative's flex balance.
import { hasAtMostPlaces, MONEY_SCALE } from '@campo/shared/money';

/** A signed amount typed the Brazilian way ("-1.234,56", "150,5") or with a dot; NaN otherwise. */
export function parsedAmount(s: string): number {
  const t = s.trim().replace(/\s/g, '').replace('−', '-');
  if (!/^[+-]?\d[\d.,]*$/.test(t)) return Number.NaN;
  return Number(t.includes(',') ? t.replace(/\./g, '').replace(',', '.') : t);
}

/** The adjustment typed, or null when it is not an amount other than zero with at most two decimals. */
export function adjustmentAmount(text: string): number | null {
  const v = parsedAmount(text);
  return v === 0 || !hasAtMostPlaces(v, MONEY_SCALE) ? null : v;
}
