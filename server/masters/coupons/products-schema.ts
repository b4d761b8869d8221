import { z } from 'zod';
import { digits, id, oneOf } from '../../platform/http/fields.js';
import { masterRecord, pagedQuery, presenterOf, type Presenter } from '../../platform/http/list-schemas.js';
import type { CouponProductRow } from './products-repo.js';

/** クーポンアイテムタイプ: 1 a condition of use, 2 goods the coupon grants. */
export const COUPON_ITEM_TYPES = ['1', '2'] as const;
/** クーポンアイテム区分, what itemId names: 1 a category id, 2 a product id, 3 a group code. */
export const COUPON_ITEM_DIVISIONS = ['1', '2', '3'] as const;
const TYPE_MEANING = '1 condition of use, 2 goods granted (a product, at salesPrice)';
const DIVISION_MEANING = 'what itemId names: 1 category id, 2 product id, 3 group code';

/** A coupon's item (クーポン商品) as the platform answers it. */
export const couponProduct = masterRecord('CouponProduct', {
  couponId: z.string(),
  type: z.enum(COUPON_ITEM_TYPES).describe(TYPE_MEANING),
  division: z.enum(COUPON_ITEM_DIVISIONS).describe(DIVISION_MEANING),
  itemId: z.string(),
  salesPrice: z.string().nullable().describe('the price of goods granted (type 2)'),
});

export type CouponProduct = z.infer<typeof couponProduct>;

/**
 * A category or product id (divisions 1, 2, checked against the division) or a group code (3).
 * It is a path segment of the item's routes and part of its record id (values joined by '/'),
 * so half-width letters, digits, '.', '-' and '_' only.
 */
const itemId = z.string().regex(/^[A-Za-z0-9._-]{1,85}$/, "must be an id, or a group code of 1 to 85 half-width letters, digits, '.', '-' or '_'");
const salesPrice = digits(10).describe('whole yen');

export const createCouponProductBody = z.strictObject({
  division: oneOf(COUPON_ITEM_DIVISIONS).describe(DIVISION_MEANING),
  itemId,
  type: oneOf(COUPON_ITEM_TYPES).describe(TYPE_MEANING),
  salesPrice: salesPrice.optional().describe('required for goods granted (type 2)'),
});
export const updateCouponProductBody = z.strictObject({ salesPrice });

/** The path of one item: /coupons/{coupon_id}/type/{type}/division/{division}/products/{item_id}. */
export const couponProductParams = z.object({
  coupon_id: id(),
  type: oneOf(COUPON_ITEM_TYPES).describe(TYPE_MEANING),
  division: oneOf(COUPON_ITEM_DIVISIONS).describe(DIVISION_MEANING),
  item_id: itemId,
});

export const COUPON_PRODUCT_SORT = ['type', 'division', 'itemId', 'updDateTime'] as const;
export const listCouponProductsQuery = pagedQuery(
  { type: oneOf(COUPON_ITEM_TYPES).optional().describe(TYPE_MEANING), division: oneOf(COUPON_ITEM_DIVISIONS).optional().describe(DIVISION_MEANING) },
  COUPON_PRODUCT_SORT,
);

export type CreateCouponProduct = z.infer<typeof createCouponProductBody>;
export type UpdateCouponProduct = z.infer<typeof updateCouponProductBody>;
export type CouponProductKey = z.infer<typeof couponProductParams>;
export type ListCouponProductsQuery = z.infer<typeof listCouponProductsQuery>;

export const presentCouponProduct: Presenter<CouponProductRow, CouponProduct> = presenterOf(couponProduct);
