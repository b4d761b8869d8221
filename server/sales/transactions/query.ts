import { z } from 'zod';
import { parseDateTime } from '../../domain/time.js';
import { date, dateTime, fieldsParam, id, oneOf } from '../../platform/http/fields.js';
import { pageQuery, POS_PAGE } from '../../platform/http/paging.js';
import { HEADER_FIELDS } from './catalog.js';
import { SUPPORTED_HEAD_DIVISIONS } from './schema.js';

const opt = <T extends z.ZodType>(schema: T) => schema.optional();

// --- what a read adds to the header --------------------------------------------------------

export const DETAIL_LEVELS = ['none', 'summary', 'all'] as const;
export type DetailLevel = (typeof DETAIL_LEVELS)[number];
const ALL_OR_NONE = ['none', 'all'] as const;

/** The child records a read loads: the lines (none, the summary fields or all of them), other payments, coupons. */
export interface ChildrenWanted {
  details: DetailLevel;
  depositOthers: boolean;
  coupons: boolean;
}

/**
 * A `with_*` of the platform whose records this server does not keep: `none` (what a client
 * sending every parameter sends) is accepted, `all` is a 400 saying why.
 */
const noneOnly = (reason: string) =>
  opt(z.string().refine((v) => v === 'none', { message: `only none is served: ${reason}` })).describe(`none only: ${reason}`);
// Layaways are records of their own here; the shape the platform nests under a sale is not in its reference pages.
const NO_LAYAWAYS = 'layaways are read through GET /transactions/layaways (with_layaway=all answers pickUpTransactionHeadId, the sale that picked one up)';
const unservedWith = {
  with_layaways: noneOnly(NO_LAYAWAYS),
  with_layaway: noneOnly(NO_LAYAWAYS),
  with_layaway_pick_ups: noneOnly(NO_LAYAWAYS),
  with_layaway_pick_up: noneOnly(NO_LAYAWAYS),
  with_money_control: noneOnly('this server records no money-control operations of a sale'),
  with_detail_product_attributes: noneOnly('this server records no product attributes on the lines'),
};

const withDetails = opt(oneOf(DETAIL_LEVELS)).describe('none: no lines; summary: the lines with some fields (TransactionDetailSummary); all: every field');
const allOrNone = (what: string) => opt(oneOf(ALL_OR_NONE)).describe(`all: adds ${what}; none: does not`);

// --- list (GET /transactions) ----------------------------------------------------------------

/** The platform's sort keys of the transaction list (gettransactions). */
export const TRANSACTION_SORT = [
  'transactionHeadId',
  'transactionDateTime',
  'transactionHeadDivision',
  'storeId',
  'terminalId',
  'customerId',
  'terminalTranId',
  'terminalTranDateTime',
  'sumDate',
  'updDateTime',
] as const;
export type TransactionSort = (typeof TRANSACTION_SORT)[number];

/** Range filters (the platform's `-from`/`-to` names): query prefix → column, and whether the bounds are dates or date-times. */
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
/** Lines (summary or all) limit a page to 100 transactions, as on the platform. */
export const MAX_LIMIT_WITH_DETAILS = 100;

type HeaderField = (typeof HEADER_FIELDS)[number]['name'];
const HEADER_NAMES = HEADER_FIELDS.map((f) => f.name);
const CHILD_KEYS = ['details', 'depositOthers', 'coupons'];

/**
 * `fields`: comma separated header fields to answer (a repeated parameter is read the same way;
 * blank items are skipped, so an empty value answers every field; only commas — `fields=,` — is a 400). The records a `with_*`
 * parameter adds and fields of the second level are not chosen here.
 */
const headerFieldsParam = fieldsParam(HEADER_NAMES as readonly HeaderField[], 'transaction', (n) =>
  CHILD_KEYS.includes(n) ? `${n} is added by its with_ parameter, not by fields` : null,
).meta({ description: 'comma separated header fields to answer (e.g. transactionHeadId,total); empty for all' });

