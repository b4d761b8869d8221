import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { registerMasterRoutes } from '../../platform/http/master-routes.js';
import { ToppingRepo } from './repo.js';
import { createToppingBody, listToppingsQuery, presentTopping, topping, updateToppingBody } from './schema.js';
import { registerStoreToppingGroups } from './store-groups.js';
import { registerToppingConditionRoutes } from './condition-routes.js';
import { ToppingConditions } from './conditions.js';

/**
 * Toppings: GET /toppings and GET /toppings/{topping_id} are the platform's (read with
 * waiter.menus:read); create, update and delete are supporting endpoints written with
 * pos.products:write, as menus and topping groups are. A store's topping groups with their
 * toppings are the platform's too (store-groups.ts), and their conditions at a store
 * (condition-routes.ts). No plan lines.
 */
export default function toppingsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    registerMasterRoutes(app, 'topping', new ToppingRepo(deps.db, deps.writer, deps.ids, deps.clock), {
      tags: ['toppings'],
      scope: { read: 'waiter.menus:read', write: 'pos.products:write' },
      record: topping,
      present: presentTopping,
      create: createToppingBody,
      list: listToppingsQuery,
      update: updateToppingBody,
      delete: true,
      summaries: {
        create: 'Register a topping in a topping group',
        list: 'List toppings (トッピング一覧取得), by topping group and category, in sort_no order',
        get: 'Get a topping (トッピング取得)',
      },
    });
    registerStoreToppingGroups(app, deps);
    registerToppingConditionRoutes(app, new ToppingConditions(deps.db, deps.writer, deps.ids, deps.clock));
  };
}
