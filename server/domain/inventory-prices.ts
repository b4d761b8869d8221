import type { Decimal } from 'decimal.js';
import type { DecimalFormat } from './money.js';
import { formatDecimal } from './money.js';
import { exact, roundAt, roundingModeOfCode } from './rounding.js';
import { reducedTaxRateAt, standardTaxRateAt, type TaxRates } from './tax.js';
import type { RoundingCode } from './transaction-totals-types.js';

/**
 * The tax rates, costs and prices shipments (2.9) and purchase orders (2.10) take from the
 * product master when a body leaves them out, and how they read back.
 */

/** A tax rate: up to 3 decimals (2.9, 2.10), at most 100 (the platform's bound). */
export const TAX_RATE: DecimalFormat = { integerDigits: 3, fractionDigits: 3 };
export const MAX_TAX_RATE = 100;

/** A cost (tax excluded): the platform's range, ±9999999999.99999. */
export const INVENTORY_COST: DecimalFormat = { integerDigits: 10, fractionDigits: 5, signed: true };

/** reduceTaxId 10000002 is "selectable, standard rate": the standard rate applies. */
const STANDARD_SELECTABLE = '10000002';

/**
 * The tax rate in force for a product at an instant (the default of a line's taxRate, "the tax
 * rate at registration / update time"), of the contract's rate periods: the reduced rate for a
 * product filed under a reduced rate (any reduceTaxId but 10000002), else the standard rate.
 */
export function productTaxRateAt(rates: TaxRates, reduceTaxId: string | null, at: number): Decimal {
  return exact(reduceTaxId !== null && reduceTaxId !== STANDARD_SELECTABLE ? reducedTaxRateAt(rates, at) : standardTaxRateAt(rates, at));
}

/**
 * 2.9 price: the product's unit price with tax included. A tax-excluded product (taxDivision 1)
 * adds its tax at `taxRate`, rounded to the yen by the record's roundingDivision; a
 * tax-included (0) or non-taxable (2) price is taken as it is.
 */
export function taxIncludedPrice(price: Decimal.Value, taxDivision: string, taxRate: Decimal.Value, rounding: RoundingCode): Decimal {
  const p = exact(price);
  if (taxDivision !== '1') return p;
  return roundAt(p.times(exact(taxRate).plus(100)).div(100), 0, roundingModeOfCode(rounding));
}

/** Tax rates read back with 3 decimals ("10.000"), as the platform shows them. */
export const formatTaxRate = (rate: Decimal.Value) => formatDecimal(rate, 3);
/** Costs read back with 5 decimals ("100.00000", spec 2.9 and 2.10). */
export const formatCost = (cost: Decimal.Value) => formatDecimal(cost, 5);
