import { z } from 'zod';
import { BUNDLE_TYPE_MEANING, BUNDLE_TYPES } from '../../domain/bundles.js';
import { fromUnits, PRICE, PRICE_SCALE } from '../../domain/money.js';
import { clearable, date, decimalText, digits, name, oneOf } from '../../platform/http/fields.js';
import { idParams, masterQuery, masterRecord, patchOf, type Presenter, presenterOf } from '../../platform/http/list-schemas.js';
import type { ProductBundleGroupRow } from './repo.js';

/**
 * How a bundle group prices the `quantity` items bought together, as this view writes it:
 * 1 quantity — they sell for `value` in total (e.g. 3 for 1000);
 * 2 amount — `value` is taken off their sum (e.g. 200 off for 3).
 * A bundle registered through the platform's /bundles may be of type 3 (rate off) or 4 (set
 * sale): it is answered here with that type as its division (domain/bundles.ts).
 */
export const BUNDLE_DIVISIONS = ['1', '2'] as const;
const DIVISION_MEANING = '1 quantity: every `quantity` items of the group sell for `value` in total; 2 amount: every `quantity` items take `value` off their sum';
const ANSWERED_DIVISION_MEANING = `${DIVISION_MEANING}; a bundle registered through /bundles answers its type: ${BUNDLE_TYPE_MEANING}`;

export const productBundleGroup = masterRecord('ProductBundleGroup', {
  productBundleGroupId: z.string(),
  productBundleGroupName: z.string(),
  division: z.enum(BUNDLE_TYPES).describe(ANSWERED_DIVISION_MEANING),
  quantity: z.string().describe('integer-formatted, at least 1'),
  value: z.string().describe('exact decimal, up to 9 integer digits and 3 decimals (a percent, at most 100, with division 3)'),
  startDate: z.string().nullable().describe('YYYY-MM-DD, first day of the bundle sale; null: no start'),
  endDate: z.string().nullable().describe('YYYY-MM-DD, last day of the bundle sale; null: no end'),
});

export type ProductBundleGroup = z.infer<typeof productBundleGroup>;

export const productBundleGroupParams = idParams('product_bundle_group_id');

const quantity = digits(9).refine((s) => !/^\d+$/.test(s) || Number(s) >= 1, { message: 'must be at least 1' });

const writable = {
  productBundleGroupName: name(85),
  division: oneOf(BUNDLE_DIVISIONS).describe(DIVISION_MEANING),
  quantity,
  value: decimalText(PRICE),
  startDate: clearable(date).optional(),
  endDate: clearable(date).optional(),
};

export const createProductBundleGroupBody = z.strictObject(writable);

export const updateProductBundleGroupBody = patchOf(writable);

export const PRODUCT_BUNDLE_GROUP_SORT = ['productBundleGroupId', 'productBundleGroupName', 'updDateTime'] as const;

export const listProductBundleGroupsQuery = masterQuery({ division: oneOf(BUNDLE_DIVISIONS).optional() }, PRODUCT_BUNDLE_GROUP_SORT);

export type CreateProductBundleGroup = z.infer<typeof createProductBundleGroupBody>;
export type UpdateProductBundleGroup = z.infer<typeof updateProductBundleGroupBody>;
export type ListProductBundleGroupsQuery = z.infer<typeof listProductBundleGroupsQuery>;

export const presentProductBundleGroup: Presenter<ProductBundleGroupRow, ProductBundleGroup> = presenterOf(productBundleGroup, {
  value: (row) => fromUnits(row.value_units, PRICE_SCALE),
});
