import { z } from 'zod';
import { COST, COST_SCALE, fromUnits, PRICE, PRICE_SCALE } from '../../domain/money.js';
import { clearable, decimalText, digits, halfWidthCode, id, name, oneOf, text } from '../../platform/http/fields.js';
import { idParams, masterQuery, masterRecord, pagedQuery, patchOf, stampsOf } from '../../platform/http/list-schemas.js';
import { POINT_NOT_APPLICABLE, REDUCE_TAX_IDS, reduceTaxIdInput, TAX_DIVISIONS, TAX_FREE_DIVISIONS } from '../categories/schema.js';
import { labelNo } from '../product-labels/schema.js';
import type { ProductRow, ProductStoreRow, ReserveItemRow } from './repo.js';

/**
 * Product divisions (spec 2.13 productDivision, as a product carries it into a sale line):
 * 0 normal, 1 ticket, 2 option, 3 department sale, 4 bundle parent, 5 set-sale parent,
 * 6 simple-bundle parent, 7 bundle child, 8 bundle discount child. A and B (plan and course
 * children) come only from restaurant orders, never from the product master.
 */
export const PRODUCT_DIVISIONS = ['0', '1', '2', '3', '4', '5', '6', '7', '8'] as const;

const reserveItem = z.object({ no: z.string().describe('free-item label number'), value: z.string() });

export const product = masterRecord('Product', {
  productId: z.string(),
  categoryId: z.string(),
  productCode: z.string(),
  productName: z.string(),
  price: z.string().describe('exact decimal, up to 9 integer digits and 3 decimals'),
  cost: z.string().nullable().describe('exact decimal, up to 8 integer digits and 5 decimals; null when unset'),
  taxDivision: z.enum(TAX_DIVISIONS).describe('0 tax-included, 1 tax-excluded, 2 non-taxable'),
  reduceTaxId: z.enum(REDUCE_TAX_IDS).nullable().describe('null standard rate, else a fixed reduced-tax-rate id (as categories)'),
  pointNotApplicable: z.enum(POINT_NOT_APPLICABLE).describe('0 points apply, 1 points do not apply'),
  taxFreeDivision: z.enum(TAX_FREE_DIVISIONS).describe('0 not applicable, 1 general goods, 2 consumables'),
  productDivision: z
    .enum(PRODUCT_DIVISIONS)
    .describe('0 normal, 1 ticket, 2 option, 3 department sale, 4 bundle parent, 5 set-sale parent, 6 simple-bundle parent, 7 bundle child, 8 bundle discount child'),
  productOptionGroupId: z.string().nullable().describe('the product option group offered when the product is sold (productDivision 0 only); null: none'),
  reserveItems: z.array(reserveItem).describe('values of the free items, by label number'),
});

export type Product = z.infer<typeof product>;

export const productParams = idParams('product_id');

/** The free-item values of a product; the whole list is replaced when sent. */
const reserveItemsInput = z
  .array(z.strictObject({ no: labelNo, value: name(85) }))
  .max(50, 'must have at most 50 entries')
  .superRefine((items, ctx) => {
    const seen = new Set<number>();
    for (const [i, item] of items.entries()) {
      const no = Number(item.no);
      if (seen.has(no)) ctx.addIssue({ code: 'custom', path: [i, 'no'], message: `free item ${no} is given twice` });
      seen.add(no);
    }
  });

/** Handling of a product by a store (商品取扱店舗): 0 the store sells it, 1 it does not. */
export const ASSIGN_DIVISIONS = ['0', '1'] as const;

/**
 * `stores` of a product body, as the platform's product registration and update take it:
 * the handling of the listed stores is set; stores not listed keep theirs (a store never set sells).
 */
const storesInput = z
  .array(z.strictObject({ storeId: id(), assignDivision: oneOf(ASSIGN_DIVISIONS) }))
  .max(1000, 'must have at most 1000 entries')
  .superRefine((entries, ctx) => {
    const seen = new Set<number>();
    for (const [i, entry] of entries.entries()) {
      const storeId = Number(entry.storeId);
      if (seen.has(storeId)) ctx.addIssue({ code: 'custom', path: [i, 'storeId'], message: `store ${storeId} is given twice` });
      seen.add(storeId);
    }
  });

const writable = {
  categoryId: digits(9),
  productCode: halfWidthCode(20),
  productName: name(85),
  price: decimalText(PRICE),
  cost: clearable(decimalText(COST)).optional(),
  taxDivision: oneOf(TAX_DIVISIONS).optional(),
  reduceTaxId: reduceTaxIdInput.optional(),
  pointNotApplicable: oneOf(POINT_NOT_APPLICABLE).optional(),
  taxFreeDivision: oneOf(TAX_FREE_DIVISIONS).optional(),
  productDivision: oneOf(PRODUCT_DIVISIONS).optional(),
  productOptionGroupId: clearable(digits(9)).optional().describe('a product option group, for a product of productDivision 0 only; null or "" clears it'),
  reserveItems: reserveItemsInput.optional(),
  stores: storesInput.optional().describe('handling by store: 0 sells, 1 does not; stores not listed keep theirs'),
};

export const createProductBody = z.strictObject(writable);
export const updateProductBody = patchOf(writable);

export const PRODUCT_SORT = ['productId', 'productCode', 'price', 'categoryId', 'updDateTime'] as const;

export const listProductsQuery = masterQuery(
  { category_id: digits(9).optional(), product_code: text(20).optional(), product_division: oneOf(PRODUCT_DIVISIONS).optional() },
  PRODUCT_SORT,
);

/** GET /products/{product_id}/stores: one entry per store (normal stores and warehouses). */
export const productStore = z
  .object({
    productId: z.string(),
    storeId: z.string(),
    assignDivision: z.enum(ASSIGN_DIVISIONS).describe('0 the store sells the product (also when never set), 1 it does not'),
  })
  .meta({ id: 'ProductStore' });

export type ProductStore = z.infer<typeof productStore>;

export const presentProductStore = (r: ProductStoreRow): ProductStore => ({
  productId: String(r.product_id),
  storeId: String(r.store_id),
  assignDivision: r.assign_division,
});

export const PRODUCT_STORE_SORT = ['storeId'] as const;

export const listProductStoresQuery = pagedQuery({ store_id: id().optional(), assign_division: oneOf(ASSIGN_DIVISIONS).optional() }, PRODUCT_STORE_SORT);

export type ListProductStoresQuery = z.infer<typeof listProductStoresQuery>;

export type CreateProduct = z.infer<typeof createProductBody>;
export type UpdateProduct = z.infer<typeof updateProductBody>;
export type ListProductsQuery = z.infer<typeof listProductsQuery>;

export function presentProduct(row: ProductRow, items: readonly ReserveItemRow[], zone: string): Product {
  return {
    productId: String(row.product_id),
    categoryId: String(row.category_id),
    productCode: row.product_code,
    productName: row.product_name,
    price: fromUnits(row.price_units, PRICE_SCALE),
    cost: row.cost_units === null ? null : fromUnits(row.cost_units, COST_SCALE),
    taxDivision: row.tax_division,
    reduceTaxId: row.reduce_tax_id,
    pointNotApplicable: row.point_not_applicable,
    taxFreeDivision: row.tax_free_division,
    productDivision: row.product_division,
    productOptionGroupId: row.product_option_group_id === null ? null : String(row.product_option_group_id),
    reserveItems: items.map((i) => ({ no: String(i.no), value: i.value })),
    ...stampsOf(row, zone),
  };
}

