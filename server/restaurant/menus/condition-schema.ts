import type { z } from 'zod';
import { saleConditionSchemas } from '../conditions/schema.js';
import { typeFilter } from './schema.js';

export { putConditionBody, type PutCondition } from '../conditions/schema.js';

/** Spec 4.6 names the sort keys menu_id and category_id. */
export const CONDITION_SORT = ['menu_id', 'category_id'] as const;

/** Spec 2.5 and 4.6, exactly: the shared sale condition named by `menu` (restaurant/conditions), filtered also by menu type. */
export const menuConditions = saleConditionSchemas('menu', { schemaId: 'MenuCondition', sort: CONDITION_SORT, filters: { type: typeFilter } });

export const menuCondition = menuConditions.item;
export type MenuCondition = z.infer<typeof menuCondition>;
export const listConditionsQuery = menuConditions.listQuery;
export type ListConditionsQuery = z.infer<typeof listConditionsQuery>;
