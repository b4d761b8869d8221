import { Decimal } from 'decimal.js';
import { z } from 'zod';
import { COST_SCALE, formatDecimal, fromUnits, PRICE_SCALE } from '../../domain/money.js';
import { STOCK_ADD_MAX, STOCK_DIVISIONS } from '../../domain/stock.js';
import { formatDateTime } from '../../domain/time.js';
import { date, id, oneOf, text } from '../../platform/http/fields.js';
import { fieldSelection, idParams, intText, masterQuery, pagedQuery } from '../../platform/http/list-schemas.js';
import { isHttpUrl } from '../../events/webhook-events.js';
import type { StockMovementRow, StockRow } from './movements.js';
import type { StockChangeRow } from './repo.js';

/** A store's quantity of a product (GET /stock), as the platform names it. */
export const stock = z
  .object({
    storeId: z.string(),
    productId: z.string(),
    stockAmount: z.string().describe('the quantity at the store now'),
    layawayStockAmount: z.string().describe('the quantity laid away for customers (layaways, POST /transactions/layaways), not counted in stockAmount'),
    updDateTime: z.string(),
  })
  .meta({ id: 'Stock' });

export type Stock = z.infer<typeof stock>;
/** Spec 4.3 `fields` of the list. */
export const stockFields = fieldSelection(stock, 'Stock', 'stock');

export const STOCK_SORT = ['productId', 'storeId'] as const;
export const listStockQuery = masterQuery({ store_id: id().optional(), product_id: id().optional(), fields: stockFields.query }, STOCK_SORT);
export type ListStockQuery = z.infer<typeof listStockQuery>;

export const stockParams = idParams('product_id');

const stockHistory = z.strictObject({ memo: text(100).optional() }).optional().describe('the history entry of the change: its memo');

/** PATCH /stock/{product_id}: the store's quantity becomes stockAmount. */
export const setStockBody = z.strictObject({
  storeId: id(),
  stockAmount: z.string().regex(/^-?\d{1,9}$/, 'must be an integer from -999999999 to 999999999'),
  stockHistory,
});

const addAmount = z
  .string()
  .regex(/^-?\d{1,10}$/, 'must be an integer from -1999999998 to 1999999998')
  .refine((s) => !/^-?\d{1,10}$/.test(s) || new Decimal(s).abs().lte(STOCK_ADD_MAX), { message: 'must be an integer from -1999999998 to 1999999998' });

/** POST /stock/{product_id}/add: stockAmount is added to the store's quantity (taken when negative). */
export const addStockBody = z.strictObject({ storeId: id(), stockAmount: addAmount, stockHistory });

/** The answer of PATCH and add: the quantity after the change, and the history entry it made. */
export const stockChangeResult = z
  .object({
    productId: z.string(),
    storeId: z.string(),
    stockAmount: z.string(),
    updDateTime: z.string(),
    stockHistory: z.object({ id: z.string(), memo: z.string().nullable() }).nullable().describe('the movement recorded; null when nothing moved'),
  })
  .meta({ id: 'StockChangeResult' });
export type StockChangeResult = z.infer<typeof stockChangeResult>;

/** POST /stock/add/bulk: at most 100 entries, each a non-zero change; the result goes to callbackUrl. */
export const MAX_BULK_ENTRIES = 100;
export const bulkAddStockBody = z.strictObject({
  stock: z
    .array(
      z.strictObject({
        productId: id(),
        storeId: id(),
        stockAmount: addAmount.refine((s) => !/^-?0+$/.test(s), { message: 'must not be 0' }),
        stockHistory,
      }),
    )
    .min(1, 'must have at least 1 entry')
    .max(MAX_BULK_ENTRIES, `must have at most ${MAX_BULK_ENTRIES} entries`),
  callbackUrl: z
    .string()
    .max(511, 'must be at most 511 characters')
    .refine((s) => /^https?:\/\/\S+$/.test(s) && isHttpUrl(s), { message: 'must be an http:// or https:// URL' }),
});
export type BulkAddStock = z.infer<typeof bulkAddStockBody>;

export const bulkAccepted = z
  .object({
    requestId: z.number().int().describe('the request, as the completion notice names it'),
    callbackUrl: z.string(),
  })
  .meta({ id: 'StockBulkAccepted' });

/**
 * One movement of a store's quantity (GET /stock/changes/{product_id}/{store_id}), as the
 * platform's stock history (在庫変動履歴) names it.
 */
