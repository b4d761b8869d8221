import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { CategoryRepo } from './repo.js';
import {
  category,
  categoryParams,
  categorySubset,
  createCategoryBody,
  getCategoryQuery,
  listCategoriesQuery,
  presentCategory,
  selectFields,
  updateCategoryBody,
} from './schema.js';

export default function categoryRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const categories = new CategoryRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['categories'];

  return async (app) => {
    app.post(
      '/categories',
      {
        config: { scope: 'pos.products:write' },
        schema: { tags, summary: 'Register a category', body: createCategoryBody, response: { 200: category, ...commonErrorResponses } },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentCategory(categories.create(contract.contractId, request.body), contract.timeZone);
      },
    );

    app.get(
      '/categories',
      {
        config: { scope: 'pos.products:read' },
        schema: {
          tags,
          summary: 'List categories',
          querystring: listCategoriesQuery,
          response: { 200: z.array(categorySubset), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const { query } = request;
        const rows = categories.list(contract.contractId, query, query);
        return sendPage(request, reply, query, rows).map((r) => selectFields(presentCategory(r, contract.timeZone), query.fields));
      },
    );

    app.get(
      '/categories/:category_id',
      {
        config: { scope: 'pos.products:read' },
        schema: {
          tags,
          summary: 'Get a category (spec 4.3); `fields` limits the response to top-level fields',
          params: categoryParams,
          querystring: getCategoryQuery,
          response: { 200: categorySubset, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        const row = categories.get(contract.contractId, request.params.category_id);
        return selectFields(presentCategory(row, contract.timeZone), request.query.fields);
      },
    );

    app.patch(
      '/categories/:category_id',
      {
        config: { scope: 'pos.products:write' },
        schema: {
          tags,
          summary: 'Update a category (only the keys sent change; a new parent recomputes the subtree levels)',
          params: categoryParams,
          body: updateCategoryBody,
          response: { 200: category, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentCategory(categories.update(contract.contractId, request.params.category_id, request.body), contract.timeZone);
      },
    );

    app.delete(
      '/categories/:category_id',
      {
        config: { scope: 'pos.products:write' },
        schema: {
          tags,
          summary: 'Delete a category without child categories',
          params: categoryParams,
          response: { 204: z.null().describe('No Content'), ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        categories.delete(contract.contractId, request.params.category_id);
        return reply.code(204).send(null);
      },
    );
  };
}
