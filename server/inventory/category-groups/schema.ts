import { z } from 'zod';
import { formatDateTime } from '../../domain/time.js';
import { clearable, digits, fieldsParam, halfWidthCode, id, name, patchBody } from '../../platform/http/fields.js';
import { masterListQuery, POS_PAGE } from '../../platform/http/paging.js';
import type { CategoryGroupRow } from './repo.js';

/** A category group (部門グループ): categories name one by categoryGroupId (spec 2.1); purchase orders split by it (2.10). */
export const categoryGroup = z
  .object({
    categoryGroupId: z.string(),
    categoryGroupCode: z.string().nullable().describe('half-width alphanumerics and symbols, unique in the contract'),
    categoryGroupName: z.string(),
    displaySequence: z.string().nullable(),
    insDateTime: z.string(),
    updDateTime: z.string(),
  })
  .meta({ id: 'CategoryGroup' });

export type CategoryGroup = z.infer<typeof categoryGroup>;
export type CategoryGroupField = keyof CategoryGroup;
export const CATEGORY_GROUP_FIELDS = Object.keys(categoryGroup.shape) as CategoryGroupField[];

export const categoryGroupSubset = categoryGroup.partial().meta({ id: 'CategoryGroupFields', description: 'the category group limited to the requested fields' });

export const categoryGroupParams = z.object({ category_group_id: id() });

const fieldsQuery = fieldsParam(CATEGORY_GROUP_FIELDS, 'category group').meta({
  description: `comma separated fields to return, of ${CATEGORY_GROUP_FIELDS.join(', ')}; empty for all`,
});

export const getCategoryGroupQuery = z.strictObject({ fields: fieldsQuery });

const writable = {
  categoryGroupCode: clearable(halfWidthCode(20)).optional(),
  displaySequence: clearable(digits(9)).optional(),
};

export const createCategoryGroupBody = z.strictObject({ categoryGroupName: name(85), ...writable });
export const updateCategoryGroupBody = patchBody({ categoryGroupName: name(85).optional(), ...writable });

export const CATEGORY_GROUP_SORT = ['categoryGroupId', 'categoryGroupCode', 'displaySequence', 'updDateTime'] as const;

export const listCategoryGroupsQuery = z.strictObject({
  category_group_id: id().optional(),
  category_group_code: z.string().optional(),
  fields: fieldsQuery,
  ...masterListQuery(CATEGORY_GROUP_SORT, POS_PAGE),
});

export type CreateCategoryGroup = z.infer<typeof createCategoryGroupBody>;
export type UpdateCategoryGroup = z.infer<typeof updateCategoryGroupBody>;
export type ListCategoryGroupsQuery = z.infer<typeof listCategoryGroupsQuery>;

export function presentCategoryGroup(row: CategoryGroupRow, zone: string): CategoryGroup {
  return {
    categoryGroupId: String(row.category_group_id),
    categoryGroupCode: row.category_group_code,
    categoryGroupName: row.category_group_name,
    displaySequence: row.display_sequence === null ? null : String(row.display_sequence),
    insDateTime: formatDateTime(row.ins_at, zone),
    updDateTime: formatDateTime(row.upd_at, zone),
  };
}

/** The group limited to `fields` (in its own key order); all of it when undefined. */
export function selectGroupFields(g: CategoryGroup, fields: readonly CategoryGroupField[] | undefined): Partial<CategoryGroup> {
  if (!fields) return g;
  return Object.fromEntries(CATEGORY_GROUP_FIELDS.filter((f) => fields.includes(f)).map((f) => [f, g[f]]));
}
