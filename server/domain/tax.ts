import { Decimal } from 'decimal.js';

/**
 * The standard consumption tax rate valid at an instant (2.13 taxRate: "default from the tax
 * setting valid at terminalTranDateTime"). Japan's history, each change effective at midnight
 * Japan time; newest first so the usual lookup stops at the first entry.
 */
const STANDARD_RATES: readonly { from: number; rate: Decimal }[] = [
  { from: Date.parse('2019-10-01T00:00:00+09:00'), rate: new Decimal(10) },
  { from: Date.parse('2014-04-01T00:00:00+09:00'), rate: new Decimal(8) },
  { from: Date.parse('1997-04-01T00:00:00+09:00'), rate: new Decimal(5) },
  { from: Date.parse('1989-04-01T00:00:00+09:00'), rate: new Decimal(3) },
];

const NO_TAX = new Decimal(0);

export function standardTaxRateAt(ms: number): Decimal {
  for (const { from, rate } of STANDARD_RATES) if (ms >= from) return rate;
  return NO_TAX;
}

/** Japan's reduced rate (8 %) took effect with the 10 % standard rate, at midnight Japan time. */
const REDUCED_FROM = Date.parse('2019-10-01T00:00:00+09:00');
const REDUCED_RATE = new Decimal(8);

/** The reduced consumption tax rate at an instant: 8 from 2019-10-01 (Japan time), before that the standard rate. */
export function reducedTaxRateAt(ms: number): Decimal {
  return ms >= REDUCED_FROM ? REDUCED_RATE : standardTaxRateAt(ms);
}