export const stockChange = z
  .object({
    id: z.string().describe('the stock history id'),
    updDateTime: z.string().describe('when it was recorded'),
    targetDateTime: z.string().describe('when the quantity changed (the same as updDateTime for every change this server records)'),
    productId: z.string(),
    storeId: z.string(),
    amount: z.string().describe('the quantity moved, relative: negative when taken'),
    stockAmount: z.string().describe('the quantity at the store right after it, as the store that made it saw it'),
    layawayStockAmount: z.string().describe('the quantity laid away for customers right after it'),
    stockDivision: z
      .enum(STOCK_DIVISIONS)
      .describe(
        'why it moved: 01 correction, 02 sale, 03 purchase, 04 shipping out, 05 receiving, 06 rental, 07 layaway, 08 stocktaking, ' +
          '09 adjustment, 10 shipment, 12 return, 13 promotional goods, 14 loss, 15 API, 16 sales allocation, 17 receiving shortage, ' +
          '18 order allocation',
      ),
    fromStoreId: z.string().nullable().describe('the shipping store of a store-to-store shipping (04, 05)'),
    toStoreId: z.string().nullable().describe('the receiving store of a store-to-store shipping (04, 05)'),
    taxDivision: z.enum(['0', '1', '2']).nullable().describe("the tax division of the product's price: 0 included, 1 excluded, 2 non-taxable"),
    price: z.string().nullable().describe("the product's price when it moved"),
    cost: z.string().nullable().describe("the product's cost when it moved"),
    memo: z.string().nullable(),
    staffId: z.string().nullable().describe('the staff member who made it'),
    staffName: z.string().nullable(),
  })
  .meta({ id: 'StockChange' });
export type StockChange = z.infer<typeof stockChange>;

export const stockChangesParams = z.object({ product_id: id(), store_id: id() });
export const STOCK_CHANGE_SORT = ['id', 'updDateTime', 'targetDateTime'] as const;
/** The platform's filters of a store's stock history of a product, each an exact match. */
const stockChangeFilters = {
  id: id().optional().describe('the stock history id'),
  target_date: date.optional().describe('the day the quantity changed (YYYY-MM-DD, in the contract time zone)'),
  stock_amount: z
    .string()
    .regex(/^-?\d{1,10}$/, 'must be an integer')
    .transform((v) => formatDecimal(v))
    .optional()
    .describe('the quantity right after the change'),
  stock_division: oneOf(STOCK_DIVISIONS).optional().describe('why it moved (see stockDivision)'),
  from_store_id: id().optional().describe('the shipping store of a store-to-store shipping'),
  to_store_id: id().optional().describe('the receiving store of a store-to-store shipping'),
};
export const listStockChangesQuery = pagedQuery(stockChangeFilters, STOCK_CHANGE_SORT);
export type ListStockChangesQuery = z.infer<typeof listStockChangesQuery>;

export function presentStock(row: StockRow, zone: string): Stock {
  return {
    storeId: String(row.store_id),
    productId: String(row.product_id),
    stockAmount: row.stock_amount,
    layawayStockAmount: row.layaway_stock_amount,
    updDateTime: formatDateTime(row.upd_at, zone),
  };
}

export function presentStockChangeResult(row: StockRow, movement: StockMovementRow | null, zone: string): StockChangeResult {
  return {
    productId: String(row.product_id),
    storeId: String(row.store_id),
    stockAmount: row.stock_amount,
    updDateTime: formatDateTime(row.upd_at, zone),
    stockHistory: movement && { id: String(movement.movement_id), memo: movement.memo },
  };
}

export function presentStockChange(m: StockChangeRow, zone: string): StockChange {
  return {
    id: String(m.movement_id),
    updDateTime: formatDateTime(m.moved_at, zone),
    targetDateTime: formatDateTime(m.target_at, zone),
    productId: String(m.product_id),
    storeId: String(m.store_id),
    amount: m.delta,
    stockAmount: m.amount_after,
    layawayStockAmount: m.layaway_amount_after,
    stockDivision: m.stock_division,
    fromStoreId: intText(m.from_store_id),
    toStoreId: intText(m.to_store_id),
    taxDivision: m.tax_division as StockChange['taxDivision'],
    price: m.price_units === null ? null : fromUnits(m.price_units, PRICE_SCALE),
    cost: m.cost_units === null ? null : fromUnits(m.cost_units, COST_SCALE),
    memo: m.memo,
    staffId: intText(m.staff_id),
    staffName: m.staff_name,
  };
}
