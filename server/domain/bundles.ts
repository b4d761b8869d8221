import { InvalidInput } from './errors.js';
import { PRICE_SCALE, toUnits } from './money.js';

/**
 * What a bundle does with the items it groups: the platform's bundle `type`, which spec 2.13's
 * product bundle groups call `division` (one record, two views):
 * 1 bundle sale: every `quantity` items sell for `value` in total (e.g. 3 for 1000);
 * 2 bundle sale: every `quantity` items take `value` off their sum;
 * 3 bundle sale: every `quantity` items take `value` percent off;
 * 4 set sale: the set of its targets sells for `value`.
 */
export const BUNDLE_TYPES = ['1', '2', '3', '4'] as const;
export type BundleType = (typeof BUNDLE_TYPES)[number];

export const BUNDLE_TYPE_MEANING =
  '1 bundle sale for a price: every `quantity` items sell for `value` in total; 2 bundle sale, amount off: every `quantity` items take `value` off their sum; ' +
  '3 bundle sale, rate off: every `quantity` items take `value` percent off; 4 set sale for a price: the set sells for `value`';

/** A rate off is a percent of the items' sum: at most all of it. */
const HUNDRED_PERCENT = toUnits('100', PRICE_SCALE);

/** The value a bundle of `type` may carry (thousandths, PRICE scale); `typeField` is how the view names the type. */
export function assertBundleValue(type: BundleType, valueUnits: number, typeField: 'type' | 'division'): void {
  if (type === '3' && valueUnits > HUNDRED_PERCENT) throw InvalidInput.field('value', `must be at most 100 (percent) when ${typeField} is 3`);
}

/**
 * A bundle's days (YYYY-MM-DD strings compare as dates; both ends are days of the sale, so
 * equal dates are one day). `names` are the view's field names; the detail names the end the
 * client sent (the end when both were sent).
 */
export function assertBundleDays(first: string | null, last: string | null, names: { first: string; last: string }, sent: 'first' | 'last'): void {
  if (first === null || last === null || last >= first) return;
  throw sent === 'last'
    ? InvalidInput.field(names.last, `${last} is before the start date ${first}`)
    : InvalidInput.field(names.first, `${first} is after the end date ${last}`);
}
