import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { answers } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { PurchaseOrderRepo } from './repo.js';
import { listOrderProductsQuery, listOrderStoresQuery, orderProductItem, productsPage, storesPage } from './children.js';
import {
  createPurchaseOrderBody,
  getPurchaseOrderQuery,
  listPurchaseOrdersQuery,
  presentPurchaseOrder,
  purchaseOrder,
  purchaseOrderParams,
  purchaseOrderStore,
} from './schema.js';

/** Purchase orders to suppliers (spec 2.10, 4.14); Retail Business only (server/platform/http/plans.ts). */
export default function purchaseOrdersRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const orders = new PurchaseOrderRepo(deps.db, deps.writer, deps.ids, deps.clock);

  return async (app) => {
    const route = apiRoutes(app, ['purchase orders']);

    route.post(
      '/purchase_orders',
      'pos.orders:write',
      { summary: 'Register a purchase order (spec 4.14): up to 1,000 products, each with its delivery stores', body: createPurchaseOrderBody, response: answers.one(purchaseOrder) },
      ({ contract, body }) => presentPurchaseOrder(orders.create(contract, body), contract.timeZone),
    );

    route.get(
      '/purchase_orders',
      'pos.orders:read',
      {
        summary: 'List purchase orders (headers; with_products=all and with_stores=all add their children)',
        querystring: listPurchaseOrdersQuery,
        response: answers.list(purchaseOrder),
      },
      ({ contract, query, page }) => {
        const rows = page(orders.list(contract.contractId, query, query));
        return orders
          .records(contract.contractId, rows, query.with_products === 'all', query.with_stores === 'all')
          .map((r) => presentPurchaseOrder(r, contract.timeZone));
      },
    );

    route.get(
      '/purchase_orders/:purchase_order_id',
      'pos.orders:read',
      {
        summary: 'Get a purchase order with its products and stores (with_products / with_stores=none leave them out)',
        params: purchaseOrderParams,
        querystring: getPurchaseOrderQuery,
        response: answers.found(purchaseOrder),
      },
      ({ contract, params, query }) => {
        const row = orders.get(contract.contractId, params.purchase_order_id);
        const [record] = orders.records(contract.contractId, [row], query.with_products !== 'none', query.with_stores !== 'none');
        return presentPurchaseOrder(record!, contract.timeZone);
      },
    );

    route.get(
      '/purchase_orders/:purchase_order_id/products',
      'pos.orders:read',
      {
        summary: "List a purchase order's products (with_deliveries=all adds their delivery stores)",
        params: purchaseOrderParams,
        querystring: listOrderProductsQuery,
        response: answers.listOf(orderProductItem),
      },
      ({ contract, params, query, page }) => {
        const row = orders.get(contract.contractId, params.purchase_order_id);
        const [record] = orders.records(contract.contractId, [row], true, false);
        return page(productsPage(presentPurchaseOrder(record!, contract.timeZone).products ?? [], query));
      },
    );

    route.get(
      '/purchase_orders/:purchase_order_id/stores',
      'pos.orders:read',
      { summary: "List a purchase order's delivery stores", params: purchaseOrderParams, querystring: listOrderStoresQuery, response: answers.listOf(purchaseOrderStore) },
      ({ contract, params, query, page }) => {
        const row = orders.get(contract.contractId, params.purchase_order_id);
        const [record] = orders.records(contract.contractId, [row], false, true);
        return page(storesPage(presentPurchaseOrder(record!, contract.timeZone).stores ?? [], query));
      },
    );
  };
}
