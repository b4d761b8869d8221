import { z } from 'zod';
import { parseDateTime } from '../../domain/time.js';
import { date, dateTime, id, oneOf } from '../../http/fields.js';
import { pageQuery, POS_PAGE } from '../../http/paging.js';
import { SUPPORTED_HEAD_DIVISIONS } from './schema.js';

const opt = <T extends z.ZodType>(schema: T) => schema.optional();

// --- list -------------------------------------------------------------------------------------

export const TRANSACTION_SORT = ['transactionHeadId', 'transactionDateTime', 'terminalTranDateTime', 'updDateTime', 'sumDate'] as const;
export type TransactionSort = (typeof TRANSACTION_SORT)[number];

/** Range filters: query prefix → column, and whether the bounds are dates or date-times. */
export const RANGES = [
  { query: 'transaction_date_time', column: 'transaction_at', kind: 'time' },
  { query: 'terminal_tran_date_time', column: 'terminal_tran_at', kind: 'time' },
  { query: 'sum_date', column: 'sum_date', kind: 'date' },
  { query: 'upd_date_time', column: 'upd_at', kind: 'time' },
] as const;
const DAY_MS = 24 * 3600 * 1000;
/** Date-time ranges span at most 31 × 24 h; date ranges at most 31 calendar days counting both ends. */
const MAX_SPAN_MS = { time: 31 * DAY_MS, date: 30 * DAY_MS } as const;
const boundMs = (kind: 'time' | 'date', v: string) => (kind === 'time' ? parseDateTime(v)! : Date.parse(`${v}T00:00:00Z`));

export const listTransactionsQuery = z
  .strictObject({
    transaction_head_id: opt(z.string().regex(/^\d{1,9}(,\d{1,9})*$/, 'must be transaction ids (up to 9 digits) separated by commas')),
    transaction_head_id_from: opt(id()),
    transaction_head_id_to: opt(id()),
    store_id: opt(id()),
    terminal_id: opt(id()),
    customer_id: opt(id()),
    sum_division: opt(oneOf(['0', '1', '2'])),
    transaction_head_division: opt(oneOf(SUPPORTED_HEAD_DIVISIONS)),
    transaction_date_time_from: opt(dateTime),
    transaction_date_time_to: opt(dateTime),
    terminal_tran_date_time_from: opt(dateTime),
    terminal_tran_date_time_to: opt(dateTime),
    sum_date_from: opt(date),
    sum_date_to: opt(date),
    upd_date_time_from: opt(dateTime),
    upd_date_time_to: opt(dateTime),
    with_details: opt(oneOf(['none', 'all'])).describe('all: each transaction with its details, depositOthers and coupons; default none'),
    ...pageQuery(TRANSACTION_SORT, POS_PAGE),
  })
  .superRefine((q, ctx) => {
    const values = q as Record<string, unknown>;
    let complete = false;
    for (const { query, kind } of RANGES) {
      const from = values[`${query}_from`] as string | undefined;
      const to = values[`${query}_to`] as string | undefined;
      if (from === undefined || to === undefined) continue;
      complete = true;
      const span = boundMs(kind, to) - boundMs(kind, from);
      if (span < 0) ctx.addIssue({ code: 'custom', path: [`${query}_to`], message: `must not be earlier than ${query}_from` });
      else if (span > MAX_SPAN_MS[kind]) ctx.addIssue({ code: 'custom', path: [`${query}_to`], message: `the range from ${query}_from may span at most 31 days` });
    }
    const idFrom = q.transaction_head_id_from;
    const idTo = q.transaction_head_id_to;
    if (idFrom !== undefined && idTo !== undefined && Number(idTo) < Number(idFrom)) {
      ctx.addIssue({ code: 'custom', path: ['transaction_head_id_to'], message: 'must not be less than transaction_head_id_from' });
    }
    if (!complete) {
      ctx.addIssue({
        code: 'custom',
        path: ['query'],
        message: `a complete range is required: ${RANGES.map((r) => `${r.query}_from and ${r.query}_to`).join(', or ')}`,
      });
    }
  });
export type ListTransactionsQuery = z.infer<typeof listTransactionsQuery>;
