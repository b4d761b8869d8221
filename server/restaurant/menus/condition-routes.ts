import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import {
  conditionMenuParams,
  conditionStoreParams,
  listConditionsQuery,
  menuCondition,
  presentCondition,
  putConditionBody,
} from './condition-schema.js';
import type { MenuRepo } from './repo.js';

type App = FastifyInstance<any, any, any, any, ZodTypeProvider>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Spec 4.6 and the write that sets a menu's sale condition; registered by menus/routes.ts. */
export function registerConditionRoutes(app: App, menus: MenuRepo): void {
  const tags = ['menu conditions'];

  app.get(
    '/menu_conditions/stores/:store_id',
    {
      config: { scope: 'waiter.menus:read' },
      schema: {
        tags,
        summary: 'List the sale condition and remaining quantity of the menus of a store (spec 4.6)',
        description:
          'Simple courses are never listed. 404 when the store does not exist, 400 when it is suspended. ' +
          'An order lowers a counted quantity (soldout at 0) and a canceled order item gives it back; ' +
          'both move the change time that updated_from reads.',
        params: conditionStoreParams,
        querystring: listConditionsQuery,
        response: { 200: z.array(menuCondition), ...commonErrorResponses, 404: problemSchema },
      },
    },
    async (request, reply) => {
      const { contract } = authOf(request);
      const { store_id: storeId } = request.params;
      menus.assertStoreOpen(contract.contractId, storeId);
      const rows = menus.listConditions(contract.contractId, storeId, request.query);
      return sendPage(request, reply, request.query, rows).map(presentCondition);
    },
  );

  app.put(
    '/menu_conditions/stores/:store_id/menus/:menu_id',
    {
      config: { scope: 'pos.products:write' },
      schema: {
        tags,
        summary: "Set a menu's sale condition and remaining quantity (keys not sent are kept)",
        description: 'quantity null means not counted; quantity 0 without a condition makes the menu soldout.',
        params: conditionMenuParams,
        body: putConditionBody,
        response: { 200: menuCondition, ...commonErrorResponses, 404: problemSchema },
      },
    },
    async (request) => {
      const { contract } = authOf(request);
      const { store_id: storeId, menu_id: menuId } = request.params;
      return presentCondition(menus.setCondition(contract.contractId, storeId, menuId, request.body));
    },
  );
}
