import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { masterRoutes } from '../../platform/http/master-routes.js';
import { ToppingGroupRepo } from './repo.js';
import { createToppingGroupBody, listToppingGroupsQuery, presentToppingGroup, toppingGroup, updateToppingGroupBody } from './schema.js';

/** Topping groups (spec 2.7); the list is spec 4.10, the rest supporting endpoints. No plan lines. */
export default function toppingGroupsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return masterRoutes('topping_group', new ToppingGroupRepo(deps.db, deps.writer, deps.ids, deps.clock), {
    tags: ['topping groups'],
    scope: { read: 'waiter.menus:read', write: 'pos.products:write' },
    record: toppingGroup,
    present: presentToppingGroup,
    create: createToppingGroupBody,
    list: listToppingGroupsQuery,
    update: updateToppingGroupBody,
    delete: true,
    summaries: {
      list: 'List topping groups (spec 4.10)',
      update: 'Update a topping group (only the keys sent change; rule is replaced whole, null clears it)',
    },
  });
}
