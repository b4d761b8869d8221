import { z } from 'zod';
import { fromUnits, PRICE, PRICE_SCALE } from '../../domain/money.js';
import { formatDateTime } from '../../domain/time.js';
import { clearable, decimalText, digits, id, name, oneOf, patchBody } from '../../platform/http/fields.js';
import { idParams, masterRecord, pagedQuery, type Presenter, presenterOf } from '../../platform/http/list-schemas.js';
import { RESTAURANT_PAGE } from '../../platform/http/paging.js';
import { CONDITIONS, COURSE_DIVISIONS, MENU_TYPES } from '../../domain/menus.js';
import type { MenuRow } from './repo.js';

/** What `type` filters on (4.6 and GET /menus): `all` or one menu type. */
export const TYPE_FILTERS = ['all', ...MENU_TYPES] as const;
export type TypeFilter = (typeof TYPE_FILTERS)[number];

export const typeFilter = oneOf(TYPE_FILTERS)
  .optional()
  .meta({ description: 'all (default), normal, plan or course' });

/** The menu master of a store, with its current sale condition (2.5) for the back office. */
export const menu = masterRecord('Menu', {
  menuId: z.string(),
  storeId: z.string(),
  menuName: z.string(),
  menuType: z.enum(MENU_TYPES).describe('normal, plan (all-you-can-eat/drink plan) or course'),
  courseDivision: z.enum(COURSE_DIVISIONS).nullable().describe('course menus only: standard or simple; null otherwise'),
  categoryId: z.string().nullable(),
  price: z.string().describe('exact decimal, up to 9 integer digits and 3 decimals'),
  condition: z.enum(CONDITIONS).describe('orderable or soldout'),
  quantity: z.number().int().nullable().describe('remaining quantity; null when not counted (no limit)'),
  conditionUpdDateTime: z.string().describe('when condition or quantity last changed'),
  productId: z.string().nullable().describe('the POS product the menu sells (its checkout line carries it: reports and stock); null: sold by name'),
});

export type Menu = z.infer<typeof menu>;

export const menuParams = idParams('menu_id');

const menuName = name(85);
// oneOf() answers "must be one of" even for a missing key; a required type should say "is required".
const requiredMenuType = z.enum(MENU_TYPES, {
  error: (issue) => (issue.input === undefined ? 'is required' : `must be one of ${MENU_TYPES.join(', ')}`),
});
const courseDivision = oneOf(COURSE_DIVISIONS);

// The condition is not set here: a new menu is orderable and not counted, and the condition
// changes only through PUT /menu_conditions/... so that every change is timed in one place.
export const createMenuBody = z.strictObject({
  storeId: id(),
  menuName,
  menuType: requiredMenuType,
  courseDivision: courseDivision.optional(),
  categoryId: digits(9).optional(),
  price: decimalText(PRICE).optional(),
  productId: id().optional().describe('the POS product the menu sells'),
});

// storeId is absent: a menu stays in its store (sending it is an unknown key).
export const updateMenuBody = patchBody({
  menuName: menuName.optional(),
  menuType: oneOf(MENU_TYPES).optional(),
  courseDivision: clearable(courseDivision).optional(),
  categoryId: clearable(digits(9)).optional(),
  price: decimalText(PRICE).optional(),
  productId: clearable(id()).optional(),
});

export const MENU_SORT = ['menuId', 'categoryId', 'menuName'] as const;

export const listMenusQuery = pagedQuery({ store_id: id().optional(), type: typeFilter, category_id: digits(9).optional() }, MENU_SORT, RESTAURANT_PAGE);

export type CreateMenu = z.infer<typeof createMenuBody>;
export type UpdateMenu = z.infer<typeof updateMenuBody>;
export type ListMenusQuery = z.infer<typeof listMenusQuery>;

export const presentMenu: Presenter<MenuRow, Menu> = presenterOf(menu, {
  price: (row) => fromUnits(row.price_units, PRICE_SCALE),
  conditionUpdDateTime: (row, zone) => formatDateTime(row.condition_at, zone),
});
