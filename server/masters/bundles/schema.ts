import { z } from 'zod';
import { BUNDLE_TYPE_MEANING, BUNDLE_TYPES } from '../../domain/bundles.js';
import { fromUnits, PRICE, PRICE_SCALE } from '../../domain/money.js';
import { clearable, date, decimalText, digits, id, name, oneOf } from '../../platform/http/fields.js';
import { fieldSelection, idParams, intText, masterQuery, patchOf, STAMPS, stampsOf } from '../../platform/http/list-schemas.js';
import { POINT_NOT_APPLICABLE, REDUCE_TAX_IDS, reduceTaxIdInput, TAX_DIVISIONS, TAX_FREE_DIVISIONS } from '../categories/schema.js';
import type { ProductBundleGroupRow } from '../product-bundle-groups/repo.js';

const CALC_DISCOUNT = ['0', '1'] as const;

/** A target of a bundle (商品バンドル明細), as stored. */
export interface BundleProductRow {
  product_bundle_id: number;
  category_id: number | null;
  product_id: number | null;
  product_group_code: string | null;
}

/** A bundle as the repo reads it: the shared product_bundle_groups row and its targets. */
export interface BundleRecord {
  row: ProductBundleGroupRow;
  products: BundleProductRow[];
}

const bundleProduct = z
  .object({
    productBundleId: z.string(),
    categoryId: z.string().nullable(),
    productId: z.string().nullable(),
    productGroupCode: z.string().nullable(),
  })
  .meta({ id: 'BundleProduct', description: 'a target of the bundle: exactly one of categoryId, productId, productGroupCode is set' });

/** The bundle as answered (every operation answers its targets). */
export const bundle = z
  .object({
    productBundleGroupId: z.string(),
    productBundleGroupName: z.string(),
    type: z.enum(BUNDLE_TYPES).describe(BUNDLE_TYPE_MEANING),
    taxDivision: z.enum(TAX_DIVISIONS).describe('0 tax-included, 1 tax-excluded, 2 non-taxable'),
    reduceTaxId: z.enum(REDUCE_TAX_IDS).nullable().describe('null standard rate, else a fixed reduced-tax-rate id (as categories)'),
    quantity: z.string().describe('the number of items a bundle sale takes (integer, at least 1)'),
    value: z.string().describe('exact decimal: the price (type 1, 4), the amount off (2) or the percent off, at most 100 (3)'),
    priority: z.string().nullable().describe('the order in which bundles apply; null: unset'),
    termFrom: z.string().nullable().describe('YYYY-MM-DD, the first day; null only for a group registered through /product_bundle_groups without one'),
    termTo: z.string().nullable().describe('YYYY-MM-DD, the last day; null only for a group registered through /product_bundle_groups without one'),
    pointNotApplicable: z.enum(POINT_NOT_APPLICABLE).describe('0 points apply, 1 points do not apply'),
    taxFreeDivision: z.enum(TAX_FREE_DIVISIONS).describe('0 not applicable, 1 general goods, 2 consumables'),
    calcDiscount: z.enum(CALC_DISCOUNT).describe('subject to subtotal discounts: 0 no, 1 yes'),
    ...STAMPS,
    products: z.array(bundleProduct).describe('the targets, in productBundleId order; empty for a group registered through /product_bundle_groups'),
  })
  .meta({ id: 'Bundle' });
export type Bundle = z.infer<typeof bundle>;

/** Spec 4.3 `fields` on list and get: top-level names of the bundle (products included). */
export const bundleFields = fieldSelection(bundle, 'Bundle', 'bundle');

export const bundleParams = idParams('product_bundle_group_id');
export const bundleProductParams = z.object({ ...bundleParams.shape, ...idParams('product_bundle_id').shape });

const TARGET_KEYS = ['categoryId', 'productId', 'productGroupCode'] as const;

/** A target as sent: exactly one of a category id, a product id or a product group code. */
const targetInput = z
  .strictObject({ categoryId: id().optional(), productId: id().optional(), productGroupCode: name(85).optional() })
  .superRefine((entry, ctx) => {
    if (TARGET_KEYS.filter((k) => entry[k] !== undefined).length !== 1) ctx.addIssue({ code: 'custom', message: 'must name exactly one of categoryId, productId, productGroupCode' });
  });