export const listTransactionsQuery = z
  .strictObject({
    transaction_head_id: opt(z.string().regex(/^\d{1,9}(,\d{1,9})*$/, 'must be transaction ids (up to 9 digits) separated by commas')),
    'transaction_head_id-from': opt(id()),
    'transaction_head_id-to': opt(id()),
    store_id: opt(id()),
    terminal_id: opt(id()),
    customer_id: opt(id()),
    customer_code: opt(z.string()).describe("the member's customerCode"),
    transaction_uuid: opt(z.string()).describe('the receipt number, matched exactly'),
    sum_division: opt(oneOf(['0', '1', '2'])),
    transaction_head_division: opt(oneOf(SUPPORTED_HEAD_DIVISIONS)),
    adjustment_date_time: opt(dateTime).describe('the settlement time, matched exactly'),
    sum_date: opt(date).describe('the closing date, matched exactly'),
    'transaction_date_time-from': opt(dateTime),
    'transaction_date_time-to': opt(dateTime),
    'terminal_tran_date_time-from': opt(dateTime),
    'terminal_tran_date_time-to': opt(dateTime),
    'sum_date-from': opt(date),
    'sum_date-to': opt(date),
    'upd_date_time-from': opt(dateTime),
    'upd_date_time-to': opt(dateTime),
    fields: headerFieldsParam,
    with_details: withDetails,
    with_deposit_others: allOrNone('depositOthers, the other payments'),
    ...unservedWith,
    ...pageQuery(TRANSACTION_SORT, POS_PAGE),
  })
  .superRefine((q, ctx) => {
    const values = q as Record<string, unknown>;
    let complete = false;
    for (const { query, kind } of RANGES) {
      const from = values[`${query}-from`] as string | undefined;
      const to = values[`${query}-to`] as string | undefined;
      if (from === undefined || to === undefined) continue;
      complete = true;
      const span = boundMs(kind, to) - boundMs(kind, from);
      if (span < 0) ctx.addIssue({ code: 'custom', path: [`${query}-to`], message: `must not be earlier than ${query}-from` });
      else if (span > MAX_SPAN_MS[kind]) ctx.addIssue({ code: 'custom', path: [`${query}-to`], message: `the range from ${query}-from may span at most 31 days` });
    }
    const idFrom = q['transaction_head_id-from'];
    const idTo = q['transaction_head_id-to'];
    if (idFrom !== undefined && idTo !== undefined && Number(idTo) < Number(idFrom)) {
      ctx.addIssue({ code: 'custom', path: ['transaction_head_id-to'], message: 'must not be less than transaction_head_id-from' });
    }
    if (q.with_details !== undefined && q.with_details !== 'none' && q.limit > MAX_LIMIT_WITH_DETAILS) {
      ctx.addIssue({ code: 'custom', path: ['limit'], message: `must be at most ${MAX_LIMIT_WITH_DETAILS} with with_details=${q.with_details}` });
    }
    if (!complete) {
      ctx.addIssue({
        code: 'custom',
        path: ['query'],
        message: `a complete range is required: ${RANGES.map((r) => `${r.query}-from and ${r.query}-to`).join(', or ')}`,
      });
    }
  });
export type ListTransactionsQuery = z.infer<typeof listTransactionsQuery>;

/**
 * What a list entry carries: the header; the lines with `with_details=summary|all`; the other
 * payments with `with_deposit_others=all`. `with_details=all` keeps giving the whole
 * transaction (lines, other payments and coupons), as it did before the platform's names.
 */
export function listChildren(q: Pick<ListTransactionsQuery, 'with_details' | 'with_deposit_others'>): ChildrenWanted {
  const details = q.with_details ?? 'none';
  return { details, depositOthers: details === 'all' || q.with_deposit_others === 'all', coupons: details === 'all' };
}

// --- one (GET /transactions/{transaction_id}) ------------------------------------------------

export const getTransactionQuery = z.strictObject({
  with_details: withDetails.describe('none: no lines; summary: the lines with some fields; all (also when omitted): every field'),
  with_deposit_others: allOrNone('depositOthers (also when omitted)'),
  with_coupons: allOrNone('coupons (also when omitted)'),
  with_store: allOrNone('store, the store of the sale'),
  with_customer: allOrNone('customer, the member of the sale (null when none)'),
  with_customer_groups: allOrNone('customerGroups, the customer groups the sale names'),
  with_staff: allOrNone('staff, the staff member of the sale (null when none)'),
  ...unservedWith,
  with_coupon_items: noneOnly('this server records no items granted by coupons'),
  with_discounts: noneOnly('this server keeps no discount-division records (the ids are on the header and lines)'),
  with_recorded_staff: noneOnly('this server keeps the staff member of a sale as staffId and staffName on the header (see with_staff)'),
});
export type GetTransactionQuery = z.infer<typeof getTransactionQuery>;

/** GET one answers every child record unless its `with_*` is `none` (the answer before the platform's names). */
export function oneChildren(q: GetTransactionQuery): ChildrenWanted {
  return { details: q.with_details ?? 'all', depositOthers: q.with_deposit_others !== 'none', coupons: q.with_coupons !== 'none' };
}

// --- lines (GET /transactions/{transaction_id}/details) --------------------------------------

export const DETAIL_SORT = ['transactionDetailId'] as const;
export const listDetailsQuery = z.strictObject({ ...pageQuery(DETAIL_SORT, POS_PAGE) });
export type ListDetailsQuery = z.infer<typeof listDetailsQuery>;
