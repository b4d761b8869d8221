import { z } from 'zod';
import { id, oneOf } from '../../platform/http/fields.js';
import { pagedQuery } from '../../platform/http/list-schemas.js';
import { RESTAURANT_PAGE } from '../../platform/http/paging.js';

/**
 * カテゴリー一覧取得 / カテゴリー取得 of the waiter API: the contract's categories (the POS
 * category master) as the ordering side reads them, in two levels: a category with a parent is a
 * child (level 2), any other is level 1.
 */
export const waiterCategory = z
  .object({
    id: z.string(),
    name: z.string(),
    abbr: z.string().nullable(),
    sortNo: z.int().nullable().describe('the category’s displaySequence'),
    parentId: z.string().nullable(),
    createdIn: z.string().describe('pos: the POS category master made it'),
  })
  .meta({ id: 'WaiterCategory' });
export type WaiterCategory = z.infer<typeof waiterCategory>;

export const waiterCategoryParent = waiterCategory
  .extend({ children: z.array(waiterCategory).optional().describe('with_children=all: its child categories') })
  .meta({ id: 'WaiterCategoryParent' });

/** The platform's sort keys: sort_no (default) and id. */
export const WAITER_CATEGORY_SORT = ['sort_no', 'id'] as const;

export const listWaiterCategoriesQuery = pagedQuery(
  { level: oneOf(['none', '1', '2'] as const).optional().describe('none (default), 1: not a child, 2: a child') },
  WAITER_CATEGORY_SORT,
  RESTAURANT_PAGE,
);
export type ListWaiterCategoriesQuery = z.infer<typeof listWaiterCategoriesQuery>;

export const waiterCategoryParams = z.object({ category_id: id() });
export const getWaiterCategoryQuery = z.strictObject({
  with_children: oneOf(['all', 'none'] as const).optional().describe('all: with its child categories; none (default)'),
});
