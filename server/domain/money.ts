import { Decimal } from 'decimal.js';

/**
 * Exact decimal values carried as strings (DESIGN §3: money and rates are never binary
 * floats). A format says how many digits a field holds, e.g. a price of up to 9 integer
 * digits and 3 decimals. Leading integer zeros and trailing fraction zeros do not count:
 * "0150.500" is the value 150.5, which fits 9 integer digits and 3 decimals.
 */
export interface DecimalFormat {
  integerDigits: number;
  fractionDigits: number;
  /** Negative values allowed (discounts, adjustments); default false. */
  signed?: boolean;
}

/** Prices of the masters (products, menus): up to 9 integer digits and 3 decimals, stored in thousandths. */
export const PRICE: DecimalFormat = { integerDigits: 9, fractionDigits: 3 };
export const PRICE_SCALE = 3;
/** Costs: up to 8 integer digits and 5 decimals, the cost scale of transactions (spec 2.13). */
export const COST: DecimalFormat = { integerDigits: 8, fractionDigits: 5 };
export const COST_SCALE = 5;

// Plain decimal notation only: no exponent, no '+', no leading or trailing dot, no spaces.
const SYNTAX = /^(-?)(\d+)(?:\.(\d+))?$/;

/** How the format reads in an error detail: "a decimal of up to 9 integer digits and 3 decimals". */
export function describeDecimal(format: DecimalFormat): string {
  const sign = format.signed ? 'a signed decimal' : 'a non-negative decimal';
  const fraction = format.fractionDigits === 0 ? 'no decimals' : `up to ${format.fractionDigits} decimals`;
  return `${sign} string of up to ${format.integerDigits} integer digits and ${fraction}`;
}

/** Null when `text` is a decimal that fits `format`; otherwise the reason, for a 400 detail. */
export function decimalError(text: string, format: DecimalFormat): string | null {
  const m = SYNTAX.exec(text);
  const expected = `must be ${describeDecimal(format)}`;
  if (!m) return expected;
  const [, sign, int, frac = ''] = m;
  const intDigits = int!.replace(/^0+/, '').length;
  const fracDigits = frac.replace(/0+$/, '').length;
  if (intDigits > format.integerDigits || fracDigits > format.fractionDigits) return expected;
  if (sign && !format.signed && !new Decimal(text).isZero()) return expected;
  return null;
}

/** The value of a decimal string that fits `format`; throws RangeError otherwise. */
export function parseDecimal(text: string, format: DecimalFormat): Decimal {
  const error = decimalError(text, format);
  if (error) throw new RangeError(`${JSON.stringify(text)} ${error}`);
  return new Decimal(text);
}

/** -1, 0 or 1 as a is less than, equal to or greater than b. */
export function compareDecimal(a: Decimal.Value, b: Decimal.Value): -1 | 0 | 1 {
  return new Decimal(a).comparedTo(b) as -1 | 0 | 1;
}

/**
 * Plain notation (never an exponent): with `fractionDigits` exactly that many decimals,
 * rounded half up; without, the shortest exact form ("150.5", "1500", "0").
 */
export function formatDecimal(value: Decimal.Value, fractionDigits?: number): string {
  const d = new Decimal(value);
  const text = fractionDigits === undefined ? d.toFixed() : d.toFixed(fractionDigits, Decimal.ROUND_HALF_UP);
  return text.startsWith('-') && /^-[0.]+$/.test(text) ? text.slice(1) : text; // no "-0"
}

/**
 * A decimal as an integer count of 10^-scale units, to store in an INTEGER column: exact,
 * sorts and sums as a number. Throws RangeError when the value has more than `scale`
 * decimals or the count is beyond 2^53.
 */
export function toUnits(value: Decimal.Value, scale: number): number {
  const units = new Decimal(value).times(new Decimal(10).pow(scale));
  if (!units.isInteger()) throw new RangeError(`${String(value)} has more than ${scale} decimals`);
  const n = units.toNumber();
  if (!Number.isSafeInteger(n)) throw new RangeError(`${String(value)} is too large to store`);
  return n;
}

/** The decimal string of a count of 10^-scale units, in the shortest exact form. */
export function fromUnits(units: number, scale: number): string {
  return formatDecimal(new Decimal(units).div(new Decimal(10).pow(scale)));
}

/** The exact sum of decimal values, in the shortest exact form ("0" for none). */
export function sumDecimals(values: readonly Decimal.Value[]): string {
  return formatDecimal(values.reduce<Decimal>((sum, v) => sum.plus(v), new Decimal(0)));
}
