import { Decimal } from 'decimal.js';
import { formatDecimal } from './money.js';
import type { HeaderTotals, LineTotals, TransactionTotals } from './transaction-totals-types.js';

/** The header fields a terminal may send and the server checks, in the order checked. */
export const SENT_HEADER_FIELDS = [
  'unitNonDiscountsubtotal',
  'unitDiscountsubtotal',
  'unitStaffDiscountsubtotal',
  'unitBargainDiscountsubtotal',
  'subtotal',
  'subtotalForDiscount',
  'total',
  'taxInclude',
  'taxExclude',
  'roundingPrice',
  'amount',
  'returnAmount',
  'costTotal',
  'salesHeadDivision',
  'inTaxSalesTotal',
  'outTaxSalesTotal',
  'nonTaxSalesTotal',
  'nonSalesTargetTotal',
  'nonSalesTargetInTaxTotal',
  'nonSalesTargetOutTaxTotal',
  'nonSalesTargetTaxFreeTotal',
  'nonSalesTargetCostTotal',
  'nonSalesTargetAmount',
  'nonSalesTargetReturnAmount',
  'newPoint',
  'point',
  'totalPoint',
  'currentMile',
  'earnMile',
  'totalMile',
] as const satisfies readonly (keyof HeaderTotals)[];

/** The line fields a terminal may send and the server checks, in the order checked. */
export const SENT_LINE_FIELDS = [
  'unitNonDiscountSum',
  'unitDiscountSum',
  'unitDiscountedSum',
  'costSum',
  'discountPriceProportional',
  'discountPointProportional',
  'discountCouponProportional',
  'taxIncludeProportional',
  'taxExcludeProportional',
  'productBundleProportional',
  'staffDiscountProportional',
  'bargainDiscountProportional',
  'roundingPriceProportional',
] as const satisfies readonly (keyof LineTotals)[];

export interface SentTotals {
  header: Record<string, string | null | undefined>;
  /** In the order of the computed lines (the order sent). */
  lines: Record<string, string | null | undefined>[];
}

export interface TotalsMismatch {
  /** "total", or "details[1].costSum" (index as sent). */
  field: string;
  sent: string;
  computed: string;
}

/**
 * The first computed field the terminal also sent with another value (header first, then the
 * lines in order), or null. Values compare as decimals ("1000.000" == "1000"); salesHeadDivision
 * as text. A field not sent (undefined or null) is not checked; a null computed value (miles of
 * a non-member sale) matches only a field not sent. A sent text that is not a plain decimal is
 * a mismatch.
 */
export function compareSentTotals(sent: SentTotals, computed: TransactionTotals): TotalsMismatch | null {
  for (const field of SENT_HEADER_FIELDS) {
    const mismatch = compareField(field, sent.header[field], computed.header[field]);
    if (mismatch) return mismatch;
  }
  const n = Math.min(sent.lines.length, computed.lines.length);
  for (let i = 0; i < n; i++) {
    const line = sent.lines[i]!;
    const totals = computed.lines[i]!;
    for (const field of SENT_LINE_FIELDS) {
      const mismatch = compareField(`details[${i}].${field}`, line[field], totals[field]);
      if (mismatch) return mismatch;
    }
  }
  return null;
}

const PLAIN_DECIMAL = /^-?\d+(?:\.\d+)?$/;

function compareField(field: string, sent: string | null | undefined, computed: Decimal | string | null): TotalsMismatch | null {
  if (sent === undefined || sent === null) return null;
  if (computed === null) return { field, sent, computed: 'null' };
  if (typeof computed === 'string') return sent === computed ? null : { field, sent, computed };
  const text = output(computed);
  if (sent === text || (PLAIN_DECIMAL.test(sent) && computed.eq(new Decimal(sent)))) return null;
  return { field, sent, computed: text };
}

/** formatDecimal, with the zeros (most fields of a sale) answered at once. */
function output(value: Decimal): string {
  return value.isZero() ? '0' : formatDecimal(value);
}

/** A Decimal field as its output string, a null staying null. */
type Formatted<T> = {
  [K in keyof T]: T[K] extends Decimal ? string : T[K] extends Decimal | null ? string | null : T[K];
};
export type FormattedHeaderTotals = Formatted<HeaderTotals>;
export type FormattedLineTotals = Formatted<LineTotals>;

/** The totals as output strings in shortest exact form ("1000", "-50", "12.5"; never "-0"). */
export function formatTotals(t: TransactionTotals): { header: FormattedHeaderTotals; lines: FormattedLineTotals[] } {
  return { header: formatRecord(t.header) as FormattedHeaderTotals, lines: t.lines.map((l) => formatRecord(l) as FormattedLineTotals) };
}

function formatRecord(record: object): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(record) as [string, Decimal | string | null][]) {
    out[key] = value === null || typeof value === 'string' ? value : output(value);
  }
  return out;
}
