import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import type { ShippingStatus } from '../../domain/shipping.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
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
  const tags = ['shipping'];

  return async (app) => {
    app.get(
      '/receiving',
      {
        config: { scope: 'pos.transfers:read' },
        schema: { tags, summary: 'List receivings', description: DESCRIPTION, querystring: listReceivingQuery, response: { 200: z.array(receiving), ...commonErrorResponses } },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const q = request.query;
        const rows = shippingOps.repo.listReceiving(
          contract.contractId,
          {
            receiving_store_id: q.receiving_store_id,
            shipping_store_id: q.shipping_store_id,
            shipping_id: q.shipping_id,
            status: q.status === undefined ? undefined : SHIPPING_STATUS_OF[q.status],
            receiving_date: q.receiving_date,
            identification_no: q.identification_no,
          },
          q,
        );
        const page = sendPage(request, reply, q, rows);
        return page.map((r) =>
          presentReceiving(r, contract.timeZone, q.with_details === 'all' ? shippingOps.repo.receivingDetails(contract.contractId, r.shipping_id) : undefined),
        );
      },
    );

    app.get(
      '/receiving/:receiving_id',
      {
        config: { scope: 'pos.transfers:read' },
        schema: {
          tags,
          summary: 'Get a receiving',
          description: DESCRIPTION,
          params: receivingParams,
          querystring: getReceivingQuery,
          response: { 200: receiving, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        const row = operations.get(contract.contractId, request.params.receiving_id);
        const details = request.query.with_details === 'all' ? shippingOps.repo.receivingDetails(contract.contractId, row.shipping_id) : undefined;
        return presentReceiving(row, contract.timeZone, details);
      },
    );

    app.get(
      '/receiving/:receiving_id/details',
      {
        config: { scope: 'pos.transfers:read' },
        schema: {
          tags,
          summary: 'List the details of a receiving',
          params: receivingParams,
          querystring: listReceivingDetailsQuery,
          response: { 200: z.array(receivingDetail), ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const q = request.query;
        const row = operations.get(contract.contractId, request.params.receiving_id);
        let details = shippingOps.repo.receivingDetails(contract.contractId, row.shipping_id).map((d) => presentReceivingDetail(d, contract.timeZone));
        if (q.product_id !== undefined) details = details.filter((d) => d.productId === q.product_id);
        if (q.status !== undefined) details = details.filter((d) => d.status === q.status);
        const key = (d: (typeof details)[number], field: (typeof q.sort)[number]['field']) =>
          field === 'updDateTime' ? d.updDateTime : Number(field === 'productId' ? d.productId : d.receivingDetailId);
        const order = [...q.sort, { field: 'receivingDetailId' as const, desc: false }];
        details.sort((a, b) => {
          for (const { field, desc } of order) {
            const x = key(a, field);
            const y = key(b, field);
            if (x !== y) return (x < y ? -1 : 1) * (desc ? -1 : 1);
          }
          return 0;
        });
        const start = (q.page - 1) * q.limit;
        return sendPage(request, reply, q, details.slice(start, start + q.limit + 1));
      },
    );

    app.patch(
      '/receiving/:receiving_id',
      {
        config: { scope: 'pos.transfers:write' },
        schema: {
          tags,
          summary: 'Update a receiving: its date, memo, staff and the inspection of its details',
          description:
            `${DESCRIPTION} The first update starts the inspection (shipping status 2); the update after which every detail is ` +
            'inspected (counted plus missing equals scheduled) completes the receiving (shipping status 3) and the counted quantities ' +
            'enter the receiving store\'s stock. A product the shipping does not list may be added (scheduled 0): it keeps the receiving ' +
            'open until a modification request lists it. 409 while a modification request is open; 400 once complete.',
          params: receivingParams,
          body: updateReceivingBody,
          response: { 200: receiving, ...commonErrorResponses, 404: problemSchema, 409: problemSchema },
        },
      },
      async (request) => {
        const { contract, clientId, staffId } = authOf(request);
        const { row, details } = operations.update(contract, request.params.receiving_id, request.body, { clientId, staffId });
        return presentReceiving(row, contract.timeZone, details);
      },
    );
  };
}
