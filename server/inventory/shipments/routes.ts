import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { ShipmentRepo } from './repo.js';
import {
  createShipmentBody,
  getShipmentQuery,
  listShipmentsQuery,
  presentShipment,
  shipment,
  shipmentParams,
  updateShipmentBody,
  type ShipmentRow,
} from './schema.js';

/**
 * Shipments to suppliers and others (spec 2.9, 3.2, 3.3, 4.12); Retail Business only
 * (server/platform/http/plans.ts). Shipping one (status 2) takes its quantities out of the shipment
 * store's stock.
 */
export default function shipmentsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const shipments = new ShipmentRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['shipments'];
  const withDetails = (contractId: string, row: ShipmentRow, zone: string) =>
    presentShipment(row, shipments.detailsOf(contractId, row.shipment_id), zone);

  return async (app) => {
    app.post(
      '/shipments',
      {
        config: { scope: 'pos.orders:write' },
        schema: {
          tags,
          summary: 'Register a shipment; status 2 (shipped) takes its quantities out of the shipment store\'s stock',
          body: createShipmentBody,
          response: { 200: shipment, ...commonErrorResponses },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return withDetails(contract.contractId, shipments.create(contract, request.body), contract.timeZone);
      },
    );

    app.get(
      '/shipments',
      {
        config: { scope: 'pos.orders:read' },
        schema: {
          tags,
          summary: 'List shipments (headers; with_details=all adds the details)',
          querystring: listShipmentsQuery,
          response: { 200: z.array(shipment), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const page = sendPage(request, reply, request.query, shipments.list(contract.contractId, request.query, request.query));
        if (request.query.with_details !== 'all') return page.map((r) => presentShipment(r, null, contract.timeZone));
        const details = shipments.details.byShipment(contract.contractId, page.map((r) => r.shipment_id));
        return page.map((r) => presentShipment(r, details.get(r.shipment_id)!, contract.timeZone));
      },
    );

    app.get(
      '/shipments/:shipment_id',
      {
        config: { scope: 'pos.orders:read' },
        schema: {
          tags,
          summary: 'Get a shipment with its details (with_details=none: the header only)',
          params: shipmentParams,
          querystring: getShipmentQuery,
          response: { 200: shipment, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        const row = shipments.get(contract.contractId, request.params.shipment_id);
        if (request.query.with_details === 'none') return presentShipment(row, null, contract.timeZone);
        return withDetails(contract.contractId, row, contract.timeZone);
      },
    );

    app.patch(
      '/shipments/:shipment_id',
      {
        config: { scope: 'pos.orders:write' },
        schema: {
          tags,
          summary: 'Update a shipment (spec 4.12): approval 0 → 1/2 once, a shipped one stays shipped, details by shipmentDetailId or added',
          params: shipmentParams,
          body: updateShipmentBody,
          response: { 200: shipment, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return withDetails(contract.contractId, shipments.update(contract, request.params.shipment_id, request.body), contract.timeZone);
      },
    );
  };
}
