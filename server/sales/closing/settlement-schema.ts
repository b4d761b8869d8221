import { z } from 'zod';
import { PRICE, fromUnits } from '../../domain/money.js';
import { formatDateTime, parseDateTime } from '../../domain/time.js';
import { date, dateTime, decimalText, id } from '../../platform/http/fields.js';
import { pageQuery, POS_PAGE } from '../../platform/http/paging.js';
import { countsOfRow } from './cash-counts.js';
import { cashInfoBody, countsSchema, presentCounts } from './cash-info-schema.js';
import type { AdjustmentRow } from './settlement-repo.js';

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

const DAY_MS = 24 * 3600 * 1000;

/**
 * The platform's settlement list filters: a settlement date (精算日, in the contract's zone), an
 * exact settlement time, or a time range `adjustment_date_time-from/-to` of at most 31 days; the
 * three are exclusive. Unlike the platform, none of them (nor store_id) is required.
 */
export const listAdjustmentsQuery = z
  .strictObject({
    store_id: id().optional(),
    terminal_id: id().optional(),
    adjustment_date: date.optional().describe('the date of the settlement time, in the contract\'s zone'),
    adjustment_date_time: dateTime.optional().describe('the settlement time, matched exactly'),
    'adjustment_date_time-from': dateTime.optional(),
    'adjustment_date_time-to': dateTime.optional(),
    sum_date: date.optional().describe('the closing that used the settlement'),
    ...pageQuery(ADJUSTMENT_SORT, POS_PAGE),
  })
  .superRefine((q, ctx) => {
    const from = q['adjustment_date_time-from'];
    const to = q['adjustment_date_time-to'];
    const ranged = from !== undefined || to !== undefined;
    if (q.adjustment_date !== undefined && (q.adjustment_date_time !== undefined || ranged)) {
      ctx.addIssue({ code: 'custom', path: ['adjustment_date'], message: 'cannot be combined with adjustment_date_time or adjustment_date_time-from/-to' });
    } else if (q.adjustment_date_time !== undefined && ranged) {
      ctx.addIssue({ code: 'custom', path: ['adjustment_date_time'], message: 'cannot be combined with adjustment_date_time-from/-to' });
    }
    if (from === undefined || to === undefined) return;
    const span = parseDateTime(to)! - parseDateTime(from)!;
    if (span < 0) ctx.addIssue({ code: 'custom', path: ['adjustment_date_time-to'], message: 'must not be before adjustment_date_time-from' });
    else if (span > 31 * DAY_MS) {
      ctx.addIssue({ code: 'custom', path: ['adjustment_date_time-to'], message: 'the range from adjustment_date_time-from may span at most 31 days' });
    }
  });
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
