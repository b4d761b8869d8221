import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { answers } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { ShipmentRepo } from './repo.js';
import { createShipmentBody, getShipmentQuery, listShipmentsQuery, presentShipment, shipment, shipmentParams, updateShipmentBody, type ShipmentRow } from './schema.js';

/**
 * Shipments to suppliers and others (spec 2.9, 3.2, 3.3, 4.12); Retail Business only
 * (server/platform/http/plans.ts). Shipping one (status 2) takes its quantities out of the shipment
 * store's stock.
 */
export default function shipmentsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const shipments = new ShipmentRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const withDetails = (contractId: string, row: ShipmentRow, zone: string) =>
    presentShipment(row, shipments.detailsOf(contractId, row.shipment_id), zone);

  return async (app) => {
    const route = apiRoutes(app, ['shipments']);

    route.post(
      '/shipments',
      'pos.orders:write',
      {
        summary: "Register a shipment; status 2 (shipped) takes its quantities out of the shipment store's stock",
        body: createShipmentBody,
        response: answers.one(shipment),
      },
      ({ contract, body }) => withDetails(contract.contractId, shipments.create(contract, body), contract.timeZone),
    );

    route.get(
      '/shipments',
      'pos.orders:read',
      { summary: 'List shipments (headers; with_details=all adds the details)', querystring: listShipmentsQuery, response: answers.list(shipment) },
      ({ contract, query, page }) => {
        const rows = page(shipments.list(contract.contractId, query, query));
        if (query.with_details !== 'all') return rows.map((r) => presentShipment(r, null, contract.timeZone));
        const details = shipments.details.byShipment(contract.contractId, rows.map((r) => r.shipment_id));
        return rows.map((r) => presentShipment(r, details.get(r.shipment_id)!, contract.timeZone));
      },
    );

    route.get(
      '/shipments/:shipment_id',
      'pos.orders:read',
      {
        summary: 'Get a shipment with its details (with_details=none: the header only)',
        params: shipmentParams,
        querystring: getShipmentQuery,
        response: answers.found(shipment),
      },
      ({ contract, params, query }) => {
        const row = shipments.get(contract.contractId, params.shipment_id);
        if (query.with_details === 'none') return presentShipment(row, null, contract.timeZone);
        return withDetails(contract.contractId, row, contract.timeZone);
      },
    );

    route.patch(
      '/shipments/:shipment_id',
      'pos.orders:write',
      {
        summary: 'Update a shipment (spec 4.12): approval 0 → 1/2 once, a shipped one stays shipped, details by shipmentDetailId or added',
        params: shipmentParams,
        body: updateShipmentBody,
        response: answers.found(shipment),
      },
      ({ contract, params, body }) => withDetails(contract.contractId, shipments.update(contract, params.shipment_id, body), contract.timeZone),
    );
  };
}
