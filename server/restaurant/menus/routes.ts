import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { registerConditionRoutes } from './condition-routes.js';
import { MenuRepo } from './repo.js';
import { createMenuBody, listMenusQuery, menu, menuParams, presentMenu, updateMenuBody } from './schema.js';

/**
 * The menu master of each store (supporting endpoints, open to every plan) and the sale
 * conditions of spec 4.6 with their supporting write (condition-routes.ts).
 */
export default function menusRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const menus = new MenuRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['menus'];

  return async (app) => {
    app.post(
      '/menus',
      {
        config: { scope: 'pos.products:write' },
        schema: { tags, summary: 'Register a menu of a store', body: createMenuBody, response: { 200: menu, ...commonErrorResponses } },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentMenu(menus.create(contract.contractId, request.body), contract.timeZone);
      },
    );

    app.get(
      '/menus',
      {
        config: { scope: 'waiter.menus:read' },
        schema: { tags, summary: 'List menus', querystring: listMenusQuery, response: { 200: z.array(menu), ...commonErrorResponses } },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const rows = menus.list(contract.contractId, request.query, request.query);
        return sendPage(request, reply, request.query, rows).map((r) => presentMenu(r, contract.timeZone));
      },
    );

    app.get(
      '/menus/:menu_id',
      {
        config: { scope: 'waiter.menus:read' },
        schema: { tags, summary: 'Get a menu', params: menuParams, response: { 200: menu, ...commonErrorResponses, 404: problemSchema } },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentMenu(menus.get(contract.contractId, request.params.menu_id), contract.timeZone);
      },
    );

    app.patch(
      '/menus/:menu_id',
      {
        config: { scope: 'pos.products:write' },
        schema: {
          tags,
          summary: 'Update a menu (only the keys sent change; leaving course clears courseDivision)',
          params: menuParams,
          body: updateMenuBody,
          response: { 200: menu, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentMenu(menus.update(contract.contractId, request.params.menu_id, request.body), contract.timeZone);
      },
    );

    app.delete(
      '/menus/:menu_id',
      {
        config: { scope: 'pos.products:write' },
        schema: {
          tags,
          summary: 'Delete a menu',
          params: menuParams,
          response: { 204: z.null().describe('No Content'), ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        menus.delete(contract.contractId, request.params.menu_id);
        return reply.code(204).send(null);
      },
    );

    registerConditionRoutes(app, menus);
  };
}
