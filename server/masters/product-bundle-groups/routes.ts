import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { ProductBundleGroupRepo } from './repo.js';
import {
  createProductBundleGroupBody,
  listProductBundleGroupsQuery,
  presentProductBundleGroup,
  productBundleGroup,
  productBundleGroupParams,
  updateProductBundleGroupBody,
} from './schema.js';

/** Product bundle groups (supporting: bundle parent lines of transactions name one). */
export default function productBundleGroupsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const bundles = new ProductBundleGroupRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['product bundle groups'];

  return async (app) => {
    app.post(
      '/product_bundle_groups',
      {
        config: { scope: 'pos.products:write' },
        schema: {
          tags,
          summary: 'Register a product bundle group',
          body: createProductBundleGroupBody,
          response: { 200: productBundleGroup, ...commonErrorResponses },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentProductBundleGroup(bundles.create(contract.contractId, request.body), contract.timeZone);
      },
    );

    app.get(
      '/product_bundle_groups',
      {
        config: { scope: 'pos.products:read' },
        schema: {
          tags,
          summary: 'List product bundle groups',
          querystring: listProductBundleGroupsQuery,
          response: { 200: z.array(productBundleGroup), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const rows = bundles.list(contract.contractId, request.query, request.query);
        return sendPage(request, reply, request.query, rows).map((r) => presentProductBundleGroup(r, contract.timeZone));
      },
    );

    app.get(
      '/product_bundle_groups/:product_bundle_group_id',
      {
        config: { scope: 'pos.products:read' },
        schema: {
          tags,
          summary: 'Get a product bundle group',
          params: productBundleGroupParams,
          response: { 200: productBundleGroup, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentProductBundleGroup(bundles.get(contract.contractId, request.params.product_bundle_group_id), contract.timeZone);
      },
    );

    app.patch(
      '/product_bundle_groups/:product_bundle_group_id',
      {
        config: { scope: 'pos.products:write' },
        schema: {
          tags,
          summary: 'Update a product bundle group (only the keys sent change)',
          params: productBundleGroupParams,
          body: updateProductBundleGroupBody,
          response: { 200: productBundleGroup, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        const row = bundles.update(contract.contractId, request.params.product_bundle_group_id, request.body);
        return presentProductBundleGroup(row, contract.timeZone);
      },
    );
  };
}
