import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { assertReceiver } from '../../platform/http/receivers.js';
import { authOf, type RequestAuth } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { makeBulkAddJobs } from './bulk.js';
import { StockRepo, type StockActor } from './repo.js';
import {
  addStockBody,
  bulkAccepted,
  bulkAddStockBody,
  listStockChangesQuery,
  listStockQuery,
  presentStock,
  presentStockChange,
  presentStockChangeResult,
  selectStockFields,
  setStockBody,
  stockChange,
  stockChangeResult,
  stockChangesParams,
  stockParams,
  stockSubset,
} from './schema.js';

const actorOf = (auth: RequestAuth): StockActor => ({ clientId: auth.clientId, staffId: auth.staffId });

/** The platform's stock routes (issue 14 item 2): quantities per store and product, and their movements. */
export default function stockRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const stock = new StockRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['stock'];

  return async (app) => {
    // Bulk adds are applied after their answer; those a stop left stored are applied once the app is ready.
    const bulk = makeBulkAddJobs(deps, stock, app.log);
    app.addHook('onReady', async () => bulk.start());
    app.addHook('onClose', async () => bulk.close());

    app.get(
      '/stock',
      {
        config: { scope: 'pos.stock:read' },
        schema: {
          tags,
          summary: 'List quantities by store and product (a product is listed at a store once its quantity has moved there)',
          querystring: listStockQuery,
          response: { 200: z.array(stockSubset), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const { query } = request;
        const rows = stock.list(contract.contractId, query, query);
        return sendPage(request, reply, query, rows).map((r) => selectStockFields(presentStock(r, contract.timeZone), query.fields));
      },
    );

    app.patch(
      '/stock/:product_id',
      {
        config: { scope: 'pos.stock:write' },
        schema: {
          tags,
          summary: "Set a store's quantity of a product (recorded as a stock change of the difference: 15 API, or 01 correction from the back-office UI)",
          params: stockParams,
          body: setStockBody,
          response: { 200: stockChangeResult, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const auth = authOf(request);
        const { stock: row, movement } = stock.set(auth.contract.contractId, request.params.product_id, request.body, actorOf(auth));
        return presentStockChangeResult(row, movement, auth.contract.timeZone);
      },
    );

    app.post(
      '/stock/:product_id/add',
      {
        config: { scope: 'pos.stock:write' },
        schema: {
          tags,
          summary: "Add to a store's quantity of a product (negative: take; a stock change 15 API, or 01 correction from the back-office UI)",
          params: stockParams,
          body: addStockBody,
          response: { 200: stockChangeResult, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const auth = authOf(request);
        const { stock: row, movement } = stock.add(auth.contract.contractId, request.params.product_id, request.body, actorOf(auth));
        return presentStockChangeResult(row, movement, auth.contract.timeZone);
      },
    );

    app.post(
      '/stock/add/bulk',
      {
        config: { scope: 'pos.stock:write' },
        schema: {
          tags,
          summary: 'Add to quantities in bulk (up to 100 entries), processed after the answer; the result is notified to callbackUrl (pos:stock, bulk-update)',
          body: bulkAddStockBody,
          response: { 200: bulkAccepted, ...commonErrorResponses },
        },
      },
      async (request) => {
        const auth = authOf(request);
        // The notice goes out from here: at head office only to public addresses (platform/http/receivers.ts).
        if (request.body.callbackUrl) await assertReceiver(deps.config, request.body.callbackUrl, 'callbackUrl');
        // Stored before the answer, so an accepted request is applied even after a stop or crash.
        const requestId = bulk.accept(auth.contract.contractId, request.body, actorOf(auth));
        return { requestId, callbackUrl: request.body.callbackUrl };
      },
    );

    app.get(
      '/stock/changes/:product_id/:store_id',
      {
        config: { scope: 'pos.stock-changes:read' },
        schema: {
          tags,
          summary: "A store's stock history of a product (the platform's stock changes: stockDivision, amount, stockAmount after it), by id unless sorted",
          params: stockChangesParams,
          querystring: listStockChangesQuery,
          response: { 200: z.array(stockChange), ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const rows = stock.changes(contract.contractId, request.params.product_id, request.params.store_id, request.query, contract.timeZone);
        return sendPage(request, reply, request.query, rows).map((m) => presentStockChange(m, contract.timeZone));
      },
    );
  };
}
