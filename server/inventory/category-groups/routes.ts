import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { masterRoutes } from '../../platform/http/master-routes.js';
import { CategoryGroupRepo } from './repo.js';
import { categoryGroup, categoryGroupFields, createCategoryGroupBody, listCategoryGroupsQuery, presentCategoryGroup, updateCategoryGroupBody } from './schema.js';

/** Category groups (the platform's /category_groups), scope pos.products like categories. */
export default function categoryGroupRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return masterRoutes('category_group', new CategoryGroupRepo(deps.db, deps.writer, deps.ids, deps.clock), {
    tags: ['categories'],
    scope: 'pos.products',
    record: categoryGroup,
    present: presentCategoryGroup,
    fields: categoryGroupFields,
    create: createCategoryGroupBody,
    list: listCategoryGroupsQuery,
    update: updateCategoryGroupBody,
    delete: true,
    summaries: {
      get: 'Get a category group; `fields` limits the response to top-level fields',
      delete: 'Delete a category group no category names',
    },
  });
}
