import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { masterRoutes } from '../../platform/http/master-routes.js';
import { ProductBundleGroupRepo } from './repo.js';
import { createProductBundleGroupBody, listProductBundleGroupsQuery, presentProductBundleGroup, productBundleGroup, updateProductBundleGroupBody } from './schema.js';

/** Product bundle groups (supporting: bundle parent lines of transactions name one). */
export default function productBundleGroupsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return masterRoutes('product_bundle_group', new ProductBundleGroupRepo(deps.db, deps.writer, deps.ids, deps.clock), {
    tags: ['product bundle groups'],
    scope: 'pos.products',
    record: productBundleGroup,
    present: presentProductBundleGroup,
    create: createProductBundleGroupBody,
    list: listProductBundleGroupsQuery,
    update: updateProductBundleGroupBody,
  });
}
