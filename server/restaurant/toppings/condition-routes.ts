import { answers, type ZodApp } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { putConditionBody } from '../menus/condition-schema.js';
import { listToppingConditionsQuery, presentToppingCondition, toppingCondition, toppingConditionParams, toppingConditionStoreParams } from './condition-schema.js';
import type { ToppingConditions } from './conditions.js';

/** GET /topping_conditions/stores/{store_id} (the platform's) and the supporting PUT that sets one. */
export function registerToppingConditionRoutes(app: ZodApp, conditions: ToppingConditions): void {
  const route = apiRoutes(app, ['topping conditions']);

  route.get(
    '/topping_conditions/stores/:store_id',
    'waiter.menus:read',
    {
      summary: "A store's toppings' sale condition and remaining quantity (トッピングの販売状態・残数一覧取得)",
      description: '404 when the store does not exist, 400 when it is suspended. An order naming a topping lowers a counted quantity (soldout at 0).',
      params: toppingConditionStoreParams,
      querystring: listToppingConditionsQuery,
      response: answers.listOf(toppingCondition),
    },
    ({ contract, params, query, page }) => {
      conditions.assertStoreOpen(contract.contractId, params.store_id);
      return page(conditions.list(contract.contractId, params.store_id, query), presentToppingCondition);
    },
  );

  route.put(
    '/topping_conditions/stores/:store_id/toppings/:topping_id',
    'pos.products:write',
    {
      summary: "Set a topping's sale condition and remaining quantity at a store (keys not sent are kept)",
      description: 'quantity null means not counted; quantity 0 without a condition makes it soldout. Raises waiter:topping-conditions.',
      params: toppingConditionParams,
      body: putConditionBody,
      response: answers.found(toppingCondition),
    },
    ({ contract, params, body }) => presentToppingCondition(conditions.set(contract.contractId, params.store_id, params.topping_id, body)),
  );
}
