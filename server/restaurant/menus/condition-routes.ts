import { answers, type ZodApp } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { conditionMenuParams, conditionStoreParams, listConditionsQuery, menuCondition, presentCondition, putConditionBody } from './condition-schema.js';
import type { MenuRepo } from './repo.js';

/** Spec 4.6 and the write that sets a menu's sale condition; registered by menus/routes.ts. */
export function registerConditionRoutes(app: ZodApp, menus: MenuRepo): void {
  const route = apiRoutes(app, ['menu conditions']);

  route.get(
    '/menu_conditions/stores/:store_id',
    'waiter.menus:read',
    {
      summary: 'List the sale condition and remaining quantity of the menus of a store (spec 4.6)',
      description:
        'Simple courses are never listed. 404 when the store does not exist, 400 when it is suspended. ' +
        'An order lowers a counted quantity (soldout at 0) and a canceled order item gives it back; ' +
        'both move the change time that updated_from reads.',
      params: conditionStoreParams,
      querystring: listConditionsQuery,
      response: answers.listOf(menuCondition),
    },
    ({ contract, params, query, page }) => {
      menus.assertStoreOpen(contract.contractId, params.store_id);
      return page(menus.listConditions(contract.contractId, params.store_id, query), presentCondition);
    },
  );

  route.put(
    '/menu_conditions/stores/:store_id/menus/:menu_id',
    'pos.products:write',
    {
      summary: "Set a menu's sale condition and remaining quantity (keys not sent are kept)",
      description: 'quantity null means not counted; quantity 0 without a condition makes the menu soldout.',
      params: conditionMenuParams,
      body: putConditionBody,
      response: answers.found(menuCondition),
    },
    ({ contract, params, body }) => presentCondition(menus.setCondition(contract.contractId, params.store_id, params.menu_id, body)),
  );
}
