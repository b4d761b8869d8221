import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, Forbidden, problemSchema } from '../../platform/http/problem.js';
import { OrderShipmentOrderRepo } from './repo.js';
import { createOrderBody, listOrdersQuery, orderHeadParams, orderShipmentOrder, presentOrder } from './schema.js';

/** The platform's order-shipment API is for the Retail Business plan only. */
export const ORDER_SHIPMENT_PLANS = ['retail_business'] as const;

/**
 * /{contract_id}/order-shipment/orders: the order heads that raise 6.1 (order-shipment:orders,
 * shipped / canceled). A supporting resource: head only (id, store, status), created, listed,
 * read, shipped and canceled. Scopes order-shipment.orders:read|write.
 */
export default function orderShipmentRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const orders = new OrderShipmentOrderRepo(deps);
  const tags = ['order-shipment'];
  const response200 = { 200: orderShipmentOrder, ...commonErrorResponses, 404: problemSchema };

  return async (app) => {
    app.addHook('preHandler', async (request) => {
      const { contract } = authOf(request);
      if (!(ORDER_SHIPMENT_PLANS as readonly string[]).includes(contract.plan)) {
        throw new Forbidden(`the contract's plan ${contract.plan} cannot use the order-shipment API (plans: ${ORDER_SHIPMENT_PLANS.join(', ')})`);
      }
    });

    app.post(
      '/orders',
      {
        config: { scope: 'order-shipment.orders:write' },
        schema: { tags, summary: 'Register an order (head only)', body: createOrderBody, response: { 200: orderShipmentOrder, ...commonErrorResponses } },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentOrder(orders.create(contract.contractId, request.body), contract.timeZone);
      },
    );

    app.get(
      '/orders',
      {
        config: { scope: 'order-shipment.orders:read' },
        schema: { tags, summary: 'List orders', querystring: listOrdersQuery, response: { 200: z.array(orderShipmentOrder), ...commonErrorResponses } },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const q = request.query;
        const rows = orders.list(contract.contractId, { storeId: q.store_id, status: q.status }, q);
        return sendPage(request, reply, q, rows).map((r) => presentOrder(r, contract.timeZone));
      },
    );

    app.get(
      '/orders/:order_head_id',
      {
        config: { scope: 'order-shipment.orders:read' },
        schema: { tags, summary: 'Get an order', params: orderHeadParams, response: response200 },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentOrder(orders.get(contract.contractId, request.params.order_head_id), contract.timeZone);
      },
    );

    app.post(
      '/orders/:order_head_id/ship',
      {
        config: { scope: 'order-shipment.orders:write' },
        schema: {
          tags,
          summary: 'Ship a received order (raises order-shipment:orders, action shipped)',
          params: orderHeadParams,
          response: { ...response200, 409: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentOrder(orders.ship(contract.contractId, request.params.order_head_id), contract.timeZone);
      },
    );

    app.post(
      '/orders/:order_head_id/cancel',
      {
        config: { scope: 'order-shipment.orders:write' },
        schema: {
          tags,
          summary: 'Cancel a received order (raises order-shipment:orders, action canceled)',
          params: orderHeadParams,
          response: { ...response200, 409: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentOrder(orders.cancel(contract.contractId, request.params.order_head_id), contract.timeZone);
      },
    );
  };
}
