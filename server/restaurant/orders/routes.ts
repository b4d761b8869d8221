import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, NotFound, problemSchema } from '../../platform/http/problem.js';
import { presentOrder } from './present.js';
import { OrderRepo, type OrderRow } from './repo.js';
import {
  createOrderBody,
  createTableUseOrderBody,
  itemParams,
  listOrdersQuery,
  order,
  orderParams,
  tableUseParams,
  tableUseWithOrders,
  updateItemBody,
  updateTableUseBody,
} from './schema.js';

/**
 * Restaurant orders (spec 2.12, 4.17) and the supporting operations the ordering side calls:
 * taking an order (which seats the party when needed), item and table-use status. Open to every plan.
 */
export default function ordersRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const orders = new OrderRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['orders'];
  const present = (row: OrderRow, zone: string) =>
    presentOrder(
      row,
      orders.items(row.contract_id, row.order_id),
      orders.tableUses.present(orders.tableUses.find(row.contract_id, row.table_use_id)!),
      zone,
    );
  /** A page of orders with two more queries in all (items, table uses), not two per order. */
  const presentPage = (contractId: string, rows: OrderRow[], zone: string) => {
    const items = orders.itemsOfOrders(contractId, rows.map((r) => r.order_id));
    const uses = orders.tableUses.presentMany(contractId, rows.map((r) => r.table_use_id));
    return rows.map((row) => presentOrder(row, items.get(row.order_id)!, uses.get(row.table_use_id)!, zone));
  };

  return async (app) => {
    app.post(
      '/orders',
      {
        config: { scope: 'waiter.orders:write' },
        schema: {
          tags,
          summary: 'Take an order at a table use (a new table use on tableIds when no tableUseId is given)',
          body: createOrderBody,
          response: { 200: order, ...commonErrorResponses },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return present(orders.create(contract.contractId, request.body), contract.timeZone);
      },
    );

    app.post(
      '/table_uses/:table_use_id/orders',
      {
        config: { scope: 'waiter.orders:write' },
        schema: {
          tags,
          summary: 'Take an order at an open table use (the platform path of the waiter API)',
          params: tableUseParams,
          body: createTableUseOrderBody,
          response: { 200: order, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        const tableUseId = request.params.table_use_id;
        if (!orders.tableUses.find(contract.contractId, tableUseId)) {
          throw NotFound.field('table_use_id', `table use ${tableUseId} does not exist`);
        }
        const { ordered, items } = request.body;
        return present(orders.create(contract.contractId, { tableUseId, ordered, items }), contract.timeZone);
      },
    );

    app.get(
      '/orders',
      {
        config: { scope: 'waiter.orders:read' },
        schema: {
          tags,
          summary: 'List orders (by default in ordered order), e.g. of a store or a table use',
          querystring: listOrdersQuery,
          response: { 200: z.array(order), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const rows = sendPage(request, reply, request.query, orders.list(contract.contractId, request.query, request.query));
        return presentPage(contract.contractId, rows, contract.timeZone);
      },
    );

    app.get(
      '/orders/:order_id',
      {
        config: { scope: 'waiter.orders:read' },
        schema: { tags, summary: 'Get an order (spec 4.17)', params: orderParams, response: { 200: order, ...commonErrorResponses, 404: problemSchema } },
      },
      async (request) => {
        const { contract } = authOf(request);
        return present(orders.get(contract.contractId, request.params.order_id), contract.timeZone);
      },
    );

    app.patch(
      '/orders/:order_id/items/:item_id',
      {
        config: { scope: 'waiter.orders:write' },
        schema: {
          tags,
          summary: 'Change the status of an order item (waiting, provided, canceled); answers the order',
          params: itemParams,
          body: updateItemBody,
          response: { 200: order, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        const { order_id, item_id } = request.params;
        return present(orders.changeItemStatus(contract.contractId, order_id, item_id, request.body.status), contract.timeZone);
      },
    );

    app.get(
      '/table_uses/:table_use_id',
      {
        config: { scope: 'waiter.orders:read' },
        schema: {
          tags,
          summary: 'Get a table use and the ids of its orders',
          params: tableUseParams,
          response: { 200: tableUseWithOrders, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return orders.tableUses.presentWithOrders(orders.tableUses.get(contract.contractId, request.params.table_use_id));
      },
    );

    app.patch(
      '/table_uses/:table_use_id',
      {
        config: { scope: 'waiter.orders:write' },
        schema: {
          tags,
          summary: 'Change the status of a table use (started → ended, canceled or merged)',
          params: tableUseParams,
          body: updateTableUseBody,
          response: { 200: tableUseWithOrders, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return orders.tableUses.presentWithOrders(orders.tableUses.changeStatus(contract.contractId, request.params.table_use_id, request.body.status));
      },
    );
  };
}
