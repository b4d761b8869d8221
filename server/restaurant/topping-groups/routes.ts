import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { ToppingGroupRepo } from './repo.js';
import {
  createToppingGroupBody,
  listToppingGroupsQuery,
  presentToppingGroup,
  toppingGroup,
  toppingGroupParams,
  updateToppingGroupBody,
} from './schema.js';

/** Topping groups (spec 2.7); the list is spec 4.10, the rest supporting endpoints. No plan lines. */
export default function toppingGroupsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const groups = new ToppingGroupRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['topping groups'];

  return async (app) => {
    app.post(
      '/topping_groups',
      {
        config: { scope: 'pos.products:write' },
        schema: { tags, summary: 'Register a topping group', body: createToppingGroupBody, response: { 200: toppingGroup, ...commonErrorResponses } },
      },
      async (request) => presentToppingGroup(groups.create(authOf(request).contract.contractId, request.body)),
    );

    app.get(
      '/topping_groups',
      {
        config: { scope: 'waiter.menus:read' },
        schema: {
          tags,
          summary: 'List topping groups (spec 4.10)',
          querystring: listToppingGroupsQuery,
          response: { 200: z.array(toppingGroup), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const rows = groups.list(authOf(request).contract.contractId, request.query);
        return sendPage(request, reply, request.query, rows).map(presentToppingGroup);
      },
    );

    app.get(
      '/topping_groups/:topping_group_id',
      {
        config: { scope: 'waiter.menus:read' },
        schema: {
          tags,
          summary: 'Get a topping group',
          params: toppingGroupParams,
          response: { 200: toppingGroup, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => presentToppingGroup(groups.get(authOf(request).contract.contractId, request.params.topping_group_id)),
    );

    app.patch(
      '/topping_groups/:topping_group_id',
      {
        config: { scope: 'pos.products:write' },
        schema: {
          tags,
          summary: 'Update a topping group (only the keys sent change; rule is replaced whole, null clears it)',
          params: toppingGroupParams,
          body: updateToppingGroupBody,
          response: { 200: toppingGroup, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) =>
        presentToppingGroup(groups.update(authOf(request).contract.contractId, request.params.topping_group_id, request.body)),
    );

    app.delete(
      '/topping_groups/:topping_group_id',
      {
        config: { scope: 'pos.products:write' },
        schema: {
          tags,
          summary: 'Delete a topping group',
          params: toppingGroupParams,
          response: { 204: z.null().describe('No Content'), ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request, reply) => {
        groups.delete(authOf(request).contract.contractId, request.params.topping_group_id);
        return reply.code(204).send(null);
      },
    );
  };
}
