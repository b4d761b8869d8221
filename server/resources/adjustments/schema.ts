import { z } from 'zod';
import { PRICE, fromUnits } from '../../domain/money.js';
import { formatDateTime, parseDateTime } from '../../domain/time.js';
import { date, dateTime, decimalText, id } from '../../http/fields.js';
import { pageQuery, POS_PAGE } from '../../http/paging.js';
import { cashInfoBody, countsOfRow, countsSchema, presentCounts } from '../daily-summaries/schema.js';
import type { AdjustmentRow } from './repo.js';

export const createAdjustmentBody = z.strictObject({
  storeId: id(),
  terminalId: id().describe('a terminal of the store'),
  adjustmentDateTime: dateTime.optional().describe('settlement time, default now; its date is the closing date the settlement belongs to'),
  cashInfo: cashInfoBody
    .nullable()
    .optional()
    .describe('the drawer counted at the settlement; only when the store\'s cashInputAtSettlement is 1'),
  depositedBankMoney: decimalText(PRICE).optional().describe('money taken out after the count and banked; default 0'),
});
export type CreateAdjustment = z.infer<typeof createAdjustmentBody>;

export const ADJUSTMENT_STATUSES = ['unclosed', 'closed', 'released'] as const;

export const adjustment = z
  .object({
    adjustmentId: z.string(),
    storeId: z.string(),
    terminalId: z.string(),
    adjustmentDateTime: z.string(),
    settledTransactionCount: z.string().describe('transactions this settlement moved from unprocessed (0) to settled (1)'),
    settledCashTotal: z.string().describe('Σ cash effects of those transactions'),
    cashInfo: z
      .object({ preparationCash: z.string().nullable(), saving: z.string().nullable(), ...countsSchema.shape })
      .nullable()
      .describe('null when the settlement registered no cash data'),
    realCashBalance: z.string().nullable(),
    depositedBankMoney: z.string(),
    status: z.enum(ADJUSTMENT_STATUSES).describe('unclosed: waits for a closing; closed: used by a closing; released: its closing was released'),
    sumDate: z.string().nullable().describe('the closing that used it'),
    insDateTime: z.string(),
  })
  .meta({ id: 'Adjustment' });
export type Adjustment = z.infer<typeof adjustment>;

export const adjustmentParams = z.object({ adjustment_id: id() });

export const ADJUSTMENT_SORT = ['adjustmentId', 'adjustmentDateTime', 'storeId', 'terminalId'] as const;

export const listAdjustmentsQuery = z.strictObject({
  store_id: id().optional(),
  terminal_id: id().optional(),
  adjustment_date_time_from: dateTime.optional(),
  adjustment_date_time_to: dateTime.optional(),
  sum_date: date.optional(),
  ...pageQuery(ADJUSTMENT_SORT, POS_PAGE),
}).refine(
  (q) => !q.adjustment_date_time_from || !q.adjustment_date_time_to || parseDateTime(q.adjustment_date_time_from)! <= parseDateTime(q.adjustment_date_time_to)!,
  { path: ['adjustment_date_time_to'], message: 'must not be before adjustment_date_time_from' },
);
export type ListAdjustmentsQuery = z.infer<typeof listAdjustmentsQuery>;

const money = (units: number) => fromUnits(units, 3);
const moneyOrNull = (units: number | null) => (units === null ? null : money(units));

export function presentAdjustment(row: AdjustmentRow, zone: string): Adjustment {
  return {
    adjustmentId: String(row.adjustment_id),
    storeId: String(row.store_id),
    terminalId: String(row.terminal_id),
    adjustmentDateTime: formatDateTime(row.adjusted_at, zone),
    settledTransactionCount: String(row.settled_count),
    settledCashTotal: money(row.settled_cash_total),
    cashInfo:
      row.real_cash_balance === null
        ? null
        : { preparationCash: moneyOrNull(row.preparation_cash), saving: moneyOrNull(row.saving), ...presentCounts(countsOfRow(row)) },
    realCashBalance: moneyOrNull(row.real_cash_balance),
    depositedBankMoney: money(row.deposited_bank_money),
    status: row.released === '1' ? 'released' : row.sum_date === null ? 'unclosed' : 'closed',
    sumDate: row.sum_date,
    insDateTime: formatDateTime(row.ins_at, zone),
  };
}
