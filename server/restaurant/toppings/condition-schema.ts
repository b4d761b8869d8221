import type { z } from 'zod';
import { saleConditionSchemas } from '../conditions/schema.js';

/** The platform's sort keys: topping_id (default), category_id. */
export const TOPPING_CONDITION_SORT = ['topping_id', 'category_id'] as const;

/** The platform's ToppingCondition, exactly: the shared sale condition named by `topping` (restaurant/conditions). */
export const toppingConditions = saleConditionSchemas('topping', { schemaId: 'ToppingCondition', sort: TOPPING_CONDITION_SORT, filters: {} });

export type ListToppingConditionsQuery = z.infer<typeof toppingConditions.listQuery>;
