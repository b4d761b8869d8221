import { z } from 'zod';
import { formatCost } from '../../domain/inventory-prices.js';
import { MAX_TARGETS, STOCKTAKING_STATUSES, TARGET_DIVISIONS } from '../../domain/stocktaking.js';
import { formatDateTime } from '../../domain/time.js';
import { clearable, date, id, oneOf, patchBody, text } from '../../platform/http/fields.js';
import { fieldSelection, idParams, masterQuery, masterRecord, pagedQuery, presenterOf, timeOrNull } from '../../platform/http/list-schemas.js';

/**
 * Stocktaking (棚卸, issue 26) in the platform's names: the list and sub-lists of its inventory
 * API (GET /stocktaking, /{id}/products, /{id}/categories, /{id}/details/{base_date}) and the
 * writes a back office needs, which the platform does not publish (server/inventory/stocktaking
 * /routes.ts says which).
 */

const memo = text(1000);
/** A counted quantity: a whole number of up to 9 digits (the stock's bound). */
export const countText = z.string().regex(/^\d{1,9}$/, 'must be a whole number from 0 to 999999999');

export const createStocktakingBody = z.strictObject({
  storeId: id().describe('the store that counts'),
  stocktakingDate: date.optional().describe("the day counted; default: today in the contract's time zone"),
  targetDivision: oneOf(TARGET_DIVISIONS).describe('what is counted: 0 every product, 1 the products of categoryIds (their child categories too), 2 productIds'),
  categoryIds: z.array(id()).max(MAX_TARGETS, `must have at most ${MAX_TARGETS} entries`).optional().describe('the target categories (targetDivision 1 only)'),
  productIds: z.array(id()).max(MAX_TARGETS, `must have at most ${MAX_TARGETS} entries`).optional().describe('the target products (targetDivision 2 only)'),
  memo: memo.optional(),
});
export type CreateStocktaking = z.infer<typeof createStocktakingBody>;

export const updateStocktakingBody = patchBody({
  stocktakingDate: date.optional(),
  memo: clearable(memo).optional(),
});
export type UpdateStocktaking = z.infer<typeof updateStocktakingBody>;

const countLine = z.strictObject({
  productId: id(),
  inputStocktakingQuantity: countText.nullable().describe('the count; replaces an earlier count; null: not counted'),
  memo: clearable(text(255)).optional(),
});
export type CountLine = z.infer<typeof countLine>;

export const enterCountsBody = z.strictObject({
  products: z.array(countLine).min(1, 'must have at least one entry').max(MAX_TARGETS, `must have at most ${MAX_TARGETS} entries`),
});
export type EnterCounts = z.infer<typeof enterCountsBody>;

export const stocktakingParams = idParams('stocktaking_info_id');
export const detailsParams = z.object({ stocktaking_info_id: id(), base_date: date });

export const stocktaking = masterRecord('Stocktaking', {
  stocktakingInfoId: z.string(),
  storeId: z.string(),
  storeName: z.string().nullable(),
  targetDivision: z.enum(TARGET_DIVISIONS).describe('0 every product, 1 target categories, 2 target products'),
  stocktakingDate: z.string().describe('the day counted, YYYY-MM-DD'),
  memo: z.string().nullable(),
  status: z.enum(STOCKTAKING_STATUSES).describe('0 counting (棚卸中), 2 complete (完了)'),
  adjustmentDateTime: z.string().nullable().describe('when the counts became the stock'),
  stocktakingCompleteDateTime: z.string().nullable(),
});
export type Stocktaking = z.infer<typeof stocktaking>;

export const stocktakingProduct = masterRecord('StocktakingProduct', {
  productId: z.string(),
  categoryId: z.string().describe("the product master's category now"),
  stocktakingQuantity: z.string().nullable().describe('the count that became the stock; null until complete, or not counted'),
  inputStocktakingQuantity: z.string().nullable().describe('the count entered; null: not counted'),
  rfidTags: z.array(z.string()).describe('RFID tags of the count (none here: counts are entered by hand or scan)'),
  transportationStockQuantity: z.string().nullable().describe('in transit at the adjustment (null until complete)'),
  layawayStockQuantity: z.string().nullable().describe('laid away at the adjustment (null until complete)'),
  stockQuantityBeforeAdjustment: z.string().nullable().describe("the store's quantity just before the count replaced it (null until complete)"),
  cost: z.string().nullable().describe("the product's cost at the adjustment, 5 decimals (null until complete)"),
  memo: z.string().nullable(),
  quantityModifiedDatetime: z.string().nullable().describe('when the count was last entered'),
});
export type StocktakingProduct = z.infer<typeof stocktakingProduct>;

