import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { CategoryGroupRepo } from './repo.js';
import {
  categoryGroup,
  categoryGroupParams,
  categoryGroupSubset,
  createCategoryGroupBody,
  getCategoryGroupQuery,
  listCategoryGroupsQuery,
  presentCategoryGroup,
  selectGroupFields,
  updateCategoryGroupBody,
} from './schema.js';

/** Category groups (the platform's /category_groups), scope pos.products like categories. */
export default function categoryGroupRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const groups = new CategoryGroupRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['categories'];

  return async (app) => {
    app.post(
      '/category_groups',
      {
        config: { scope: 'pos.products:write' },
        schema: { tags, summary: 'Register a category group', body: createCategoryGroupBody, response: { 200: categoryGroup, ...commonErrorResponses } },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentCategoryGroup(groups.create(contract.contractId, request.body), contract.timeZone);
      },
    );

    app.get(
      '/category_groups',
      {
        config: { scope: 'pos.products:read' },
        schema: { tags, summary: 'List category groups', querystring: listCategoryGroupsQuery, response: { 200: z.array(categoryGroupSubset), ...commonErrorResponses } },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const { query } = request;
        const rows = groups.list(contract.contractId, query, query);
        return sendPage(request, reply, query, rows).map((r) => selectGroupFields(presentCategoryGroup(r, contract.timeZone), query.fields));
      },
    );

    app.get(
      '/category_groups/:category_group_id',
      {
        config: { scope: 'pos.products:read' },
        schema: {
          tags,
          summary: 'Get a category group; `fields` limits the response to top-level fields',
          params: categoryGroupParams,
          querystring: getCategoryGroupQuery,
          response: { 200: categoryGroupSubset, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        const row = groups.get(contract.contractId, request.params.category_group_id);
        return selectGroupFields(presentCategoryGroup(row, contract.timeZone), request.query.fields);
      },
    );

    app.patch(
      '/category_groups/:category_group_id',
      {
        config: { scope: 'pos.products:write' },
        schema: {
          tags,
          summary: 'Update a category group (only the keys sent change)',
          params: categoryGroupParams,
          body: updateCategoryGroupBody,
          response: { 200: categoryGroup, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentCategoryGroup(groups.update(contract.contractId, request.params.category_group_id, request.body), contract.timeZone);
      },
    );

    app.delete(
      '/category_groups/:category_group_id',
      {
        config: { scope: 'pos.products:write' },
        schema: {
          tags,
          summary: 'Delete a category group no category names',
          params: categoryGroupParams,
          response: { 204: z.null().describe('No Content'), ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        groups.delete(contract.contractId, request.params.category_group_id);
        return reply.code(204).send(null);
      },
    );
  };
}
