import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import type { ShippingStatus } from '../../domain/shipping.js';
import { answers } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { memoryPage } from '../../platform/http/paging.js';
import { ShippingOperations } from './operations.js';
import { ReceivingOperations } from './receiving.js';
import {
  getReceivingQuery,
  listReceivingDetailsQuery,
  listReceivingQuery,
  presentReceiving,
  presentReceivingDetail,
  receiving,
  receivingDetail,
  receivingParams,
  updateReceivingBody,
} from './receiving-schema.js';

/** Receiving status (0, 1, 2) → the shipping status it is (1, 2, 3). */
const SHIPPING_STATUS_OF: Record<string, ShippingStatus> = { '0': '1', '1': '2', '2': '3' };

const DESCRIPTION =
  'The platform\'s receiving (入庫) is the receiving store\'s side of a store-to-store shipping (spec 2.8: both share the record, ' +
  'receivingId = shippingId). It exists once the shipping is sent out; status 0 not received, 1 inspecting, 2 complete.';

/** The receiving side of store-to-store shipping: list, get, its details and its update. */
export default function receivingRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const shippingOps = new ShippingOperations(deps.db, deps.writer, deps.ids, deps.clock);
  const operations = new ReceivingOperations(shippingOps);

  return async (app) => {
    const route = apiRoutes(app, ['shipping']);

    route.get(
      '/receiving',
      'pos.transfers:read',
      { summary: 'List receivings', description: DESCRIPTION, querystring: listReceivingQuery, response: answers.list(receiving) },
      ({ contract, query: q, page }) => {
        const filters = {
          receiving_store_id: q.receiving_store_id,
          shipping_store_id: q.shipping_store_id,
          shipping_id: q.shipping_id,
          status: q.status === undefined ? undefined : SHIPPING_STATUS_OF[q.status],
          receiving_date: q.receiving_date,
          identification_no: q.identification_no,
        };
        return page(shippingOps.repo.listReceiving(contract.contractId, filters, q), (r) =>
          presentReceiving(r, contract.timeZone, q.with_details === 'all' ? shippingOps.repo.receivingDetails(contract.contractId, r.shipping_id) : undefined),
        );
      },
    );

    route.get(
      '/receiving/:receiving_id',
      'pos.transfers:read',
      { summary: 'Get a receiving', description: DESCRIPTION, params: receivingParams, querystring: getReceivingQuery, response: answers.found(receiving) },
      ({ contract, params, query }) => {
        const row = operations.get(contract.contractId, params.receiving_id);
        const details = query.with_details === 'all' ? shippingOps.repo.receivingDetails(contract.contractId, row.shipping_id) : undefined;
        return presentReceiving(row, contract.timeZone, details);
      },
    );

    route.get(
      '/receiving/:receiving_id/details',
      'pos.transfers:read',
      { summary: 'List the details of a receiving', params: receivingParams, querystring: listReceivingDetailsQuery, response: answers.listOf(receivingDetail) },
      ({ contract, params, query: q, page }) => {
        const row = operations.get(contract.contractId, params.receiving_id);
        const details = shippingOps.repo.receivingDetails(contract.contractId, row.shipping_id).map((d) => presentReceivingDetail(d, contract.timeZone))
          .filter((d) => q.product_id === undefined || d.productId === q.product_id)
          .filter((d) => q.status === undefined || d.status === q.status);
        return page(memoryPage(details, q, 'receivingDetailId', (d, field) => d[field], (field) => field !== 'updDateTime'));
      },
    );

    route.patch(
      '/receiving/:receiving_id',
      'pos.transfers:write',
      {
        summary: 'Update a receiving: its date, memo, staff and the inspection of its details',
        description:
          `${DESCRIPTION} The first update starts the inspection (shipping status 2); the update after which every detail is ` +
          'inspected (counted plus missing equals scheduled) completes the receiving (shipping status 3) and the counted quantities ' +
          'enter the receiving store\'s stock. A product the shipping does not list may be added (scheduled 0): it keeps the receiving ' +
          'open until a modification request lists it. 409 while a modification request is open; 400 once complete.',
        params: receivingParams,
        body: updateReceivingBody,
        response: answers.conflicting(receiving),
      },
      ({ auth, contract, params, body }) => {
        const { row, details } = operations.update(contract, params.receiving_id, body, { clientId: auth.clientId, staffId: auth.staffId });
        return presentReceiving(row, contract.timeZone, details);
      },
    );
  };
}
