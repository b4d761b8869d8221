import { Decimal } from 'decimal.js';
import { z } from 'zod';
import { DENOMINATIONS, MAX_COUNT, type CashCounts, type CashInput, type Denomination } from '../../domain/closing.js';
import { PRICE } from '../../domain/money.js';
import { decimalText, digits } from '../../platform/http/fields.js';

/** The drawer count as a settlement and a closing both take it (cashInfo) and answer it. */

/** A count of notes or coins: a string of up to 6 digits, 0 to MAX_COUNT ("0" when none). */
const count = digits(String(MAX_COUNT).length);

const countsShape = Object.fromEntries(DENOMINATIONS.map(([name]) => [name, count.optional()])) as Record<
  Denomination,
  z.ZodOptional<typeof count>
>;

/**
 * cashInfo of 4.15 (also registered at a terminal settlement): preparation cash and saving as
 * exact decimals, counts of notes and coins; an omitted count is 0.
 */
export const cashInfoBody = z.strictObject({
  preparationCash: decimalText(PRICE).optional(),
  saving: decimalText(PRICE).optional(),
  ...countsShape,
});
export type CashInfoBody = z.infer<typeof cashInfoBody>;

export function toCashInput(body: CashInfoBody | null | undefined): CashInput | null {
  if (!body) return null;
  const counts = Object.fromEntries(DENOMINATIONS.map(([name]) => [name, Number(body[name] ?? '0')])) as CashCounts;
  return {
    counts,
    ...(body.preparationCash === undefined ? {} : { preparationCash: new Decimal(body.preparationCash) }),
    ...(body.saving === undefined ? {} : { saving: new Decimal(body.saving) }),
  };
}

/** Counts as answered: strings, or null when nothing was counted. */
export const countsSchema = z.object(
  Object.fromEntries(DENOMINATIONS.map(([name]) => [name, z.string()])) as Record<Denomination, z.ZodString>,
);

export const presentCounts = (counts: CashCounts) =>
  Object.fromEntries(DENOMINATIONS.map(([name]) => [name, String(counts[name])])) as Record<Denomination, string>;