export const stocktakingCategory = z
  .object({ stocktakingInfoId: z.string(), categoryId: z.string().describe('a target category; "0" when every category is counted') })
  .meta({ id: 'StocktakingCategory' });

export const stocktakingDetail = z
  .object({
    stocktakingInfoId: z.string(),
    productId: z.string(),
    categoryId: z.string(),
    stockQuantity: z.string().describe("the store's quantity at the end of base_date"),
    stockMoney: z.string().describe('stockQuantity × the current cost'),
    transportationQuantity: z.string(),
    transportationMoney: z.string(),
    layawayQuantity: z.string(),
    layawayMoney: z.string(),
    storeId: z.string(),
  })
  .meta({ id: 'StocktakingDetail' });
export type StocktakingDetail = z.infer<typeof stocktakingDetail>;

/** Spec 4.3 `fields` of each list (the platform's pages offer it on every one). */
export const stocktakingFields = fieldSelection(stocktaking, 'Stocktaking', 'stocktaking');
export const productFields = fieldSelection(stocktakingProduct, 'StocktakingProduct', 'stocktaking product');
export const categoryFields = fieldSelection(stocktakingCategory, 'StocktakingCategory', 'stocktaking category');
export const detailFields = fieldSelection(stocktakingDetail, 'StocktakingDetail', 'stocktaking detail');

export const STOCKTAKING_SORT = ['stocktakingInfoId', 'stocktakingDate', 'storeId', 'updDateTime'] as const;
export const listStocktakingQuery = masterQuery(
  {
    store_id: id().optional(),
    status: oneOf(STOCKTAKING_STATUSES).optional().describe('0 counting, 2 complete'),
    target_division: oneOf(TARGET_DIVISIONS).optional(),
    fields: stocktakingFields.query,
  },
  STOCKTAKING_SORT,
);
export type ListStocktakingQuery = z.infer<typeof listStocktakingQuery>;

export const PRODUCT_SORT = ['productId', 'categoryId', 'updDateTime'] as const;
export const listProductsQuery = pagedQuery({ product_id: id().optional(), category_id: id().optional(), fields: productFields.query }, PRODUCT_SORT);
export type ListProductsQuery = z.infer<typeof listProductsQuery>;

export const CATEGORY_SORT = ['categoryId'] as const;
export const listCategoriesQuery = pagedQuery({ fields: categoryFields.query }, CATEGORY_SORT);

export const DETAIL_SORT = ['productId', 'categoryId'] as const;
export const listDetailsQuery = pagedQuery({ product_id: id().optional(), category_id: id().optional(), fields: detailFields.query }, DETAIL_SORT);

export interface StocktakingRow {
  contract_id: string;
  stocktaking_info_id: number;
  store_id: number;
  store_name?: string | null;
  target_division: (typeof TARGET_DIVISIONS)[number];
  stocktaking_date: string;
  memo: string | null;
  status: (typeof STOCKTAKING_STATUSES)[number];
  adjustment_at: number | null;
  complete_at: number | null;
  ins_at: number;
  upd_at: number;
}

/** A target product with its line (the line's columns null when it was never counted). */
export interface TargetProductRow {
  product_id: number;
  category_id: number;
  input_quantity: string | null;
  memo: string | null;
  quantity_modified_at: number | null;
  stocktaking_quantity: string | null;
  stock_before: string | null;
  layaway_stock: string | null;
  transportation_stock: string | null;
  cost: string | null;
  ins_at: number;
  upd_at: number;
}

export const presentStocktaking = presenterOf(stocktaking, {
  storeName: (row: StocktakingRow) => row.store_name ?? null,
  adjustmentDateTime: (row, zone) => timeOrNull(row.adjustment_at, zone),
  stocktakingCompleteDateTime: (row, zone) => timeOrNull(row.complete_at, zone),
});

export const presentProduct = presenterOf(stocktakingProduct, {
  inputStocktakingQuantity: (row: TargetProductRow) => row.input_quantity,
  rfidTags: () => [],
  transportationStockQuantity: (row) => row.transportation_stock,
  layawayStockQuantity: (row) => row.layaway_stock,
  stockQuantityBeforeAdjustment: (row) => row.stock_before,
  cost: (row) => (row.cost === null ? null : formatCost(row.cost)),
  quantityModifiedDatetime: (row, zone) => timeOrNull(row.quantity_modified_at, zone),
  insDateTime: (row, zone) => formatDateTime(row.ins_at, zone),
});
