import { z } from 'zod';
import { formatDecimal, PRICE } from '../../domain/money.js';
import { LAYAWAY_HEAD_DIVISION, MAX_LAYAWAY_DETAILS } from '../../domain/layaways.js';
import { formatDateTime } from '../../domain/time.js';
import { dateTime, decimalText, halfWidthCode, id, text } from '../../platform/http/fields.js';
import { fieldSelection, intText, timeOrNull } from '../../platform/http/list-schemas.js';
import { pageQuery, POS_PAGE } from '../../platform/http/paging.js';

/** An amount of money: up to 9 digits and 3 decimals, as a transaction's prices. */
const amount = decimalText(PRICE);
const detailId = z.string().regex(/^\d{1,3}$/, 'must be 1 to 999').refine((s) => Number(s) >= 1, { message: 'must be 1 to 999' });
/** Goods are laid away whole: the store's stock counts them. */
const quantity = z.string().regex(/^[1-9]\d{0,4}$/, 'must be a whole number from 1 to 99999');

const detailInput = z.strictObject({
  transactionDetailId: detailId.describe('the line number, unique in the layaway'),
  transactionDetailDivision: z
    .enum(['1'], { error: (issue) => (issue.input === undefined ? undefined : 'must be 1 (a normal line): a layaway keeps goods, it returns none') })
    .optional()
    .describe('1, a normal line (the default)'),
  productId: id(15).describe('the product laid away'),
  salesPrice: amount.describe('the unit price'),
  unitDiscountPrice: amount.optional().describe('the discount per unit (default 0)'),
  quantity: quantity.describe('taken out of the store’s available stock and laid away'),
});
export type LayawayDetailInput = z.infer<typeof detailInput>;

/**
 * POST /transactions/layaways (取置き登録): the platform's transaction body names, of the fields a
 * layaway here keeps. The totals are the server's: a sent subtotal or total that differs is a 400.
 */
export const createLayawayBody = z.strictObject({
  transactionHeadDivision: z
    .string()
    .refine((s) => s === LAYAWAY_HEAD_DIVISION, { message: 'must be 10 (layaway): the layaway registration takes layaways only; other transactions are POST /transactions' })
    .describe('10, layaway (取置き), the only division this operation takes'),
  subtotal: amount.describe("the sum of the lines' subtotals ((salesPrice − unitDiscountPrice) × quantity); a different value is refused"),
  subtotalDiscountPrice: amount.optional().describe('the discount on the subtotal (default 0)'),
  total: amount.describe('subtotal − subtotalDiscountPrice; a different value is refused'),
  storeId: id().describe('the store that keeps the goods'),
  terminalId: id().describe('a terminal of the store'),
  terminalTranId: halfWidthCode(40).describe("the terminal's own id of the layaway"),
  terminalTranDateTime: dateTime.describe("the terminal's time of the layaway: it dates it on a business day, which must be open"),
  customerId: id().optional().describe('the member the goods are kept for'),
  staffId: id().optional(),
  memo: text(1000).optional(),
  details: z
    .array(detailInput)
    .min(1, 'must have at least one entry')
    .max(MAX_LAYAWAY_DETAILS, `must have at most ${MAX_LAYAWAY_DETAILS} entries`)
    .describe('the goods laid away'),
});
export type CreateLayaway = z.infer<typeof createLayawayBody>;

// --- answers ----------------------------------------------------------------------------------

export const layawayDetail = z
  .object({
    transactionHeadId: z.string(),
    transactionDetailId: z.string(),
    transactionDetailDivision: z.string().describe('1, a normal line'),
    productId: z.string(),
    salesPrice: z.string(),
    unitDiscountPrice: z.string(),
    quantity: z.string(),
  })
  .meta({ id: 'LayawayDetail' });

/** The platform's `layaway` record of a layaway transaction (the fields this server keeps). */
export const layawayState = z
  .object({
    transactionHeadId: z.string(),
    status: z.string().describe('0 kept, 1 picked up (引取済み)'),
    pickUpTransactionHeadId: z.string().nullable().describe('the sale that picked it up'),
  })
  .meta({ id: 'LayawayState' });

const head = {
  transactionHeadId: z.string().describe('the layaway id (a transaction id: no sale has it)'),
  transactionDateTime: z.string().describe('when the server registered it'),
  transactionHeadDivision: z.string().describe('10, layaway'),
  cancelDivision: z.string().describe('0, or 1 when cancelled (its goods back on sale)'),
  cancelDateTime: z.string().nullable(),
  subtotal: z.string(),
  subtotalDiscountPrice: z.string(),
  total: z.string(),
  amount: z.string().describe('the number of goods laid away'),
  storeId: z.string(),
  terminalId: z.string(),
  customerId: z.string().nullable(),
  terminalTranId: z.string(),
  terminalTranDateTime: z.string(),
  staffId: z.string().nullable(),
  memo: z.string().nullable(),
  updDateTime: z.string(),
};
export const layawayHead = z.object(head).meta({ id: 'LayawayHead' });
export const layaway = z.object({ ...head, layaway: layawayState, details: z.array(layawayDetail) }).meta({ id: 'Layaway' });
/** A list entry: the head, and its `layaway` record with `with_layaway=all`. */
export const layawayListItem = layawayHead.partial().extend({ layaway: layawayState.optional() }).meta({ id: 'LayawayListItem' });
export type LayawayHead = z.infer<typeof layawayHead>;
export type Layaway = z.infer<typeof layaway>;

/** `fields` of the list (its records are heads). */
export const layawayFields = fieldSelection(layawayHead, 'LayawayHead', 'layaway');

// --- list (GET /transactions/layaways) --------------------------------------------------------

