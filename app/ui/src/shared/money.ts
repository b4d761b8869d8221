/**
 * Exact sums of the API's decimal strings ("4840", "-300", "12.5"): BigInt millionths, so a
 * day's figures add up to the yen the server reports (no float drift). Digits past the sixth
 * decimal are dropped: the API's money has at most three.
 */
const SCALE = 6;
const ONE = 10n ** BigInt(SCALE);

export type Units = bigint;

export function toUnits(value: string | number | null | undefined): Units {
  if (value === null || value === undefined || value === '') return 0n;
  const m = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(String(value).trim());
  if (!m) return 0n;
  const units = BigInt(m[2]!) * ONE + BigInt((m[3] ?? '').padEnd(SCALE, '0').slice(0, SCALE) || '0');
  return m[1] === '-' ? -units : units;
}

/** The shortest decimal string: 4840, -300, 12.5. */
export function fromUnits(units: Units): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const fraction = (abs % ONE).toString().padStart(SCALE, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${abs / ONE}${fraction ? `.${fraction}` : ''}`;
}

export const sumUnits = (values: Iterable<Units>): Units => {
  let total = 0n;
  for (const v of values) total += v;
  return total;
};

/** count × face value in yen, as units (a cash count row). */
export const yenUnits = (yen: number, count = 1): Units => BigInt(yen) * BigInt(count) * ONE;
