import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { answers } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { NotFound } from '../../platform/http/problem.js';
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
  updateItemBody,
} from './schema.js';

/**
 * Restaurant orders (spec 2.12, 4.17) and the supporting operations the ordering side calls:
 * taking an order (which seats the party when needed) and item status. Open to every plan.
 * Table uses themselves are server/restaurant/table-uses.
 */
export default function ordersRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const orders = new OrderRepo(deps.db, deps.writer, deps.ids, deps.clock);
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
    const route = apiRoutes(app, ['orders']);
    const [read, write] = ['waiter.orders:read', 'waiter.orders:write'] as const;

    route.post(
      '/orders',
      write,
      { summary: 'Take an order at a table use (a new table use on tableIds when no tableUseId is given)', body: createOrderBody, response: answers.one(order) },
      ({ contract, body }) => present(orders.create(contract.contractId, body), contract.timeZone),
    );

    route.post(
      '/table_uses/:table_use_id/orders',
      write,
      { summary: 'Take an order at an open table use (the platform path of the waiter API)', params: tableUseParams, body: createTableUseOrderBody, response: answers.found(order) },
      ({ contract, params, body }) => {
        const tableUseId = params.table_use_id;
        if (!orders.tableUses.find(contract.contractId, tableUseId)) throw NotFound.field('table_use_id', `table use ${tableUseId} does not exist`);
        return present(orders.create(contract.contractId, { tableUseId, ordered: body.ordered, items: body.items }), contract.timeZone);
      },
    );

    route.get(
      '/orders',
      read,
      { summary: 'List orders (by default in ordered order), e.g. of a store or a table use', querystring: listOrdersQuery, response: answers.list(order) },
      ({ contract, query, page }) => presentPage(contract.contractId, page(orders.list(contract.contractId, query, query)), contract.timeZone),
    );

    route.get('/orders/:order_id', read, { summary: 'Get an order (spec 4.17)', params: orderParams, response: answers.found(order) }, ({ contract, params }) =>
      present(orders.get(contract.contractId, params.order_id), contract.timeZone),
    );

    route.patch(
      '/orders/:order_id/items/:item_id',
      write,
      {
        summary: 'Change an order item: its status (waiting, provided, canceled) or a lower quantity (the platform’s two forms); answers the order',
        params: itemParams,
        body: updateItemBody,
        response: answers.found(order),
      },
      ({ contract, params, body }) => {
        const cid = contract.contractId;
        const row = body.quantity === undefined
          ? orders.changeItemStatus(cid, params.order_id, params.item_id, body.status!)
          : orders.changeItemQuantity(cid, params.order_id, params.item_id, body.quantity);
        return present(row, contract.timeZone);
      },
    );
  };
}
