import type { ZodApp } from '../../platform/http/answers.js';
import { registerSaleConditionRoutes } from '../conditions/routes.js';
import { toppingConditions } from './condition-schema.js';
import type { ToppingConditions } from './conditions.js';

/** GET /topping_conditions/stores/{store_id} (the platform's) and the supporting PUT that sets one. */
export function registerToppingConditionRoutes(app: ZodApp, conditions: ToppingConditions): void {
  registerSaleConditionRoutes(app, 'topping', toppingConditions, conditions, {
    tag: 'topping conditions',
    list: {
      summary: "A store's toppings' sale condition and remaining quantity (トッピングの販売状態・残数一覧取得)",
      description: '404 when the store does not exist, 400 when it is suspended. An order naming a topping lowers a counted quantity (soldout at 0).',
    },
    put: {
      summary: "Set a topping's sale condition and remaining quantity at a store (keys not sent are kept)",
      description: 'quantity null means not counted; quantity 0 without a condition makes it soldout. Raises waiter:topping-conditions.',
    },
  });
}
