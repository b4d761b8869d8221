import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { ShippingOperations } from './operations.js';
import {
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
  const tags = ['shipping'];

  return async (app) => {
    app.post(
      '/shipping',
      {
        config: { scope: 'pos.transfers:write' },
        schema: {
          tags,
          summary: 'Register a shipping to another store (status 0, or 1 to send it out now)',
          description: DESCRIPTION,
          body: createShippingBody,
          response: { 200: shipping, ...commonErrorResponses },
        },
      },
      async (request) => {
        const { contract, clientId, staffId } = authOf(request);
        const { row, details } = operations.create(contract, request.body, { clientId, staffId });
        return presentShipping(row, contract.timeZone, details);
      },
    );

    app.get(
      '/shipping',
      {
        config: { scope: 'pos.transfers:read' },
        schema: { tags, summary: 'List shippings', querystring: listShippingsQuery, response: { 200: z.array(shipping), ...commonErrorResponses } },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const q = request.query;
        const rows = operations.repo.list(
          contract.contractId,
          {
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
          },
          q,
        );
        const page = sendPage(request, reply, q, rows);
        const details = q.with_details === 'all' ? operations.repo.detailsOfPage(contract.contractId, page.map((r) => r.shipping_id)) : null;
        return page.map((r) => presentShipping(r, contract.timeZone, details?.get(r.shipping_id)));
      },
    );

    app.get(
      '/shipping/:shipping_id',
      {
        config: { scope: 'pos.transfers:read' },
        schema: {
          tags,
          summary: 'Get a shipping',
          params: shippingParams,
          querystring: getShippingQuery,
          response: { 200: shipping, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        const row = operations.get(contract.contractId, request.params.shipping_id);
        const details = request.query.with_details === 'all' ? operations.repo.details(contract.contractId, row.shipping_id) : undefined;
        return presentShipping(row, contract.timeZone, details);
      },
    );

    app.patch(
      '/shipping/:shipping_id',
      {
        config: { scope: 'pos.transfers:write' },
        schema: {
          tags,
          summary: 'Update a shipping: its fields and details, its approval, one status step',
          description:
            `${DESCRIPTION} Status moves one step forward: 0 → 1 needs approvalStatus 1; 2 → 3 completes the receiving with the counted ` +
            'quantities (uncounted details in full). During receiving inspection (2) the shipping side (any key but status) may change only ' +
            'under an open modification request (409 otherwise); its edits wait for the request\'s completion to reach the receiving side, ' +
            'and the receiving cannot be completed while the request is open (409). A received shipping (3) takes no update (400).',
          params: shippingParams,
          body: updateShippingBody,
          response: { 200: shipping, ...commonErrorResponses, 404: problemSchema, 409: problemSchema },
        },
      },
      async (request) => {
        const { contract, clientId, staffId } = authOf(request);
        const { row, details } = operations.update(contract, request.params.shipping_id, request.body, { clientId, staffId });
        return presentShipping(row, contract.timeZone, details);
      },
    );

    app.post(
      '/shipping/:shipping_id/modification_request',
      {
        config: { scope: 'pos.transfers:write' },
        schema: {
          tags,
          summary: 'Request a modification of a shipping in receiving inspection (4.2)',
          description:
            'Sets modificationRequestStatus 1 and modificationRequestDateTime; a memo given replaces the memo. While it is open the shipping ' +
            'side may be updated and the receiving side may not (409), until POST /shipping_modification_requests/{shipping_id}/complete. ' +
            '409 when a request is already open or the receiving is not in inspection (status 2).',
          params: shippingParams,
          body: modificationRequestBody,
          response: { 200: shipping, ...commonErrorResponses, 404: problemSchema, 409: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        const { row, details } = operations.requestModification(contract, request.params.shipping_id, request.body);
        return presentShipping(row, contract.timeZone, details);
      },
    );
  };
}