export type BundleTargetInput = z.infer<typeof targetInput>;

/** How a target is told apart from another of the same bundle: its key and value. */
export const targetKey = (entry: BundleTargetInput | BundleProductRow): string => {
  if ('product_bundle_id' in entry) {
    return entry.category_id !== null ? `categoryId ${entry.category_id}` : entry.product_id !== null ? `productId ${entry.product_id}` : `productGroupCode ${entry.product_group_code}`;
  }
  const k = TARGET_KEYS.find((key) => entry[key] !== undefined)!;
  return `${k} ${k === 'productGroupCode' ? entry[k] : Number(entry[k])}`;
};

const targetsInput = z
  .array(targetInput)
  .min(1, 'must list at least one target')
  .max(1000, 'must have at most 1000 entries')
  .superRefine((entries, ctx) => {
    const seen = new Map<string, number>();
    for (const [i, entry] of entries.entries()) {
      if (TARGET_KEYS.filter((k) => entry[k] !== undefined).length !== 1) continue;
      const key = targetKey(entry);
      const first = seen.get(key);
      if (first !== undefined) ctx.addIssue({ code: 'custom', path: [i], message: `${key} is already products[${first}]` });
      else seen.set(key, i);
    }
  });

const quantity = digits(9).refine((s) => !/^\d+$/.test(s) || Number(s) >= 1, { message: 'must be at least 1' });

const writable = {
  productBundleGroupName: name(85),
  type: oneOf(BUNDLE_TYPES).describe(BUNDLE_TYPE_MEANING),
  taxDivision: oneOf(TAX_DIVISIONS).optional().describe('default 0 (tax-included)'),
  reduceTaxId: reduceTaxIdInput.optional().describe('default null (the standard rate)'),
  quantity: quantity.optional().describe('required for types 1 to 3; a set sale (4) without it takes one of each target'),
  value: decimalText(PRICE),
  priority: clearable(digits(9)).optional().describe('default null'),
  termFrom: date,
  termTo: date,
  pointNotApplicable: oneOf(POINT_NOT_APPLICABLE).optional().describe('default 0'),
  taxFreeDivision: oneOf(TAX_FREE_DIVISIONS).optional().describe('default 0'),
  calcDiscount: oneOf(CALC_DISCOUNT).optional().describe('default 1'),
  products: targetsInput.describe('the targets; on PATCH, targets to add (one the bundle has already is kept as it is)'),
};

export const createBundleBody = z.strictObject(writable);
export const updateBundleBody = patchOf(writable);

export const BUNDLE_SORT = ['productBundleGroupId', 'termFrom', 'termTo'] as const;

export const listBundlesQuery = masterQuery(
  {
    product_bundle_group_id: id().optional(),
    term_from: date.optional().describe('bundles whose termFrom is on or after this day'),
    term_to: date.optional().describe('bundles whose termTo is on or before this day'),
    fields: bundleFields.query,
  },
  BUNDLE_SORT,
);

export type CreateBundle = z.infer<typeof createBundleBody>;
export type UpdateBundle = z.infer<typeof updateBundleBody>;
export type ListBundlesQuery = z.infer<typeof listBundlesQuery>;

export function presentBundle(record: BundleRecord, zone: string): Bundle {
  const { row, products } = record;
  return {
    productBundleGroupId: String(row.product_bundle_group_id),
    productBundleGroupName: row.product_bundle_group_name,
    type: row.division,
    taxDivision: row.tax_division,
    reduceTaxId: row.reduce_tax_id as Bundle['reduceTaxId'],
    quantity: String(row.quantity),
    value: fromUnits(row.value_units, PRICE_SCALE),
    priority: intText(row.priority),
    termFrom: row.start_date,
    termTo: row.end_date,
    pointNotApplicable: row.point_not_applicable,
    taxFreeDivision: row.tax_free_division,
    calcDiscount: row.calc_discount,
    ...stampsOf(row, zone),
    products: products.map((p) => ({
      productBundleId: String(p.product_bundle_id),
      categoryId: intText(p.category_id),
      productId: intText(p.product_id),
      productGroupCode: p.product_group_code,
    })),
  };
}
