import { z } from 'zod';
import { CONDITIONS } from '../../domain/menus.js';
import { parseDateTime } from '../../domain/time.js';
import { dateTime, digits, id } from '../../platform/http/fields.js';
import { pageQuery, RESTAURANT_PAGE } from '../../platform/http/paging.js';
import type { ToppingConditionRow } from './conditions.js';

/** The platform's ToppingCondition, exactly. */
export const toppingCondition = z
  .object({
    toppingId: z.string(),
    condition: z.enum(CONDITIONS).describe('orderable or soldout'),
    quantity: z.int().nullable().describe('remaining quantity; null when not counted'),
  })
  .meta({ id: 'ToppingCondition' });

export const MAX_TOPPING_IDS = 100;

/** `topping_ids`: comma separated topping ids, at most 100 (each 1 to 9 digits; duplicates count once). */
const toppingIdsParam = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((value, ctx): number[] | undefined => {
    if (value === undefined) return undefined;
    const items = [value].flat().flatMap((v) => v.split(','));
    const bad = items.find((item) => !/^\d{1,9}$/.test(item));
    if (bad !== undefined) {
      ctx.addIssue({ code: 'custom', message: `${bad === '' ? '(empty)' : JSON.stringify(bad)} is not a topping id (1 to 9 digits)` });
      return z.NEVER;
    }
    if (items.length > MAX_TOPPING_IDS) {
      ctx.addIssue({ code: 'custom', message: `at most ${MAX_TOPPING_IDS} topping ids, got ${items.length}` });
      return z.NEVER;
    }
    return [...new Set(items.map(Number))];
  })
  .meta({ description: `comma separated topping ids, at most ${MAX_TOPPING_IDS}` });

/** The platform's sort keys: topping_id (default), category_id. */
export const TOPPING_CONDITION_SORT = ['topping_id', 'category_id'] as const;

export const listToppingConditionsQuery = z.strictObject({
  topping_ids: toppingIdsParam,
  category_id: digits(9).optional(),
  updated_from: dateTime
    .optional()
    .transform((v) => (v === undefined ? undefined : parseDateTime(v)!))
    .meta({ description: 'only toppings whose condition or quantity changed at or after this time' }),
  ...pageQuery(TOPPING_CONDITION_SORT, RESTAURANT_PAGE),
});
export type ListToppingConditionsQuery = z.infer<typeof listToppingConditionsQuery>;

export const toppingConditionStoreParams = z.object({ store_id: id() });
export const toppingConditionParams = z.object({ store_id: id(), topping_id: id() });

export const presentToppingCondition = (row: ToppingConditionRow) => ({ toppingId: String(row.topping_id), condition: row.condition, quantity: row.quantity });
