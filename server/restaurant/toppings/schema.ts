import { z } from 'zod';
import { TAX_TYPES, defaultTaxRate } from '../../domain/order-items.js';
import { formatDateTime } from '../../domain/time.js';
import { clearable, dateTime, digits, id, name, oneOf, text } from '../../platform/http/fields.js';
import { pagedQuery, patchOf } from '../../platform/http/list-schemas.js';
import { RESTAURANT_PAGE } from '../../platform/http/paging.js';
import { DEFAULT_CREATED_IN } from '../topping-groups/schema.js';
import type { ToppingRow } from './repo.js';

/**
 * Toppings (トッピング), the members of topping groups, with the platform's Topping fields
 * (GET /toppings, GET /toppings/{topping_id}) and the group they belong to. Each has one price
 * setting, answered as `prices` of one primary entry.
 */

/** A price setting's tax, spelled as the platform's topping answers spell it (not orders' `included`). */
export const PRICE_TAXES = ['include', 'exclude', 'none'] as const;

const money = z.string().regex(/^(?:0|[1-9]\d{0,5})(?:\.\d{1,3})?$/, 'must be a decimal string from 0 to 999999 (at most 3 decimals)');

const priceSetting = z
  .object({
    taxRate: z.number(),
    taxType: z.enum(TAX_TYPES),
    amount: z.string(),
    tax: z.enum(PRICE_TAXES).describe('include: tax included; exclude: tax excluded; none: untaxed'),
    primary: z.boolean(),
  })
  .meta({ id: 'PriceSetting' });

export const topping = z
  .object({
    id: z.string(),
    name: z.string(),
    kana: z.string().nullable(),
    categoryId: z.string().nullable(),
    note: z.string().nullable(),
    sortNo: z.int(),
    applyDatetime: z.string().nullable().describe('when the topping applies from; null: always'),
    isOpenPrice: z.boolean().describe('true: the price is decided when ordered'),
    createdIn: z.string().nullable(),
    prices: z.array(priceSetting),
    toppingGroupId: z.string().describe('the topping group it belongs to'),
  })
  .meta({ id: 'Topping' });
export type Topping = z.infer<typeof topping>;

const sortNo = z.int({ error: () => 'must be an integer' }).min(0, 'must be at least 0').max(999999, 'must be at most 999999');
const taxRate = z.number({ error: () => 'must be a number (percent)' }).min(0, 'must be at least 0').max(100, 'must be at most 100');

const fields = {
  toppingGroupId: id(),
  name: name(100),
  kana: text(100).optional(),
  categoryId: digits(9).optional(),
  note: text(1000).optional(),
  sortNo: sortNo.optional(),
  applyDatetime: dateTime.optional(),
  isOpenPrice: z.boolean({ error: () => 'must be true or false' }).optional(),
  createdIn: name(50).optional().meta({ description: `default ${DEFAULT_CREATED_IN}` }),
  taxType: oneOf(TAX_TYPES).optional().describe('default normal'),
  taxRate: taxRate.optional().describe('default 10 (8 for reduced)'),
  amount: money.optional().describe('default 0'),
  tax: oneOf(PRICE_TAXES).optional().describe('default include (none for taxType none)'),
};

export const createToppingBody = z.strictObject(fields);
export const updateToppingBody = patchOf(fields, {
  kana: clearable(text(100)).optional(),
  categoryId: clearable(digits(9)).optional(),
  note: clearable(text(1000)).optional(),
  applyDatetime: clearable(dateTime).optional(),
});
export type CreateTopping = z.infer<typeof createToppingBody>;
export type UpdateTopping = z.infer<typeof updateToppingBody>;

/** The platform's sort keys: sort_no (default), id, name. */
export const TOPPING_SORT = ['sort_no', 'id', 'name'] as const;

export const listToppingsQuery = pagedQuery(
  { group_id: id().optional().describe('topping group id'), category_id: digits(9).optional() },
  TOPPING_SORT,
  RESTAURANT_PAGE,
);
export type ListToppingsQuery = z.infer<typeof listToppingsQuery>;

export function presentTopping(row: ToppingRow, zone: string): Topping {
  return {
    id: String(row.topping_id),
    name: row.name,
    kana: row.kana,
    categoryId: row.category_id === null ? null : String(row.category_id),
    note: row.note,
    sortNo: row.sort_no,
    applyDatetime: row.apply_at === null ? null : formatDateTime(row.apply_at, zone),
    isOpenPrice: row.is_open_price === 1,
    createdIn: row.created_in,
    prices: [{ taxRate: Number(row.tax_rate), taxType: row.tax_type, amount: row.amount, tax: row.tax, primary: true }],
    toppingGroupId: String(row.topping_group_id),
  };
}

/** The stored tax rate and tax of a price: sent, or the tax type's defaults. */
export function priceDefaults(taxType: (typeof TAX_TYPES)[number], taxRate: number | undefined, tax: (typeof PRICE_TAXES)[number] | undefined) {
  return { taxRate: taxRate === undefined ? defaultTaxRate(taxType) : String(taxRate), tax: tax ?? (taxType === 'none' ? 'none' : 'include') };
}
