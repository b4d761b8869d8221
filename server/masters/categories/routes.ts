import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { masterRoutes } from '../../platform/http/master-routes.js';
import { CategoryRepo } from './repo.js';
import { category, categoryFields, createCategoryBody, listCategoriesQuery, presentCategory, updateCategoryBody } from './schema.js';

export default function categoryRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return masterRoutes('category', new CategoryRepo(deps.db, deps.writer, deps.ids, deps.clock), {
    tags: ['categories'],
    scope: 'pos.products',
    record: category,
    present: presentCategory,
    fields: categoryFields,
    create: createCategoryBody,
    list: listCategoriesQuery,
    update: updateCategoryBody,
    delete: true,
    summaries: {
      get: 'Get a category (spec 4.3); `fields` limits the response to top-level fields',
      update: 'Update a category (only the keys sent change; a new parent recomputes the subtree levels)',
      delete: 'Delete a category without child categories',
    },
  });
}
