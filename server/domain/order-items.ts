import { Decimal } from 'decimal.js';

/**
 * Rules of restaurant order items and table uses (spec 2.12, 3.4). The spec leaves the
 * transitions "not shown"; these are the ones a floor needs (docs/decisions.md).
 */

export const ITEM_STATUSES = ['waiting', 'provided', 'canceled'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];
export const TABLE_USE_STATUSES = ['started', 'ended', 'canceled', 'merged'] as const;
export type TableUseStatus = (typeof TABLE_USE_STATUSES)[number];
export const TAX_TYPES = ['normal', 'reduced', 'none'] as const;
export type TaxType = (typeof TAX_TYPES)[number];

/** Japan's consumption tax: standard 10 %, reduced 8 %. */
export const STANDARD_TAX_RATE = '10';
export const REDUCED_TAX_RATE = '8';

/** Spec 2.12: an unspecified rate is the standard one, also for a non-taxable item; reduced items take 8. */
export function defaultTaxRate(taxType: TaxType): string {
  return taxType === 'reduced' ? REDUCED_TAX_RATE : STANDARD_TAX_RATE;
}

/** What an item status change does to servedAt; an Error message when the change is refused. */
export type ItemChange = { servedAt: 'set' | 'clear' | 'keep' } | { refused: string };

/**
 * waiting → provided sets servedAt; provided → waiting (a mistaken tap) clears it;
 * waiting or provided → canceled keeps it; canceled is final. Sending the current status is a no-op.
 */
export function itemStatusChange(from: ItemStatus, to: ItemStatus): ItemChange {
  if (from === to) return { servedAt: 'keep' };
  if (from === 'canceled') return { refused: `a canceled item cannot become ${to}` };
  if (to === 'provided') return { servedAt: 'set' };
  if (to === 'waiting') return { servedAt: 'clear' };
  return { servedAt: 'keep' };
}

/** started → ended, canceled or merged; the other three are final. The current status is a no-op. */
export function tableUseStatusProblem(from: TableUseStatus, to: TableUseStatus): string | null {
  if (from === to || from === 'started') return null;
  return `a table use that is ${from} cannot become ${to}`;
}

export const DISCOUNT_TYPES = ['couponRate', 'couponAmount', 'freeCoupon', 'rate', 'amount'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

export interface DiscountInput {
  type: DiscountType;
  /** couponRate's rateCoupon or rate's rate, percent. */
  rate?: string;
  amount?: string;
}

/** The line total before discount: unit selling price times quantity, exact. */
export function lineTotal(unitAmount: string, quantity: number): Decimal {
  return new Decimal(unitAmount).times(quantity);
}

/**
 * The discount amount of an item. Rate variants without an amount take rate % of the line,
 * rounded down to the yen (the customer is never charged for a fraction of a discount's
 * rounding); a free coupon without an amount takes the whole line. The amount may not exceed the line.
 */
export function discountAmount(discount: DiscountInput, unitAmount: string, quantity: number): { amount: string } | { refused: string } {
  const total = lineTotal(unitAmount, quantity);
  let amount: Decimal;
  if (discount.amount !== undefined) amount = new Decimal(discount.amount);
  else if (discount.type === 'freeCoupon') amount = total;
  else if (discount.rate !== undefined) amount = total.times(discount.rate).dividedBy(100).toDecimalPlaces(0, Decimal.ROUND_DOWN);
  else return { refused: 'amount is required for this discount type' };
  if (amount.greaterThan(total)) return { refused: `amount ${amount.toFixed()} exceeds the line total ${total.toFixed()}` };
  return { amount: amount.toFixed() };
}

/**
 * The platform's quantity change of an order item (PATCH /orders/{id}/items/{item_id} with
 * `quantity`): only down (a mistaken count; more is a new order), never a canceled item. The
 * discount follows the new quantity: a rate (or coupon rate) is taken again of the new line, a
 * free coupon is the whole new line, an amount stays unless it exceeds the new line.
 */
export function itemQuantityChange(
  item: { status: ItemStatus; quantity: number; amount: string; discountType: DiscountType | null; discountRate: string | null; discountAmount: string | null },
  quantity: number,
): { discountAmount: string | null } | { refused: string; field: 'quantity' | 'status' } {
  if (item.status === 'canceled') return { refused: 'a canceled item cannot change its quantity', field: 'status' };
  if (quantity > item.quantity) return { refused: `must not be more than the ${item.quantity} ordered; order more as a new order`, field: 'quantity' };
  if (item.discountType === null) return { discountAmount: null };
  const recomputed = item.discountType === 'rate' || item.discountType === 'couponRate' || item.discountType === 'freeCoupon';
  const result = discountAmount(
    { type: item.discountType, rate: item.discountRate ?? undefined, amount: recomputed ? undefined : (item.discountAmount ?? undefined) },
    item.amount,
    quantity,
  );
  return 'refused' in result ? { refused: `the discount ${result.refused}`, field: 'quantity' } : { discountAmount: result.amount };
}

/** Canonical text of an exact decimal ("1200.50" → "1200.5"). */
export const canonicalDecimal = (value: string | number): string => new Decimal(value).toFixed();
