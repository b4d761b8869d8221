import { Decimal } from 'decimal.js';
import { z } from 'zod';
import { DENOMINATIONS, MAX_COUNT, type CashCounts, type CashInput, type Denomination } from '../../domain/closing.js';
import { fromUnits, PRICE } from '../../domain/money.js';
import { formatDateTime } from '../../domain/time.js';
import { date, decimalText, digits, id, oneOf } from '../../http/fields.js';
import { pageQuery, POS_PAGE } from '../../http/paging.js';
import type { DailySummaryRow } from './repo.js';

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

export const createDailySummaryBody = z.strictObject({
  sumDate: date.describe('the date to close: settled transactions sold on or before it are closed'),
  storeId: id(),
  cashInfo: cashInfoBody.nullable().optional(),
});
export type CreateDailySummary = z.infer<typeof createDailySummaryBody>;

/** The answer of 4.15. */
export const closingResult = z
  .object({
    sumDate: z.string(),
    storeId: z.string(),
    cashDrawerId: z.string().describe('0: unset'),
    terminalIdList: z.array(z.string()).describe('terminals that raised the closed transactions, ascending'),
  })
  .meta({ id: 'DailySummaryResult' });

export const CASH_SOURCES = ['settlement', 'request', 'uncounted'] as const;
export const CLOSING_METHODS = ['manual', 'auto', 'api'] as const;

/** The stored closing with every figure (supporting reads). */
export const dailySummary = z
  .object({
    dailySummaryId: z.string(),
    sumDate: z.string(),
    storeId: z.string(),
    cashDrawerId: z.string(),
    terminalIdList: z.array(z.string()),
    transactionCount: z.string(),
    cashSource: z.enum(CASH_SOURCES).describe('settlement: latest settlements of the terminals; request: cashInfo; uncounted: automatic closing without a count'),
    cashInfo: countsSchema.nullable().describe('counted notes and coins; null when uncounted'),
    preparationCash: z.string(),
    saving: z.string(),
    carryOverReserve: z.string(),
    cashSalesTotal: z.string().describe('Σ cash effects of the closed transactions'),
    computedCashBalance: z.string(),
    realCashBalance: z.string(),
    depositedBankMoney: z.string(),
    overShort: z.string(),
    closingMethod: z.enum(CLOSING_METHODS),
    closedDateTime: z.string(),
    releasedDateTime: z.string().nullable(),
  })
  .meta({ id: 'DailySummary' });
export type DailySummary = z.infer<typeof dailySummary>;

export const dailySummaryParams = z.object({ store_id: id(), sum_date: date });

export const DAILY_SUMMARY_SORT = ['sumDate', 'storeId', 'dailySummaryId'] as const;

export const listDailySummariesQuery = z.strictObject({
  store_id: id().optional(),
  sum_date: date.optional().describe('the closing date, matched exactly'),
  'sum_date-from': date.optional(),
  'sum_date-to': date.optional(),
  released: oneOf(['0', '1'] as const).optional().describe('0 only in force, 1 only released; both when omitted'),
  ...pageQuery(DAILY_SUMMARY_SORT, POS_PAGE),
}).refine((q) => !q['sum_date-from'] || !q['sum_date-to'] || q['sum_date-from'] <= q['sum_date-to'], {
  path: ['sum_date-to'],
  message: 'must not be before sum_date-from',
});
export type ListDailySummariesQuery = z.infer<typeof listDailySummariesQuery>;

const money = (units: number) => fromUnits(units, 3);

export function presentDailySummary(row: DailySummaryRow, zone: string): DailySummary {
  return {
    dailySummaryId: String(row.daily_summary_id),
    sumDate: row.sum_date,
    storeId: String(row.store_id),
    cashDrawerId: String(row.cash_drawer_id),
    terminalIdList: JSON.parse(row.terminal_ids) as string[],
    transactionCount: String(row.transaction_count),
    cashSource: row.cash_source,
    cashInfo: row.ten_thousand_yen === null ? null : presentCounts(countsOfRow(row)),
    preparationCash: money(row.preparation_cash),
    saving: money(row.saving),
    carryOverReserve: money(row.carry_over_reserve),
    cashSalesTotal: money(row.cash_sales_total),
    computedCashBalance: money(row.computed_cash_balance),
    realCashBalance: money(row.real_cash_balance),
    depositedBankMoney: money(row.deposited_bank_money),
    overShort: money(row.over_short),
    closingMethod: row.closing_method,
    closedDateTime: formatDateTime(row.closed_at, zone),
    releasedDateTime: row.released_at === null ? null : formatDateTime(row.released_at, zone),
  };
}

/** The stored notes and coins of a settlement or closing; all NULL when nothing was counted. */
export interface CountColumns {
  ten_thousand_yen: number | null;
  five_thousand_yen: number | null;
  two_thousand_yen: number | null;
  one_thousand_yen: number | null;
  five_hundred_yen: number | null;
  one_hundred_yen: number | null;
  fifty_yen: number | null;
  ten_yen: number | null;
  five_yen: number | null;
  one_yen: number | null;
}

/** Count columns of a row (snake_case of the denominations). */
export const COUNT_COLUMNS = Object.fromEntries(
  DENOMINATIONS.map(([name]) => [name, name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]),
) as Record<Denomination, string>;

export function countsOfRow(row: CountColumns): CashCounts {
  const r = row as unknown as Record<string, number>;
  return Object.fromEntries(DENOMINATIONS.map(([name]) => [name, r[COUNT_COLUMNS[name]]])) as CashCounts;
}
