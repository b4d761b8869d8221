import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { answers } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { authOf } from '../../platform/http/auth.js';
import { Forbidden } from '../../platform/http/problem.js';
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

  return async (app) => {
    app.addHook('preHandler', async (request) => {
      const { contract } = authOf(request);
      if (!(ORDER_SHIPMENT_PLANS as readonly string[]).includes(contract.plan)) {
        throw new Forbidden(`the contract's plan ${contract.plan} cannot use the order-shipment API (plans: ${ORDER_SHIPMENT_PLANS.join(', ')})`);
      }
    });
    const route = apiRoutes(app, ['order-shipment']);
    const [read, write] = ['order-shipment.orders:read', 'order-shipment.orders:write'] as const;

    route.post('/orders', write, { summary: 'Register an order (head only)', body: createOrderBody, response: answers.one(orderShipmentOrder) }, ({ contract, body }) =>
      presentOrder(orders.create(contract.contractId, body), contract.timeZone),
    );

    route.get('/orders', read, { summary: 'List orders', querystring: listOrdersQuery, response: answers.list(orderShipmentOrder) }, ({ contract, query, page }) =>
      page(orders.list(contract.contractId, { storeId: query.store_id, status: query.status }, query), (r) => presentOrder(r, contract.timeZone)),
    );

    route.get('/orders/:order_head_id', read, { summary: 'Get an order', params: orderHeadParams, response: answers.found(orderShipmentOrder) }, ({ contract, params }) =>
      presentOrder(orders.get(contract.contractId, params.order_head_id), contract.timeZone),
    );

    // Shipping and canceling: each one step from received, refused (409) once the order has left it.
    for (const [step, summary] of [
      ['ship', 'Ship a received order (raises order-shipment:orders, action shipped)'],
      ['cancel', 'Cancel a received order (raises order-shipment:orders, action canceled)'],
    ] as const) {
      route.post(`/orders/:order_head_id/${step}`, write, { summary, params: orderHeadParams, response: answers.conflicting(orderShipmentOrder) }, ({ contract, params }) =>
        presentOrder(orders[step](contract.contractId, params.order_head_id), contract.timeZone),
      );
    }
  };
}
