import { z } from 'zod';
import { fromUnits, sumDecimals, type DecimalFormat } from '../../domain/money.js';
import { date, decimalText, digits, id } from '../../platform/http/fields.js';
import { masterRecord, pagedQuery, type Presenter, presenterOf } from '../../platform/http/list-schemas.js';
import type { BudgetRow } from './repo.js';

/** Spec §8 / 4.9: budget months start at January 2011. */
export const FIRST_BUDGET_YEAR = 2011;
/** A day's sales target: up to 12 integer digits and 3 decimals, stored in thousandths. */
export const SALES_TARGET: DecimalFormat = { integerDigits: 12, fractionDigits: 3 };
export const SALES_TARGET_SCALE = 3;

/**
 * Path year and month (spec 4.9): YYYY from 2011 and MM from 01 to 12. One rule per field
 * so a malformed value gets one message, not the format's and the range's.
 */
const yearParam = z.string().superRefine((y, ctx) => {
  if (!/^\d{4}$/.test(y)) ctx.addIssue({ code: 'custom', message: 'must be a year of 4 digits (YYYY)' });
  else if (Number(y) < FIRST_BUDGET_YEAR) {
    ctx.addIssue({ code: 'custom', message: `must be ${FIRST_BUDGET_YEAR} or later: budget months start at January ${FIRST_BUDGET_YEAR}` });
  }
});
const monthParam = z.string().regex(/^(?:0[1-9]|1[0-2])$/, 'must be a month of 2 digits from 01 to 12 (MM)');

export const budgetMonthParams = z.object({ store_id: id(), year: yearParam, month: monthParam });
export type BudgetMonthParams = z.infer<typeof budgetMonthParams>;

export const dailyBudget = masterRecord('DailyBudget', {
  storeId: z.string(),
  date: z.string().describe('YYYY-MM-DD'),
  salesTarget: z.string().describe('exact decimal, up to 12 integer digits and 3 decimals'),
  customerCountTarget: z.string().nullable().describe('up to 9 digits; null when unset'),
});

export const monthBudget = z
  .object({
    storeId: z.string(),
    year: z.string(),
    month: z.string(),
    salesTargetTotal: z.string().describe('sum of the days’ sales targets'),
    days: z.array(dailyBudget).describe('the budgeted days in date order'),
  })
  .meta({ id: 'MonthBudget' });

export type DailyBudget = z.infer<typeof dailyBudget>;
export type MonthBudget = z.infer<typeof monthBudget>;

export const putBudgetBody = z.strictObject({
  days: z
    .array(
      z.strictObject({
        date,
        salesTarget: decimalText(SALES_TARGET),
        customerCountTarget: z.union([digits(9), z.literal(''), z.null()]).optional(),
      }),
    )
    .min(1, 'must have at least 1 day; DELETE removes a month')
    .max(31, 'must have at most 31 days'),
});
export type PutBudget = z.infer<typeof putBudgetBody>;

export const BUDGET_SORT = ['date', 'storeId'] as const;

export const listBudgetsQuery = pagedQuery(
  { store_id: id().optional(), from: date.optional().describe('first date, inclusive'), to: date.optional().describe('last date, inclusive') },
  BUDGET_SORT,
).refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['to'], message: 'must not be before from' });
export type ListBudgetsQuery = z.infer<typeof listBudgetsQuery>;

export const presentDailyBudget: Presenter<BudgetRow, DailyBudget> = presenterOf(dailyBudget, {
  date: (row) => row.budget_date,
  salesTarget: (row) => fromUnits(row.sales_target_units, SALES_TARGET_SCALE),
});

export function presentMonthBudget(storeId: string, year: string, month: string, rows: readonly BudgetRow[], zone: string): MonthBudget {
  const days = rows.map((r) => presentDailyBudget(r, zone));
  return { storeId, year, month, salesTargetTotal: sumDecimals(days.map((d) => d.salesTarget)), days };
}
