import { Decimal } from 'decimal.js';
import type { RoundingCode } from './transaction-totals-types.js';

/**
 * The one rounding module (issue 4, "Transaction totals"): every rounding of money, tax, points
 * and proportional shares goes through here. All of it is exact: quotients are rounded from
 * their exact BigInt remainder, never from a truncated expansion, and the values handed out are
 * of `Exact`, a decimal.js constructor with 64 significant digits (the global default of 20
 * could round a product such as price × quantity of a large sale).
 */
export const Exact = Decimal.clone({ precision: 64 });
/** 0 as an Exact value (decimal.js values are immutable: share it). */
export const ZERO = new Exact(0);

/** `value` as a decimal whose arithmetic keeps 64 significant digits (itself when it is one). */
export function exact(value: Decimal.Value): Decimal {
  if (value instanceof Decimal) return value.constructor === Exact ? value : value.isZero() ? ZERO : new Exact(value);
  return new Exact(value);
}

// a + b, a − b, a × b on Exact values, skipping the work when an operand is 0 (most are: a sale
// rarely has every kind of discount; the totals are computed on every request).
export function add(a: Decimal, b: Decimal): Decimal {
  return b.isZero() ? a : a.isZero() ? exact(b) : a.plus(b);
}
export function sub(a: Decimal, b: Decimal): Decimal {
  return b.isZero() ? a : a.isZero() ? exact(b).neg() : a.minus(b);
}
export function mul(a: Decimal, b: Decimal): Decimal {
  return a.isZero() || b.isZero() ? ZERO : exact(a).times(b);
}

/**
 * halfUp, down and up act on the magnitude (symmetric around zero: -2.5 half up is -3, down is
 * toward zero, up is away from zero); bankers is half-even.
 */
export type RoundingMode = 'halfUp' | 'down' | 'up' | 'bankers';

const ONE = new Exact(1);

// The arithmetic of rounding is done on BigInt counts of 10^-scale units: exact at any size,
// and some twenty times faster than decimal.js (a sale is computed on every request).

/** 10^n as a BigInt (n ≥ 0). */
function pow10n(n: number): bigint {
  return POWERS[n] ?? 10n ** BigInt(n);
}
const POWERS = Array.from({ length: 24 }, (_, n) => 10n ** BigInt(n));

/** `x` as a count of 10^-scale units; `scale` must be at least x's number of decimals. */
function scaledInt(x: Decimal, scale: number): bigint {
  return BigInt(x.toFixed(scale).replace('.', ''));
}

