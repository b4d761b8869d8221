import { z } from 'zod';
import { TABLE_USE_STATUSES } from '../../domain/order-items.js';
import { date, dateTime, id, text } from '../../platform/http/fields.js';
import { pageQuery } from '../../platform/http/paging.js';
import { createTransactionBody } from '../../sales/transactions/schema.js';
import { order } from '../orders/schema.js';

/**
 * The platform's TableUse (テーブル利用, GET /table_uses and /table_uses/{table_use_id}): the
 * plain table use of an order (id, status, storeId, tables) and the figures of the history.
 */
export const tableUseRecord = z
  .object({
    id: z.string().describe('table use id (the order header id)'),
    storeId: z.string(),
    tables: z.array(z.object({ id: z.string(), name: z.string() })),
    number: z.int().describe('the party size (人数)'),
    status: z.enum(TABLE_USE_STATUSES),
    started: z.string().describe('seated (入店日時)'),
    ended: z.string().nullable().describe('checked out or ended (精算日時); null while started'),
    customerGroups: z.array(z.object({ id: z.string(), name: z.string() })).describe('the party’s customer groups (客層)'),
    quantity: z.int().describe('items ordered and not canceled (合計注文点数)'),
    tableChargePerPerson: z.string().describe('table charge per person; this server has none: "0"'),
    serviceChargeRate: z.int().describe('service charge (%); this server has none: 0'),
    totalPrice: z.string().describe('the orders’ total, tax included (合計金額)'),
    tempTransactionHeadId: z.string().nullable().describe('the platform’s temporary sale; this server makes none: null'),
    transactionHeadId: z.string().nullable().describe('the sale the checkout registered or linked (GET /pos/transactions/{id})'),
    reservationId: z.string().nullable(),
    memo: z.string().nullable(),
  })
  .meta({ id: 'TableUseHistory' });
export type TableUseRecord = z.infer<typeof tableUseRecord>;

/**
 * `GET`/`PATCH /table_uses/{id}`: the table use, its orders (oldest first) and their ids. The
 * document keeps the name it had when it held only the ids (the back-office UI reads it).
 */
export const tableUseDetail = tableUseRecord
  .extend({
    orders: z.array(order).describe('the orders taken at this table use, oldest first'),
    orderIds: z.array(z.string()).describe('the ids of those orders'),
  })
  .meta({ id: 'TableUseWithOrders' });
export type TableUseDetail = z.infer<typeof tableUseDetail>;

/** limit and sort of the list; it pages by cursor, not by page number. */
const { page: _byNumber, ...cursorPaging } = pageQuery(['started'], { defaultLimit: 50, maxLimit: 100 });

/** The platform's status filter: one status, or `all`; without it the open (started) ones. */
export const STATUS_FILTERS = ['all', ...TABLE_USE_STATUSES] as const;

/**
 * `GET /table_uses` as the platform takes it: store_id, status, started / ended (a business
 * date, YYYY-MM-DD, in the contract's zone), sort `started` (default `started:desc`), limit
 * (default 50, at most 100) and cursor (the table use id at the head of the page; -1 or none:
 * the first page). The next page's cursor is in the Link header.
 */
export const listTableUsesQuery = z.strictObject({
  store_id: id().optional(),
  status: z
    .enum(STATUS_FILTERS, { error: () => `must be one of ${STATUS_FILTERS.join(', ')}` })
    .optional()
    .transform((s) => s ?? 'started')
    .meta({ description: 'all, started (default), ended, canceled or merged' }),
  started: date.optional().describe('seated on this date (contract zone)'),
  ended: date.optional().describe('ended on this date (contract zone)'),
  ...cursorPaging,
  cursor: z
    .string()
    .regex(/^(?:-1|\d{1,9})$/, 'must be a table use id or -1')
    .optional()
    .describe('the table use id the page starts at; -1 (default) for the first page'),
});
export type ListTableUsesQuery = z.infer<typeof listTableUsesQuery>;

const guestCount = z.int({ error: () => 'must be an integer' }).min(0, 'must be at least 0').max(9999, 'must be at most 9999');

/**
 * `POST /table_uses` (チェックイン): seats a party. The platform publishes no page for it; the
 * body is what its clients send (storeId, tableId, guestCount, customerDivisionId, memo), with
 * tableIds for a party over several tables and reservationId for a reserved party.
 */
export const seatBody = z.strictObject({
  storeId: id(),
  tableId: id().optional().describe('the table; or tableIds'),
  tableIds: z.array(id()).min(1, 'must name at least one table').max(20, 'must have at most 20 tables').optional(),
  guestCount: guestCount.optional().describe('the party size (number); default 0'),
  customerDivisionId: id().optional().describe('a customer group (客層) of the party'),
  customerGroupIds: z.array(id()).max(5, 'must have at most 5 entries').optional().describe('the party’s customer groups (at most 5)'),
  reservationId: id().optional().describe('binds the reservation to the table use'),
  memo: text(1000).optional(),
});
export type SeatBody = z.infer<typeof seatBody>;

const sale = createTransactionBody.shape;

/**
 * `PUT /table_uses/{table_use_id}/checkout` (会計). With `transactionHeadId` the table use is
 * closed on a sale the register already made (the platform's own linkage); without it the
 * orders become a sale here, registered as POST /pos/transactions registers one (terminalId is
 * required; payments default to exact cash).
 */
export const checkoutBody = z.strictObject({
  transactionHeadId: id().optional().describe('an existing sale of the store to close the table use on'),
  terminalId: sale.terminalId,
  terminalTranId: sale.terminalTranId,
  terminalTranDateTime: dateTime.optional().describe('the checkout time; default now'),
  staffId: sale.staffId,
  customerId: sale.customerId,
  deposit: sale.deposit,
  creditTotal: sale.creditTotal,
  depositOthers: sale.depositOthers,
  memo: sale.memo,
});
export type CheckoutBody = z.infer<typeof checkoutBody>;

/** The payment fields, which a linked sale already carries. */
export const SALE_FIELDS = ['terminalId', 'terminalTranId', 'terminalTranDateTime', 'staffId', 'customerId', 'deposit', 'creditTotal', 'depositOthers', 'memo'] as const;
