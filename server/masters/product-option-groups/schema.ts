import { z } from 'zod';
import { name, oneOf } from '../../platform/http/fields.js';
import { fieldSelection, idParams, masterQuery, patchOf, STAMPS, stampsOf, type FieldSelection } from '../../platform/http/list-schemas.js';
import { DEFAULT_CREATED_IN } from '../../restaurant/topping-groups/schema.js';
import type { ToppingGroupRow } from '../../restaurant/topping-groups/repo.js';
import { CONDITION_IDS, type ConditionId } from './condition.js';

const CONDITION_MEANING = '0 no condition (max and min null), 1 max and min over the whole group, 2 max and min per category';

/**
 * The platform's syncDivision (作成区分): which service made the group, from the createdIn the
 * restaurant API shows: 0 normal (this back office, the default), 1 Waiter, 9 any other. 2 (head
 * office) is the platform's too; this server makes no group as head office of its own.
 */
export const SYNC_DIVISIONS = ['0', '1', '2', '9'] as const;
type SyncDivision = (typeof SYNC_DIVISIONS)[number];
const SYNC_DIVISION_OF: Readonly<Record<string, SyncDivision>> = { [DEFAULT_CREATED_IN]: '0', waiter: '1' };

const WITH = ['all', 'none'] as const;

/** The largest max and min, as the platform's. */
export const COUNT_LIMIT = 999;
/** The largest product id the platform takes (15 digits). */
const PRODUCT_ID_LIMIT = 999_999_999_999_999;

/** A whole number from `lo` to `hi`, sent as a JSON number (the platform's type) or as digits. */
const wholeNumber = (lo: number, hi: number) => {
  const message = `must be an integer from ${lo} to ${hi}`;
  return z.union([z.number(), z.string()], { error: (issue) => (issue.input === undefined ? 'is required' : message) }).transform((v, ctx) => {
    const n = typeof v === 'number' ? v : /^\d{1,15}$/.test(v) ? Number(v) : Number.NaN;
    if (Number.isSafeInteger(n) && n >= lo && n <= hi) return n;
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  });
};

const optionProduct = z.object({ productId: z.string() }).meta({ id: 'ProductOptionGroupProduct' });

const own = {
  productOptionGroupId: z.string(),
  productOptionGroupName: z.string(),
  conditionId: z.enum(CONDITION_IDS).describe(CONDITION_MEANING),
  max: z.string().nullable().describe('the most options a line takes (per category with conditionId 2); null with conditionId 0'),
  min: z.string().nullable().describe('the fewest options a line takes (per category with conditionId 2); null with conditionId 0'),
  syncDivision: z.enum(SYNC_DIVISIONS).describe('who made the group: 0 normal (this back office), 1 Waiter, 2 head office, 9 other'),
};

/** The group as answered; its option products with with_products=all, and on POST and PATCH. */
export const productOptionGroup = z
  .object({
    ...own,
    ...STAMPS,
    products: z.array(optionProduct).optional().describe('the option products (productDivision 2), in product id order: with with_products=all, and on POST and PATCH'),
  })
  .meta({ id: 'ProductOptionGroup' });

export type ProductOptionGroup = z.infer<typeof productOptionGroup>;

const ownFields = fieldSelection(z.object({ ...own, ...STAMPS }), 'ProductOptionGroupOwn', 'product option group');

/**
 * Spec 4.3 `fields` on list and get: top-level fields of the group; `products` is chosen by
 * with_products (the platform's: fields cannot name what a with_ parameter adds), and kept.
 */
export const productOptionGroupFields: FieldSelection = {
  ...ownFields,
  subset: productOptionGroup.partial().meta({ id: 'ProductOptionGroupFields', description: 'the product option group limited to the requested fields' }),
  select: (value, fields) => {
    const chosen = ownFields.select(value as Record<string, unknown>, fields as never);
    return fields && value.products !== undefined ? { ...chosen, products: value.products } : chosen;
  },
} as FieldSelection;

export const productOptionGroupParams = idParams('product_option_group_id');
export const optionGroupProductParams = z.object({ ...productOptionGroupParams.shape, ...idParams('product_id').shape });

const optionProductsInput = z
  .array(z.strictObject({ productId: wholeNumber(1, PRODUCT_ID_LIMIT) }))
  .min(1, 'must list at least one option product')
  .max(1000, 'must have at most 1000 entries')
  .superRefine((entries, ctx) => {
    const seen = new Set<number>();
    for (const [i, entry] of entries.entries()) {
      if (seen.has(entry.productId)) ctx.addIssue({ code: 'custom', path: [i, 'productId'], message: `product ${entry.productId} is given twice` });
      seen.add(entry.productId);
    }
  });

const writable = {
  productOptionGroupName: name(85),
  conditionId: oneOf(CONDITION_IDS).describe(CONDITION_MEANING),
  max: wholeNumber(1, COUNT_LIMIT).optional().describe('required with conditionId 1 and 2, refused with 0'),
  min: wholeNumber(0, COUNT_LIMIT).optional().describe('required with conditionId 1 and 2, refused with 0; at most max'),
  products: optionProductsInput.describe('the option products (productDivision 2); PATCH replaces the whole list'),
};

export const createProductOptionGroupBody = z.strictObject(writable);
export const updateProductOptionGroupBody = patchOf(writable);

export const PRODUCT_OPTION_GROUP_SORT = ['productOptionGroupId', 'conditionId', 'updDateTime'] as const;

export const listProductOptionGroupsQuery = masterQuery(
  {
    product_option_group_name: z.string().optional().describe('the name, exactly'),
    condition_id: oneOf(CONDITION_IDS).optional(),
    fields: productOptionGroupFields.query,
  },
  PRODUCT_OPTION_GROUP_SORT,
);

export const getProductOptionGroupQuery = z.strictObject({
  fields: productOptionGroupFields.query,
  with_products: oneOf(WITH).optional().describe('all adds products; default none'),
});

export type CreateProductOptionGroup = z.infer<typeof createProductOptionGroupBody>;
export type UpdateProductOptionGroup = z.infer<typeof updateProductOptionGroupBody>;
export type ListProductOptionGroupsQuery = z.infer<typeof listProductOptionGroupsQuery>;
export type GetProductOptionGroupQuery = z.infer<typeof getProductOptionGroupQuery>;

/** A group as the repo reads it: the shared row and, where the answer carries them, its option products. */
export interface OptionGroupRecord {
  row: ToppingGroupRow;
  products?: number[];
}

const CONDITION_ID_OF = { all: '1', category: '2' } as const satisfies Record<NonNullable<ToppingGroupRow['rule_condition']>, ConditionId>;

const countText = (n: number | null) => (n === null ? null : String(n));

export function presentProductOptionGroup(record: OptionGroupRecord, zone: string): ProductOptionGroup {
  const { row, products } = record;
  return {
    productOptionGroupId: String(row.topping_group_id),
    productOptionGroupName: row.name,
    conditionId: row.rule_condition === null ? '0' : CONDITION_ID_OF[row.rule_condition],
    max: countText(row.rule_max),
    min: countText(row.rule_min),
    syncDivision: SYNC_DIVISION_OF[row.created_in] ?? '9',
    ...stampsOf(row, zone),
    ...(products === undefined ? {} : { products: products.map((id) => ({ productId: String(id) })) }),
  };
}
