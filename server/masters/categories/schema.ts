import { z } from 'zod';
import { clearable, digits, halfWidthCode, htmlColor, name, oneOf, text } from '../../platform/http/fields.js';
import { fieldSelection, idParams, masterQuery, masterRecord, patchOf, type Presenter, presenterOf } from '../../platform/http/list-schemas.js';
import type { CategoryRow } from './repo.js';

export const DISPLAY_FLAGS = ['0', '1'] as const; // 0 hidden on terminals, 1 shown
export const TAX_DIVISIONS = ['0', '1', '2'] as const; // 0 tax-included, 1 tax-excluded, 2 non-taxable
export const POINT_NOT_APPLICABLE = ['0', '1'] as const; // 0 points apply, 1 points do not apply
export const TAX_FREE_DIVISIONS = ['0', '1', '2'] as const; // 0 not applicable, 1 general goods, 2 consumables
/** Spec 2.1's fixed reduced-tax-rate ids; null means the standard rate. */
export const REDUCE_TAX_IDS = ['10000001', '10000002', '10000003', '10000004'] as const;
/**
 * Own rule instead of clearable(oneOf(...)): zod reports a value outside a union of enums
 * only as "Invalid input", and the detail has to say which ids are allowed.
 */
export const reduceTaxIdInput = z
  .enum(['', ...REDUCE_TAX_IDS], { error: () => `must be null or one of ${REDUCE_TAX_IDS.join(', ')}` })
  .nullable()
  .transform((v) => (v === '' ? null : v));
export const LEVELS = ['1', '2', '3'] as const;
/** Spec 2.1: a category tree is at most three levels deep. */
export const MAX_LEVEL = 3;

export const category = masterRecord('Category', {
  categoryId: z.string(),
  categoryCode: z.string().nullable(),
  categoryName: z.string(),
  categoryAbbr: z.string().nullable(),
  displaySequence: z.string().nullable(),
  displayFlag: z.enum(DISPLAY_FLAGS).describe('shown on terminals: 0 no, 1 yes'),
  taxDivision: z.enum(TAX_DIVISIONS).describe('0 tax-included, 1 tax-excluded, 2 non-taxable'),
  pointNotApplicable: z.enum(POINT_NOT_APPLICABLE).describe('0 points apply, 1 points do not apply'),
  taxFreeDivision: z.enum(TAX_FREE_DIVISIONS).describe('0 not applicable, 1 general goods, 2 consumables'),
  reduceTaxId: z
    .enum(REDUCE_TAX_IDS)
    .nullable()
    .describe('null standard rate; 10000001 reduced, 10000002 selectable-standard, 10000003 selectable-reduced, 10000004 selectable-choose each time'),
  color: z.string().nullable().describe('HTML colour code'),
  categoryGroupId: z.string().nullable(),
  parentCategoryId: z.string().nullable(),
  level: z.enum(LEVELS).describe('1 without a parent, else the parent level + 1'),
  tag: z.string().nullable().describe('comma separated tags'),
});

export type Category = z.infer<typeof category>;

/** Spec 4.3 `fields` of GET and list: any subset of the category's top-level keys. */
export const categoryFields = fieldSelection(category, 'Category', 'category');

export const categoryParams = idParams('category_id');

const writable = {
  categoryCode: clearable(halfWidthCode(20)).optional(),
  categoryAbbr: clearable(text(85)).optional(),
  displaySequence: clearable(digits(9)).optional(),
  displayFlag: oneOf(DISPLAY_FLAGS).optional(),
  taxDivision: oneOf(TAX_DIVISIONS).optional(),
  pointNotApplicable: oneOf(POINT_NOT_APPLICABLE).optional(),
  taxFreeDivision: oneOf(TAX_FREE_DIVISIONS).optional(),
  reduceTaxId: reduceTaxIdInput.optional(),
  color: clearable(htmlColor).optional(),
  categoryGroupId: clearable(digits(9)).optional(),
  parentCategoryId: clearable(digits(9)).optional(),
  tag: clearable(text(85)).optional(),
};

// `level` is absent on purpose: it follows from the parent, so sending it is an unknown key.
const fields = { categoryName: name(85), ...writable };
export const createCategoryBody = z.strictObject(fields);
export const updateCategoryBody = patchOf(fields);

export const CATEGORY_SORT = ['categoryId', 'categoryCode', 'displaySequence', 'level', 'updDateTime'] as const;

export const listCategoriesQuery = masterQuery(
  {
    category_code: z.string().optional(),
    parent_category_id: digits(9).optional(),
    level: oneOf(LEVELS).optional(),
    display_flag: oneOf(DISPLAY_FLAGS).optional(),
    fields: categoryFields.query,
  },
  CATEGORY_SORT,
);

export type CreateCategory = z.infer<typeof createCategoryBody>;
export type UpdateCategory = z.infer<typeof updateCategoryBody>;
export type ListCategoriesQuery = z.infer<typeof listCategoriesQuery>;

export const presentCategory: Presenter<CategoryRow, Category> = presenterOf(category, {
  level: (row) => String(row.level) as Category['level'],
});
