import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { PurchaseOrderRepo } from './repo.js';
import {
  createPurchaseOrderBody,
  getPurchaseOrderQuery,
  listPurchaseOrdersQuery,
  presentPurchaseOrder,
  purchaseOrder,
  purchaseOrderParams,
} from './schema.js';

/** Purchase orders to suppliers (spec 2.10, 4.14); Retail Business only (server/platform/http/plans.ts). */
export default function purchaseOrdersRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const orders = new PurchaseOrderRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['purchase orders'];

  return async (app) => {
    app.post(
      '/purchase_orders',
      {
        config: { scope: 'pos.orders:write' },
        schema: {
          tags,
          summary: 'Register a purchase order (spec 4.14): up to 1,000 products, each with its delivery stores',
          body: createPurchaseOrderBody,
          response: { 200: purchaseOrder, ...commonErrorResponses },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentPurchaseOrder(orders.create(contract, request.body), contract.timeZone);
      },
    );

    app.get(
      '/purchase_orders',
      {
        config: { scope: 'pos.orders:read' },
        schema: {
          tags,
          summary: 'List purchase orders (headers; with_products=all and with_stores=all add their children)',
          querystring: listPurchaseOrdersQuery,
          response: { 200: z.array(purchaseOrder), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const { query } = request;
        const rows = sendPage(request, reply, query, orders.list(contract.contractId, query, query));
        return orders
          .records(contract.contractId, rows, query.with_products === 'all', query.with_stores === 'all')
          .map((r) => presentPurchaseOrder(r, contract.timeZone));
      },
    );

    app.get(
      '/purchase_orders/:purchase_order_id',
      {
        config: { scope: 'pos.orders:read' },
        schema: {
          tags,
          summary: 'Get a purchase order with its products and stores (with_products / with_stores=none leave them out)',
          params: purchaseOrderParams,
          querystring: getPurchaseOrderQuery,
          response: { 200: purchaseOrder, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        const { query } = request;
        const row = orders.get(contract.contractId, request.params.purchase_order_id);
        const [record] = orders.records(contract.contractId, [row], query.with_products !== 'none', query.with_stores !== 'none');
        return presentPurchaseOrder(record!, contract.timeZone);
      },
    );
  };
}
