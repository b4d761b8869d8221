import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { registerMasterRoutes } from '../../platform/http/master-routes.js';
import { registerConditionRoutes } from './condition-routes.js';
import { MenuRepo } from './repo.js';
import { createMenuBody, listMenusQuery, menu, presentMenu, updateMenuBody } from './schema.js';

/**
 * The menu master of each store (supporting endpoints, open to every plan) and the sale
 * conditions of spec 4.6 with their supporting write (condition-routes.ts).
 */
export default function menusRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const menus = new MenuRepo(deps.db, deps.writer, deps.ids, deps.clock);

  return async (app) => {
    registerMasterRoutes(app, 'menu', menus, {
      tags: ['menus'],
      scope: { read: 'waiter.menus:read', write: 'pos.products:write' },
      record: menu,
      present: presentMenu,
      create: createMenuBody,
      list: listMenusQuery,
      update: updateMenuBody,
      delete: true,
      summaries: {
        create: 'Register a menu of a store',
        update: 'Update a menu (only the keys sent change; leaving course clears courseDivision)',
      },
    });
    registerConditionRoutes(app, menus);
  };
}
