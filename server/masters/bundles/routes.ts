import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { answers, sendNoContent } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { registerMasterRoutes } from '../../platform/http/master-routes.js';
import { BundleRepo } from './repo.js';
import { bundle, bundleFields, bundleParams, bundleProductParams, createBundleBody, listBundlesQuery, presentBundle, updateBundleBody } from './schema.js';

/**
 * The platform's bundle sales (バンドル販売, issue 26): spec 2.13's product bundle groups seen
 * with the platform's fields and targets. Every answer carries the bundle's targets.
 */
export default function bundlesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const bundles = new BundleRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['bundles'];
  const records = {
    create: bundles.create.bind(bundles),
    list: bundles.list.bind(bundles),
    get: (contractId: string, id: string) => bundles.record(contractId, id),
    update: bundles.update.bind(bundles),
    delete: bundles.delete.bind(bundles),
  };

  return async (app) => {
    registerMasterRoutes(app, 'product_bundle_group', records, {
      tags,
      scope: 'pos.products',
      path: '/bundles',
      params: bundleParams,
      noun: ['bundle', 'bundles'],
      record: bundle,
      present: presentBundle,
      fields: bundleFields,
      create: createBundleBody,
      list: listBundlesQuery,
      update: updateBundleBody,
      delete: true,
      summaries: {
        create: 'Register a bundle sale with its targets (the same record as a product bundle group)',
        list: 'List bundle sales (/product_bundle_groups shows the same records)',
        get: 'Get a bundle sale with its targets',
        update: 'Update a bundle sale (only the keys sent change; products adds targets)',
        delete: 'Delete a bundle sale with its targets',
      },
    });

    apiRoutes(app, tags).delete(
      '/bundles/:product_bundle_group_id/products/:product_bundle_id',
      'pos.products:write',
      { summary: 'Remove a target from a bundle sale (not its last one)', params: bundleProductParams, response: answers.noContent() },
      ({ contract, params, reply }) => {
        bundles.removeProduct(contract.contractId, params.product_bundle_group_id, params.product_bundle_id);
        return sendNoContent(reply);
      },
    );
  };
}
