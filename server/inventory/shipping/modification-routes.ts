import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { answers } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { ShippingOperations } from './operations.js';
import { presentShipping, shipping, shippingParams } from './schema.js';

/** The platform's completion of a shipping modification request (4.19), on its own path. */
export default function shippingModificationRequestRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const operations = new ShippingOperations(deps.db, deps.writer, deps.ids, deps.clock);
  return async (app) => {
    apiRoutes(app, ['shipping']).post(
      '/shipping_modification_requests/:shipping_id/complete',
      'pos.transfers:write',
      {
        summary: 'Complete a shipping modification request (4.19)',
        description:
          'The platform\'s operation for spec 4.19: no body. Moves modificationRequestStatus 1 → 2 and sets ' +
          'modificationRequestCheckedDateTime; the shipping details edited under the request become the receiving details\' ' +
          'scheduled quantities (a product new to the receiving is added to it, one no longer listed is scheduled 0; counted ' +
          'quantities are kept), and the receiving may be updated again. 404 when the shipping does not exist; 409 when no request is open.',
        params: shippingParams,
        response: answers.conflicting(shipping),
      },
      ({ contract, params }) => {
        const { row, details } = operations.completeModification(contract, params.shipping_id);
        return presentShipping(row, contract.timeZone, details);
      },
    );
  };
}
