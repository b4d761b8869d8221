import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../http/auth.js';
import { commonErrorResponses, problemSchema } from '../../http/problem.js';
import { presentOrder } from './present.js';
import { OrderRepo, type OrderRow } from './repo.js';
import {
  createOrderBody,
  itemParams,
  order,
  orderParams,
  tableUse,
  tableUseParams,
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

  return async (app) => {
    app.post(
      '/orders',
      {
        config: { scope: 'pos.orders:write' },
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

    app.get(
      '/orders/:order_id',
      {
        config: { scope: 'pos.orders:read' },
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
        config: { scope: 'pos.orders:write' },
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
        config: { scope: 'pos.orders:read' },
        schema: { tags, summary: 'Get a table use', params: tableUseParams, response: { 200: tableUse, ...commonErrorResponses, 404: problemSchema } },
      },
      async (request) => {
        const { contract } = authOf(request);
        return orders.tableUses.present(orders.tableUses.get(contract.contractId, request.params.table_use_id));
      },
    );

    app.patch(
      '/table_uses/:table_use_id',
      {
        config: { scope: 'pos.orders:write' },
        schema: {
          tags,
          summary: 'Change the status of a table use (started → ended, canceled or merged)',
          params: tableUseParams,
          body: updateTableUseBody,
          response: { 200: tableUse, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return orders.tableUses.present(orders.tableUses.changeStatus(contract.contractId, request.params.table_use_id, request.body.status));
      },
    );
  };
}
