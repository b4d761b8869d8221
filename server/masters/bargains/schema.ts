import { z } from 'zod';
import { fromUnits, PRICE, PRICE_SCALE } from '../../domain/money.js';
import { date, decimalText, id, name, oneOf } from '../../platform/http/fields.js';
import { fieldSelection, idParams, masterQuery, masterRecord, pagedQuery, patchOf, type Presenter, presenterOf } from '../../platform/http/list-schemas.js';
import type { BargainProductRow, BargainRow, BargainStoreRow } from './repo.js';

/** What a target names: 1 a category, 2 a product, 3 a product group code. */
export const TARGET_DIVISIONS = ['1', '2', '3'] as const;
/** What the sale does to a target: 1 a rate off (value in percent), 2 an amount off, 3 a price. */
export const BARGAIN_DIVISIONS = ['1', '2', '3'] as const;
const TARGET_MEANING = '1 a category (targetId a categoryId), 2 a product (a productId), 3 a product group code';
const DIVISION_MEANING = '1 a rate off (value in percent, at most 100), 2 an amount off, 3 a price';

export const bargain = masterRecord('Bargain', {
  bargainId: z.string(),
  bargainName: z.string(),
  termStart: z.string().describe('YYYY-MM-DD, the first day of the sale'),
  termEnd: z.string().describe('YYYY-MM-DD, the last day of the sale'),
});
export type Bargain = z.infer<typeof bargain>;

export const bargainStore = masterRecord('BargainStore', { bargainStoreId: z.string(), bargainId: z.string(), storeId: z.string() });
export type BargainStore = z.infer<typeof bargainStore>;

export const bargainProduct = masterRecord('BargainProduct', {
  bargainProductId: z.string(),
  bargainId: z.string(),
  targetDivision: z.enum(TARGET_DIVISIONS).describe(TARGET_MEANING),
  targetId: z.string(),
  division: z.enum(BARGAIN_DIVISIONS).describe(DIVISION_MEANING),
  value: z.string().describe('exact decimal: the percent, the amount off or the price'),
});
export type BargainProduct = z.infer<typeof bargainProduct>;

/** Spec 4.3 `fields` of list and get. */
export const bargainFields = fieldSelection(bargain, 'Bargain', 'bargain');

export const bargainParams = idParams('bargain_id');
export const bargainStoreParams = z.object({ ...bargainParams.shape, ...idParams('bargain_store_id').shape });
export const bargainProductParams = z.object({ ...bargainParams.shape, ...idParams('bargain_product_id').shape });

const bargainWritable = { bargainName: name(85), termStart: date, termEnd: date };
export const createBargainBody = z.strictObject(bargainWritable);
export const updateBargainBody = patchOf(bargainWritable);

export const BARGAIN_SORT = ['bargainId', 'termStart', 'termEnd', 'updDateTime'] as const;
export const listBargainsQuery = masterQuery({ fields: bargainFields.query }, BARGAIN_SORT);

export const createBargainStoreBody = z.strictObject({ storeId: id() });
export const BARGAIN_STORE_SORT = ['bargainStoreId', 'storeId'] as const;
export const listBargainStoresQuery = pagedQuery({ store_id: id().optional() }, BARGAIN_STORE_SORT);

/** A target id as its division reads it: an id for categories and products, a code for group codes. */
export const targetId = z.string().regex(/^[!-~]{1,85}$/, 'must be 1 to 85 half-width alphanumerics or symbols');

const productWritable = {
  targetDivision: oneOf(TARGET_DIVISIONS).describe(TARGET_MEANING),
  targetId,
  division: oneOf(BARGAIN_DIVISIONS).describe(DIVISION_MEANING),
  value: decimalText(PRICE),
};
export const createBargainProductBody = z.strictObject(productWritable);
export const updateBargainProductBody = patchOf(productWritable);

export const BARGAIN_PRODUCT_SORT = ['bargainProductId', 'targetDivision'] as const;
export const listBargainProductsQuery = pagedQuery(
  { target_division: oneOf(TARGET_DIVISIONS).optional(), division: oneOf(BARGAIN_DIVISIONS).optional() },
  BARGAIN_PRODUCT_SORT,
);

export type CreateBargain = z.infer<typeof createBargainBody>;
export type UpdateBargain = z.infer<typeof updateBargainBody>;
export type ListBargainsQuery = z.infer<typeof listBargainsQuery>;
export type CreateBargainStore = z.infer<typeof createBargainStoreBody>;
export type ListBargainStoresQuery = z.infer<typeof listBargainStoresQuery>;
export type CreateBargainProduct = z.infer<typeof createBargainProductBody>;
export type UpdateBargainProduct = z.infer<typeof updateBargainProductBody>;
export type ListBargainProductsQuery = z.infer<typeof listBargainProductsQuery>;

export const presentBargain: Presenter<BargainRow, Bargain> = presenterOf(bargain);
export const presentBargainStore: Presenter<BargainStoreRow, BargainStore> = presenterOf(bargainStore);
export const presentBargainProduct: Presenter<BargainProductRow, BargainProduct> = presenterOf(bargainProduct, {
  value: (row) => fromUnits(row.value_units, PRICE_SCALE),
});
