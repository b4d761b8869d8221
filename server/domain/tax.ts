import { Decimal } from 'decimal.js';

/**
 * Consumption tax rates by period (2.13 taxRate: "default from the tax setting valid at
 * terminalTranDateTime"). The periods are data (the contract's consumption_tax_rates and
 * reduce_tax_rates, server/masters/tax-rates): the caller reads them and passes them here, so a
 * rate change head office adds with a future start date applies to sales from that instant on
 * and to nothing before.
 */

/**
 * One period of a rate: in force from midnight Japan time of `from` (YYYY-MM-DD) until the next
 * period of its list starts, or until the end of its last day `until` when it has one. Japan's
 * consumption tax changes at midnight Japan time, whatever the contract's own zone.
 */
export interface TaxRatePeriod {
  from: string;
  until?: string | null;
  rate: Decimal.Value;
}

/** The standard rate's periods and the reduced rate's (those of the fixed reduced-rate setting). */
export interface TaxRates {
  standard: readonly TaxRatePeriod[];
  reduced: readonly TaxRatePeriod[];
}

const DAY_MS = 24 * 3600 * 1000;

/** The instant a period's day starts: midnight Japan time (UTC+9, no daylight saving). */
export const japanMidnight = (date: string): number => Date.parse(`${date}T00:00:00+09:00`);

/** The day (YYYY-MM-DD) an instant falls on in Japan. */
export const japanDate = (ms: number): string => new Date(ms + 9 * 3600 * 1000).toISOString().slice(0, 10);

/** The day before a YYYY-MM-DD day (the last day of a period the next one ends). */
export const dayBefore = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);

/** The period of `periods` in force at `ms` (the latest started one, if it has not ended), or undefined. */
export function periodAt<P extends TaxRatePeriod>(periods: readonly P[], ms: number): P | undefined {
  let found: P | undefined;
  for (const p of periods) {
    if (japanMidnight(p.from) <= ms && (found === undefined || p.from > found.from)) found = p;
  }
  if (found?.until && ms >= japanMidnight(found.until) + DAY_MS) return undefined;
  return found;
}

const NO_TAX = new Decimal(0);

/** The standard rate at an instant; 0 before the first period (before consumption tax). */
export function standardTaxRateAt(rates: TaxRates, ms: number): Decimal {
  const period = periodAt(rates.standard, ms);
  return period ? new Decimal(period.rate) : NO_TAX;
}

/** The reduced rate at an instant; where no reduced period is in force (before 2019-10-01), the standard rate. */
export function reducedTaxRateAt(rates: TaxRates, ms: number): Decimal {
  const period = periodAt(rates.reduced, ms);
  return period ? new Decimal(period.rate) : standardTaxRateAt(rates, ms);
}
