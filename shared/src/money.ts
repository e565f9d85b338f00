// Money, exactly (docs/money.md). Every amount Campo computes is a decimal held as an integer
// of its smallest unit, as the ERP's numeric columns hold it: prices in ten-thousandths of a
// real (numeric(14,4)), amounts in centavos (numeric(14,2)), quantities in thousandths of the
// product's unit (numeric(14,3)) and percents in hundredths of a percent (numeric(5,2)).
// Products are taken in BigInt (a price times a quantity passes 2^53), and every result is
// rounded once, where the rule says, half away from zero: what PostgreSQL's round(numeric)
// and its numeric(p,s) columns do, so the cart, the server, SQL and the ERP's triggers reach
// the same digits. Binary floating point never decides a digit: R$ 25,89 with a 2,5 %
// acréscimo is 26,537250, which is 26,5373 here and 26,5372 in doubles.
//
// The API and the phone keep plain JSON numbers: a value enters through toUnits (from the
// number's own shortest decimal form, 25.89 -> "25.89", never from its binary expansion) and
// leaves through fromUnits, so 26.5373 is the double nearest 26,5373 and prints as such.

/** The scales of the ERP's columns: decimals after the point. */
export const PRICE_SCALE = 4;
export const MONEY_SCALE = 2;
export const QUANTITY_SCALE = 3;
export const PERCENT_SCALE = 2;

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;
const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** n / d rounded half away from zero (d > 0): PostgreSQL's round() on numeric. */
export function divRound(n: bigint, d: bigint): bigint {
  if (d <= 0n) throw new RangeError('divRound: the divisor must be positive');
  const q = n / d;
  const r = n % d;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice < d) return q;
  return n < 0n ? q - 1n : q + 1n;
}

/**
 * A decimal as an integer of 10^-scale: toUnits(25.89, 4) is 258900n. A number is read from
 * its shortest decimal form (what String() prints), a string as written ('26.5373', what
 * PostgreSQL sends for numeric); digits past the scale are rounded half away from zero.
 */
export function toUnits(value: number | string | bigint, scale: number): bigint {
  if (typeof value === 'bigint') return value * pow10(scale);
  if (typeof value === 'number' && !Number.isFinite(value)) throw new RangeError(`not an amount: ${value}`);
  const m = DECIMAL.exec(String(value).trim());
  const whole = m?.[2] ?? '';
  const fraction = m?.[3] ?? '';
  if (!m || whole.length + fraction.length === 0) throw new RangeError(`not an amount: ${String(value)}`);
  const digits = BigInt(whole + fraction || '0');
  const shift = Number(m[4] ?? 0) - fraction.length + scale;
  const units = shift >= 0 ? digits * pow10(shift) : divRound(digits, pow10(-shift));
  return m[1] === '-' ? -units : units;
}

/** The number an integer of 10^-scale stands for: fromUnits(265373n, 4) is 26.5373. */
export function fromUnits(units: bigint, scale: number): number {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const point = digits.length - scale;
  const text = scale === 0 ? digits : `${digits.slice(0, point)}.${digits.slice(point)}`;
  const n = Number(text);
  return negative && n !== 0 ? -n : n;
}

/** A decimal rounded half away from zero to `scale` places, exactly (not through binary). */
export function roundDecimal(value: number, scale: number): number {
  return fromUnits(toUnits(value, scale), scale);
}

/** Whether a number has at most `places` decimals, by its digits: 0.29 has two (0.29 × 100 is 28.999…96). */
export function hasAtMostPlaces(value: number, places: number): boolean {
  return Number.isFinite(value) && roundDecimal(value, places) === value;
}

/** An amount in reais rounded to centavos, half away from zero. */
export const round2 = (value: number): number => roundDecimal(value, MONEY_SCALE);
/** A unit price rounded to the ERP's four decimals, half away from zero. */
export const round4 = (value: number): number => roundDecimal(value, PRICE_SCALE);

/** Centavos of an amount: the integer the sums below add. */
export const cents = (value: number | string): bigint => toUnits(value, MONEY_SCALE);
/** The amount in reais of a count of centavos. */
export const fromCents = (units: bigint): number => fromUnits(units, MONEY_SCALE);

/** Amounts added in centavos: sumMoney([0.1, 0.2]) is 0.3. */
export function sumMoney(values: Iterable<number>): number {
  let total = 0n;
  for (const v of values) total += cents(v);
  return fromCents(total);
}

/** a − b − c …, in centavos. */
export function subtractMoney(from: number, ...values: number[]): number {
  return fromCents(values.reduce((acc, v) => acc - cents(v), cents(from)));
}

/** `percent` % of an amount, rounded to centavos half away from zero: 2,5 % of R$ 0,10 is R$ 0,01 (0,0025 up). */
export function percentOfMoney(amount: number, percent: number): number {
  const hundredthsOfPercent = toUnits(percent, PERCENT_SCALE);
  return fromCents(divRound(cents(amount) * hundredthsOfPercent, 100n * pow10(PERCENT_SCALE)));
}

// ---------------------------------------------------------------------------------------
// The order's rule, in the units above. The SQL beside it is written in docs/money.md.

const PERCENT_WHOLE = 100n * pow10(PERCENT_SCALE);
/** A price (10^-4) times a quantity (10^-3) is in 10^-7: this many units make a centavo. */
const PRICE_BY_QUANTITY_PER_CENT = pow10(PRICE_SCALE + QUANTITY_SCALE - MONEY_SCALE);

/**
 * The sold unit price: the list price less the discount (an acréscimo when negative), to four
 * decimals. SQL: round(preco_tabela * (100 - perc_desconto) / 100, 4).
 */
export function priceUnits(listPrice: number, discountPercent: number): bigint {
  const list = toUnits(listPrice, PRICE_SCALE);
  return divRound(list * (PERCENT_WHOLE - toUnits(discountPercent, PERCENT_SCALE)), PERCENT_WHOLE);
}

/** A unit price (in 10^-4) times a quantity, in centavos. SQL: round(preco * quantidade, 2). */
export function amountCents(priceUnits: bigint, quantity: number): bigint {
  return divRound(priceUnits * toUnits(quantity, QUANTITY_SCALE), PRICE_BY_QUANTITY_PER_CENT);
}