/** The sort keys of the platform's layaway list (gettransactionslayaways) this server keeps. */
export const LAYAWAY_SORT = ['transactionHeadId', 'transactionDateTime', 'storeId', 'terminalId', 'customerId', 'terminalTranId', 'terminalTranDateTime', 'updDateTime'] as const;

/** The platform's period filters (`-from`/`-to`) this server keeps: query prefix → column. */
export const LAYAWAY_RANGES = [
  { query: 'transaction_date_time', column: 'transaction_at' },
  { query: 'terminal_tran_date_time', column: 'terminal_tran_at' },
  { query: 'upd_date_time', column: 'upd_at' },
] as const;
const MAX_SPAN_MS = 31 * 24 * 3600 * 1000;

const opt = <T extends z.ZodType>(schema: T) => schema.optional();
export const listLayawaysQuery = z
  .strictObject({
    'transaction_head_id-from': opt(id()),
    'transaction_head_id-to': opt(id()),
    'transaction_date_time-from': opt(dateTime),
    'transaction_date_time-to': opt(dateTime),
    'terminal_tran_date_time-from': opt(dateTime),
    'terminal_tran_date_time-to': opt(dateTime),
    'upd_date_time-from': opt(dateTime),
    'upd_date_time-to': opt(dateTime),
    store_id: opt(id()),
    terminal_id: opt(id()),
    customer_id: opt(id()),
    fields: layawayFields.query,
    with_layaway: opt(z.enum(['none', 'all'], { error: () => 'must be one of none, all' })).describe('all: adds layaway, the state of each layaway; none (default): does not'),
    ...pageQuery(LAYAWAY_SORT, POS_PAGE),
  })
  .superRefine((q, ctx) => {
    // As the platform: one complete period of at most 31 days is required.
    const values = q as Record<string, unknown>;
    let complete = false;
    for (const { query } of LAYAWAY_RANGES) {
      const from = values[`${query}-from`] as string | undefined;
      const to = values[`${query}-to`] as string | undefined;
      if (from === undefined || to === undefined) continue;
      complete = true;
      const span = Date.parse(to) - Date.parse(from);
      if (span < 0) ctx.addIssue({ code: 'custom', path: [`${query}-to`], message: `must not be earlier than ${query}-from` });
      else if (span > MAX_SPAN_MS) ctx.addIssue({ code: 'custom', path: [`${query}-to`], message: `the range from ${query}-from may span at most 31 days` });
    }
    const idFrom = q['transaction_head_id-from'];
    const idTo = q['transaction_head_id-to'];
    if (idFrom !== undefined && idTo !== undefined && Number(idTo) < Number(idFrom)) {
      ctx.addIssue({ code: 'custom', path: ['transaction_head_id-to'], message: 'must not be less than transaction_head_id-from' });
    }
    if (!complete) {
      ctx.addIssue({
        code: 'custom',
        path: ['query'],
        message: `a complete range is required: ${LAYAWAY_RANGES.map((r) => `${r.query}-from and ${r.query}-to`).join(', or ')}`,
      });
    }
  });
export type ListLayawaysQuery = z.infer<typeof listLayawaysQuery>;

// --- rows -------------------------------------------------------------------------------------

export interface LayawayRow {
  contract_id: string;
  transaction_head_id: number;
  transaction_at: number;
  store_id: number;
  terminal_id: number;
  terminal_tran_id: string;
  terminal_tran_at: number;
  customer_id: number | null;
  staff_id: number | null;
  subtotal: string;
  subtotal_discount_price: string;
  total: string;
  amount: number;
  memo: string | null;
  status: string;
  pick_up_transaction_head_id: number | null;
  cancel_division: string;
  cancel_at: number | null;
  body_hash: string;
  ins_at: number;
  upd_at: number;
}

export interface LayawayDetailRow {
  contract_id: string;
  transaction_head_id: number;
  transaction_detail_id: number;
  product_id: number;
  sales_price: string;
  unit_discount_price: string;
  quantity: number;
}

export function presentLayawayHead(r: LayawayRow, zone: string): LayawayHead {
  return {
    transactionHeadId: String(r.transaction_head_id),
    transactionDateTime: formatDateTime(r.transaction_at, zone),
    transactionHeadDivision: LAYAWAY_HEAD_DIVISION,
    cancelDivision: r.cancel_division,
    cancelDateTime: timeOrNull(r.cancel_at, zone),
    subtotal: formatDecimal(r.subtotal),
    subtotalDiscountPrice: formatDecimal(r.subtotal_discount_price),
    total: formatDecimal(r.total),
    amount: String(r.amount),
    storeId: String(r.store_id),
    terminalId: String(r.terminal_id),
    customerId: intText(r.customer_id),
    terminalTranId: r.terminal_tran_id,
    terminalTranDateTime: formatDateTime(r.terminal_tran_at, zone),
    staffId: intText(r.staff_id),
    memo: r.memo,
    updDateTime: formatDateTime(r.upd_at, zone),
  };
}

export const presentLayawayState = (r: LayawayRow) => ({
  transactionHeadId: String(r.transaction_head_id),
  status: r.status,
  pickUpTransactionHeadId: intText(r.pick_up_transaction_head_id),
});

export const presentLayaway = (r: LayawayRow, details: readonly LayawayDetailRow[], zone: string): Layaway => ({
  ...presentLayawayHead(r, zone),
  layaway: presentLayawayState(r),
  details: details.map((d) => ({
    transactionHeadId: String(d.transaction_head_id),
    transactionDetailId: String(d.transaction_detail_id),
    transactionDetailDivision: '1',
    productId: String(d.product_id),
    salesPrice: formatDecimal(d.sales_price),
    unitDiscountPrice: formatDecimal(d.unit_discount_price),
    quantity: String(d.quantity),
  })),
});
