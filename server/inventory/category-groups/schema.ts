import { z } from 'zod';
import { clearable, digits, halfWidthCode, id, name } from '../../platform/http/fields.js';
import { fieldSelection, idParams, masterQuery, masterRecord, patchOf, type Presenter, presenterOf } from '../../platform/http/list-schemas.js';
import type { CategoryGroupRow } from './repo.js';

/** A category group (部門グループ): categories name one by categoryGroupId (spec 2.1); purchase orders split by it (2.10). */
export const categoryGroup = masterRecord('CategoryGroup', {
  categoryGroupId: z.string(),
  categoryGroupCode: z.string().nullable().describe('half-width alphanumerics and symbols, unique in the contract'),
  categoryGroupName: z.string(),
  displaySequence: z.string().nullable(),
});

export type CategoryGroup = z.infer<typeof categoryGroup>;

/** Spec 4.3 `fields` of GET and list. */
export const categoryGroupFields = fieldSelection(categoryGroup, 'CategoryGroup', 'category group');

export const categoryGroupParams = idParams('category_group_id');

const fields = {
  categoryGroupName: name(85),
  categoryGroupCode: clearable(halfWidthCode(20)).optional(),
  displaySequence: clearable(digits(9)).optional(),
};
export const createCategoryGroupBody = z.strictObject(fields);
export const updateCategoryGroupBody = patchOf(fields);

export const CATEGORY_GROUP_SORT = ['categoryGroupId', 'categoryGroupCode', 'displaySequence', 'updDateTime'] as const;
const filters = { category_group_id: id().optional(), category_group_code: z.string().optional(), fields: categoryGroupFields.query };
export const listCategoryGroupsQuery = masterQuery(filters, CATEGORY_GROUP_SORT);

export type CreateCategoryGroup = z.infer<typeof createCategoryGroupBody>;
export type UpdateCategoryGroup = z.infer<typeof updateCategoryGroupBody>;
export type ListCategoryGroupsQuery = z.infer<typeof listCategoryGroupsQuery>;

export const presentCategoryGroup: Presenter<CategoryGroupRow, CategoryGroup> = presenterOf(categoryGroup);
