import { z } from 'zod';
import { dateTime, digits, id, oneOf } from '../../platform/http/fields.js';
import { idParams } from '../../platform/http/list-schemas.js';
import { pageQuery, RESTAURANT_PAGE } from '../../platform/http/paging.js';
import { parseDateTime } from '../../domain/time.js';
import { CONDITIONS } from '../../domain/menus.js';
import { typeFilter } from './schema.js';
import type { ConditionRow } from './repo.js';

/** Spec 2.5, exactly: nothing is added to the listed item. */
export const menuCondition = z
  .object({
    menuId: z.string(),
    condition: z.enum(CONDITIONS).describe('orderable (sellable) or soldout (sold out)'),
    quantity: z.number().int().nullable().describe('remaining quantity; null when not counted (no limit)'),
  })
  .meta({ id: 'MenuCondition' });

export type MenuCondition = z.infer<typeof menuCondition>;

export const conditionStoreParams = idParams('store_id');
export const conditionMenuParams = z.object({ store_id: id(), menu_id: id() });

/** Spec 4.6: at most 100 ids per request. */
export const MAX_MENU_IDS = 100;

/**
 * Spec 4.6 `menu_ids`: comma separated (a repeated parameter reads the same). Every item must
 * be a menu id (1 to 9 digits); an empty item is refused rather than skipped, so a client that
 * joins an empty list gets a 400, not every menu of the store. Duplicates count once.
 */
const menuIdsParam = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((value, ctx): number[] | undefined => {
    if (value === undefined) return undefined;
    const items = [value].flat().flatMap((v) => v.split(','));
    const bad = items.find((item) => !/^\d{1,9}$/.test(item));
    if (bad !== undefined) {
      ctx.addIssue({ code: 'custom', message: `${bad === '' ? '(empty)' : JSON.stringify(bad)} is not a menu id (1 to 9 digits)` });
      return z.NEVER;
    }
    if (items.length > MAX_MENU_IDS) {
      ctx.addIssue({ code: 'custom', message: `at most ${MAX_MENU_IDS} menu ids, got ${items.length}` });
      return z.NEVER;
    }
    return [...new Set(items.map(Number))];
  })
  .meta({ description: `comma separated menu ids, at most ${MAX_MENU_IDS}` });

/** Spec 4.6 names the sort keys menu_id and category_id. */
export const CONDITION_SORT = ['menu_id', 'category_id'] as const;

export const listConditionsQuery = z.strictObject({
  menu_ids: menuIdsParam,
  type: typeFilter,
  category_id: digits(9).optional(),
  updated_from: dateTime
    .optional()
    .transform((v) => (v === undefined ? undefined : parseDateTime(v)!))
    .meta({ description: 'only menus whose condition or quantity changed at or after this time' }),
  ...pageQuery(CONDITION_SORT, RESTAURANT_PAGE),
});

export type ListConditionsQuery = z.infer<typeof listConditionsQuery>;

/** The supporting write: keys not sent are kept; quantity null means not counted. */
export const putConditionBody = z
  .strictObject({
    condition: oneOf(CONDITIONS).optional(),
    quantity: z
      .number({ error: (issue) => (issue.input === undefined ? undefined : 'must be an integer from 0 to 999999999, or null') })
      .int('must be an integer from 0 to 999999999, or null')
      .min(0, 'must be an integer from 0 to 999999999, or null')
      .max(999_999_999, 'must be an integer from 0 to 999999999, or null')
      .nullable()
      .optional(),
  })
  .refine((o) => Object.keys(o).length > 0, { message: 'no field to update was given' });

export type PutCondition = z.infer<typeof putConditionBody>;

export function presentCondition(row: ConditionRow): MenuCondition {
  return { menuId: String(row.menu_id), condition: row.condition, quantity: row.quantity };
}
