import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { answers } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { problemSchema } from '../../platform/http/problem.js';
import { presentOrder } from '../orders/present.js';
import { OrderRepo } from '../orders/repo.js';
import { tableUseParams, updateTableUseBody } from '../orders/schema.js';
import { Checkout } from './checkout.js';
import { presentTableUseRecord } from './present.js';
import { TableUseBook, type TableUseHistoryRow } from './repo.js';
import { checkoutBody, listTableUsesQuery, seatBody, tableUseDetail, tableUseRecord, type TableUseDetail } from './schema.js';
import { seatParty } from './seating.js';

/**
 * Table uses (テーブル利用) of the waiter API: the history list, one with its orders, its status,
 * seating a party and checkout. Open to every plan, as orders are.
 */
export default function tableUsesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const orders = new OrderRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const book = new TableUseBook(deps.db, deps.writer);
  const checkout = new Checkout(deps);

  const records = (contractId: string, rows: TableUseHistoryRow[], zone: string) => {
    const plain = orders.tableUses.presentMany(contractId, rows.map((r) => r.table_use_id));
    const extras = book.extras(contractId, rows);
    return rows.map((row) => presentTableUseRecord(row, plain.get(row.table_use_id)!, extras, zone));
  };
  const detail = (contractId: string, tableUseId: string, zone: string): TableUseDetail => {
    const row = book.find(contractId, tableUseId)!;
    const [record] = records(contractId, [row], zone);
    const { orderIds, ...plain } = orders.tableUses.presentWithOrders(row);
    const taken = orderIds.map((id) => {
      const order = orders.get(contractId, id);
      return presentOrder(order, orders.items(contractId, order.order_id), plain, zone);
    });
    return { ...record!, orders: taken, orderIds };
  };

  return async (app) => {
    const route = apiRoutes(app, ['table uses']);
    const [read, write] = ['waiter.orders:read', 'waiter.orders:write'] as const;

    route.get(
      '/table_uses',
      'waiter.orders:history',
      {
        summary: 'List table uses (テーブル利用履歴一覧): open ones by default, newest seated first; the next page by cursor',
        querystring: listTableUsesQuery,
        response: answers.list(tableUseRecord),
      },
      ({ contract, query, reply }) => {
        const rows = book.list(contract.contractId, query, contract.timeZone);
        const next = rows.length > query.limit ? rows[query.limit] : undefined;
        if (next) reply.header('link', `<${nextUri(reply.request.url, reply.request.protocol, reply.request.host, next.table_use_id)}>; rel="next"`);
        return records(contract.contractId, rows.slice(0, query.limit), contract.timeZone);
      },
    );

    route.post(
      '/table_uses',
      write,
      { summary: 'Seat a party at free tables (a started table use, before any order)', body: seatBody, response: answers.one(tableUseDetail) },
      ({ contract, body }) => {
        const row = seatParty(deps.writer, orders, book, contract.contractId, body);
        return detail(contract.contractId, String(row.table_use_id), contract.timeZone);
      },
    );

    route.get(
      '/table_uses/:table_use_id',
      read,
      { summary: 'Get a table use (テーブル利用履歴取得) with its orders', params: tableUseParams, response: answers.found(tableUseDetail) },
      ({ contract, params }) => {
        orders.tableUses.get(contract.contractId, params.table_use_id);
        return detail(contract.contractId, params.table_use_id, contract.timeZone);
      },
    );

    route.patch(
      '/table_uses/:table_use_id',
      write,
      { summary: 'Change the status of a table use (started → ended, canceled or merged)', params: tableUseParams, body: updateTableUseBody, response: answers.found(tableUseDetail) },
      ({ contract, params, body }) => {
        orders.tableUses.changeStatus(contract.contractId, params.table_use_id, body.status);
        return detail(contract.contractId, params.table_use_id, contract.timeZone);
      },
    );

    route.put(
      '/table_uses/:table_use_id/checkout',
      write,
      {
        summary: 'Check a table use out (会計): its orders become a sale (or it closes on an existing sale) and it ends',
        description:
          'Without transactionHeadId the items not canceled are registered as one sale by the rules of POST /pos/transactions ' +
          '(terminalId required; payments default to exact cash; a closed day refuses it; stock moves for menus that sell a product). ' +
          'With transactionHeadId the table use closes on that sale of its store. Its reservation becomes paid.',
        params: tableUseParams,
        body: checkoutBody,
        response: { ...answers.found(tableUseDetail), 409: problemSchema },
      },
      ({ contract, params, body }) => {
        checkout.run(contract, params.table_use_id, body);
        return detail(contract.contractId, params.table_use_id, contract.timeZone);
      },
    );
  };
}

/** The list's next page: the same request with `cursor` at the first table use not shown. */
function nextUri(url: string, protocol: string, host: string, cursor: number): string {
  const next = new URL(url, `${protocol}://${host}`);
  next.searchParams.set('cursor', String(cursor));
  return next.toString();
}
