import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { answers } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { ShippingOperations } from './operations.js';
import {
  approvalBody,
  createShippingBody,
  getShippingQuery,
  listShippingsQuery,
  modificationRequestBody,
  presentShipping,
  shipping,
  shippingParams,
  updateShippingBody,
} from './schema.js';

const DESCRIPTION =
  'One record for both stores (spec 2.8): status 0 not shipped, 1 not received (sent out: the shipping store\'s stock leaves), ' +
  '2 receiving inspection, 3 receiving complete (the receiving store\'s stock enters). The receiving store sees it under /receiving ' +
  '(receivingId = shippingId).';

/** Store-to-store shipping (spec 2.8, 3.1, 3.4, 4.2): the shipping store's side of the record. */
export default function shippingRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const operations = new ShippingOperations(deps.db, deps.writer, deps.ids, deps.clock);

  return async (app) => {
    const route = apiRoutes(app, ['shipping']);

    route.post(
      '/shipping',
      'pos.transfers:write',
      {
        summary: 'Register a shipping to another store (status 0, or 1 to send it out now)',
        description: DESCRIPTION,
        body: createShippingBody,
        response: answers.one(shipping),
      },
      ({ auth, contract, body }) => {
        const { row, details } = operations.create(contract, body, { clientId: auth.clientId, staffId: auth.staffId });
        return presentShipping(row, contract.timeZone, details);
      },
    );

    route.get(
      '/shipping',
      'pos.transfers:read',
      { summary: 'List shippings', querystring: listShippingsQuery, response: answers.list(shipping) },
      ({ contract, query: q, page }) => {
        const filters = {
          receiving_store_id: q.receiving_store_id,
          shipping_store_id: q.shipping_store_id,
          status: q.status,
          approval_status: q.approval_status,
          modification_request_status: q.modification_request_status,
          receiving_desired_date: q.receiving_desired_date,
          receiving_expected_date_from: q.receiving_expected_date_from,
          receiving_expected_date_to: q.receiving_expected_date_to,
          shipping_date: q.shipping_date,
          identification_no: q.identification_no,
        };
        const rows = page(operations.repo.list(contract.contractId, filters, q));
        const details = q.with_details === 'all' ? operations.repo.detailsOfPage(contract.contractId, rows.map((r) => r.shipping_id)) : null;
        return rows.map((r) => presentShipping(r, contract.timeZone, details?.get(r.shipping_id)));
      },
    );

    route.get(
      '/shipping/:shipping_id',
      'pos.transfers:read',
      { summary: 'Get a shipping', params: shippingParams, querystring: getShippingQuery, response: answers.found(shipping) },
      ({ contract, params, query }) => {
        const row = operations.get(contract.contractId, params.shipping_id);
        const details = query.with_details === 'all' ? operations.repo.details(contract.contractId, row.shipping_id) : undefined;
        return presentShipping(row, contract.timeZone, details);
      },
    );

    route.patch(
      '/shipping/:shipping_id',
      'pos.transfers:write',
      {
        summary: 'Update a shipping: its fields and details, its approval, one status step',
        description:
          `${DESCRIPTION} Status moves one step forward: 0 → 1 needs approvalStatus 1; 2 → 3 completes the receiving with the counted ` +
          'quantities (uncounted details in full). During receiving inspection (2) the shipping side (any key but status) may change only ' +
          'under an open modification request (409 otherwise); its edits wait for the request\'s completion to reach the receiving side, ' +
          'and the receiving cannot be completed while the request is open (409). A received shipping (3) takes no update (400).',
        params: shippingParams,
        body: updateShippingBody,
        response: answers.conflicting(shipping),
      },
      ({ auth, contract, params, body }) => {
        const { row, details } = operations.update(contract, params.shipping_id, body, { clientId: auth.clientId, staffId: auth.staffId });
        return presentShipping(row, contract.timeZone, details);
      },
    );

    route.patch(
      '/shipping/:shipping_id/approval',
      'pos.transfers:write',
      {
        summary: 'Approve or reject a shipping not sent out (出庫承認); approving sends it out',
        description:
          'The platform\'s approval operation, which its shipping update names for sending a shipping out (0 → 1). approvalStatus 1 ' +
          'approves a shipping not shipped (0) and sends it out at once: status 1, the shipping store\'s stock leaves, the receiving side ' +
          'is generated; an unapproved (0) shipping gets approvalDateTime now, one already approved (a contract without the approval ' +
          'function) keeps it. approvalStatus 2 rejects an unapproved shipping, which stays not shipped. The dates and memo sent change ' +
          'with it. 400 when the shipping is already sent out, rejected, or (for 2) approved.',
        params: shippingParams,
        body: approvalBody,
        response: answers.found(shipping),
      },
      ({ auth, contract, params, body }) => {
        const { row, details } = operations.approve(contract, params.shipping_id, body, { clientId: auth.clientId, staffId: auth.staffId });
        return presentShipping(row, contract.timeZone, details);
      },
    );

    route.post(
      '/shipping/:shipping_id/modification_request',
      'pos.transfers:write',
      {
        summary: 'Request a modification of a shipping in receiving inspection (4.2)',
        description:
          'Sets modificationRequestStatus 1 and modificationRequestDateTime; a memo given replaces the memo. While it is open the shipping ' +
          'side may be updated and the receiving side may not (409), until POST /shipping_modification_requests/{shipping_id}/complete. ' +
          '409 when a request is already open or the receiving is not in inspection (status 2).',
        params: shippingParams,
        body: modificationRequestBody,
        response: answers.conflicting(shipping),
      },
      ({ contract, params, body }) => {
        const { row, details } = operations.requestModification(contract, params.shipping_id, body);
        return presentShipping(row, contract.timeZone, details);
      },
    );
  };
}