/** The decimal of `n` units of 10^-scale. */
function fromScaledInt(n: bigint, scale: number): Decimal {
  if (n === 0n) return ZERO;
  if (scale === 0 && n < 10_000_000n && n > -10_000_000n) return new Exact(Number(n)); // decimal.js's fast path
  if (scale <= 0) return new Exact((scale === 0 ? n : n * pow10n(-scale)).toString());
  const negative = n < 0n;
  const digits = (negative ? -n : n).toString().padStart(scale + 1, '0');
  const text = `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return new Exact(negative ? `-${text}` : text);
}

/** num / den rounded to an integer in `mode` (den ≠ 0). */
function divRound(num: bigint, den: bigint, mode: RoundingMode): bigint {
  const q = num / den; // truncated toward zero
  const rem = num - q * den;
  if (rem === 0n || mode === 'down') return q;
  const away = num < 0n !== den < 0n ? q - 1n : q + 1n;
  if (mode === 'up') return away;
  const twice = rem < 0n ? -2n * rem : 2n * rem;
  const half = den < 0n ? -den : den;
  if (twice > half || (twice === half && (mode === 'halfUp' || (q & 1n) !== 0n))) return away;
  return q;
}

/**
 * num / den rounded to `scale` decimals (a negative scale rounds to a multiple of 10^-scale:
 * -1 tens, -2 hundreds). Exact. Throws RangeError when den is 0.
 */
export function roundQuotient(num: Decimal.Value, den: Decimal.Value, scale: number, mode: RoundingMode): Decimal {
  const n = exact(num);
  const d = exact(den);
  if (d.isZero()) throw new RangeError('division by zero');
  if (n.isZero()) return ZERO;
  const k = Math.max(n.decimalPlaces(), d.decimalPlaces());
  const up = Math.max(scale, 0);
  const down = Math.max(-scale, 0);
  const q = divRound(scaledInt(n, k) * pow10n(up), scaledInt(d, k) * pow10n(down), mode);
  return fromScaledInt(q, scale);
}

/** `value` rounded to `scale` decimals (negative: to a multiple of 10^-scale) in `mode`. */
export function roundAt(value: Decimal.Value, scale: number, mode: RoundingMode): Decimal {
  return roundQuotient(value, ONE, scale, mode);
}

const MODE_OF_CODE: Record<RoundingCode, RoundingMode> = { '0': 'halfUp', '1': 'down', '2': 'up' };

/** taxRounding / discountRoundingDivision codes: 0 half up, 1 down, 2 up. */
export function roundingModeOfCode(code: RoundingCode): RoundingMode {
  const mode = MODE_OF_CODE[code];
  if (!mode) throw new RangeError(`unknown rounding code ${JSON.stringify(code)}`);
  return mode;
}

/** The model's name for roundingModeOfCode. */
export const taxRoundingMode = roundingModeOfCode;

/**
 * The rounding amount of a total for roundingDivision '00' (none) and '11'..'43': the tens digit
 * of the code is the place rounded (1 ones → a multiple of 10, 2 tens → 100, 3 → 1000,
 * 4 → 10000), the ones digit the mode (1 half up, 2 down, 3 up). Returns
 * rounded − preRounding. '99' (manual) and unknown codes throw RangeError.
 */
export function roundTotal(preRounding: Decimal.Value, roundingDivision: string): Decimal {
  if (roundingDivision === '00') return ZERO;
  const m = /^([1-4])([1-3])$/.exec(roundingDivision);
  if (!m) throw new RangeError(`roundingDivision ${JSON.stringify(roundingDivision)} is not computed`);
  const mode: RoundingMode = m[2] === '1' ? 'halfUp' : m[2] === '2' ? 'down' : 'up';
  const value = exact(preRounding);
  return roundAt(value, -Number(m[1]), mode).minus(value);
}

/** An amount cannot be allocated: its weights sum to 0. */
export class AllocationError extends Error {
  constructor(readonly amount: Decimal) {
    super(`${amount.toFixed()} cannot be allocated: the weights sum to 0`);
    this.name = 'AllocationError';
  }
}

export interface AllocateOptions {
  /** Decimals of a share (0 = whole yen). */
  scale: number;
  /** Where amount − Σ rounded shares goes: the last non-zero-weight line, or one unit at a time
   * to the lines with the largest rounding error first (ties: the earlier line). */
  adjust: 'last' | 'largestRemainder';
}

/**
 * Splits `amount` over lines in proportion to `weights` (which may be negative): each share is
 * amount × w / Σw with banker's rounding at `scale`, then the difference is adjusted so that
 * Σ shares == amount exactly. Zero-weight lines get 0. amount 0 gives all zeros; Σw == 0 with
 * a non-zero amount throws AllocationError.
 * With 'largestRemainder', a remaining fraction smaller than one unit (an amount finer than
 * `scale`) goes to the line next in that order.
 */
export function allocate(amount: Decimal.Value, weights: readonly Decimal.Value[], opts: AllocateOptions): Decimal[] {
  const a = exact(amount);
  const n = weights.length;
  const shares: Decimal[] = new Array<Decimal>(n).fill(ZERO);
  if (a.isZero()) return shares;
  const w = weights.map(exact);
  const ws = w.reduce((m, x) => Math.max(m, x.decimalPlaces()), 0);
  const W = w.map((x) => (x.isZero() ? 0n : scaledInt(x, ws)));
  const total = W.reduce((s, x) => s + x, 0n);
  if (total === 0n) throw new AllocationError(a);
  // share_i = a·w_i/Σw = A·W_i / (T·10^ad) in 10^-scale units, with A = a·10^ad, T = Σw·10^ws.
  const ad = a.decimalPlaces();
  const A = scaledInt(a, ad);
  const { scale } = opts;
  const den = total * pow10n(ad + Math.max(-scale, 0));
  const up = pow10n(Math.max(scale, 0));
  // Shares are kept in units of 10^-fine, fine enough for the amount and the scale.
  const fine = Math.max(ad, scale);
  const toFine = pow10n(fine - scale);
  const S: bigint[] = new Array<bigint>(n).fill(0n);
  const num: bigint[] = new Array<bigint>(n).fill(0n);
  let sum = 0n;
  let last = -1;
  for (let i = 0; i < n; i++) {
    if (W[i] === 0n) continue;
    num[i] = A * W[i]! * up;
    S[i] = divRound(num[i]!, den, 'bankers') * toFine;
    sum += S[i]!;
    last = i;
  }
  let diff = A * pow10n(fine - ad) - sum;
  if (diff !== 0n && opts.adjust === 'last') S[last] = S[last]! + diff;
  else if (diff !== 0n) {
    // Rounding error of line i in units: (num_i − R_i·den) / den; orient it so that the largest
    // key is the line most below its exact share (units added) or most above (units removed).
    const flip = diff < 0n !== den < 0n;
    const order: { i: number; key: bigint }[] = [];
    for (let i = 0; i < n; i++) {
      if (W[i] === 0n) continue;
      const key = num[i]! - (S[i]! / toFine) * den;
      order.push({ i, key: flip ? -key : key });
    }
    order.sort((x, y) => (x.key === y.key ? x.i - y.i : x.key > y.key ? -1 : 1));
    const unit = diff < 0n ? -toFine : toFine;
    for (let k = 0; diff !== 0n; k = (k + 1) % order.length) {
      const step = (diff < 0n ? -diff : diff) < toFine ? diff : unit;
      S[order[k]!.i] = S[order[k]!.i]! + step;
      diff -= step;
    }
  }
  for (let i = 0; i < n; i++) if (S[i] !== 0n) shares[i] = fromScaledInt(S[i]!, fine);
  return shares;
}
