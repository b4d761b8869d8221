import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { answers } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import type { RequestAuth } from '../../platform/http/auth.js';
import { assertReceiver } from '../../platform/http/receivers.js';
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
  setStockBody,
  stockChange,
  stockChangeResult,
  stockChangesParams,
  stockFields,
  stockParams,
} from './schema.js';

const actorOf = (auth: RequestAuth): StockActor => ({ clientId: auth.clientId, staffId: auth.staffId });

/** The platform's stock routes (issue 14 item 2): quantities per store and product, and their movements. */
export default function stockRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const stock = new StockRepo(deps.db, deps.writer, deps.ids, deps.clock);

  return async (app) => {
    // Bulk adds are applied after their answer; those a stop left stored are applied once the app is ready.
    const bulk = makeBulkAddJobs(deps, stock, app.log);
    app.addHook('onReady', async () => bulk.start());
    app.addHook('onClose', async () => bulk.close());
    const route = apiRoutes(app, ['stock']);

    route.get(
      '/stock',
      'pos.stock:read',
      {
        summary: 'List quantities by store and product (a product is listed at a store once its quantity has moved there)',
        querystring: listStockQuery,
        response: answers.list(stockFields.subset),
      },
      ({ contract, query, page }) => page(stock.list(contract.contractId, query, query), (r) => stockFields.select(presentStock(r, contract.timeZone), query.fields)),
    );

    // Setting and adding differ only in what the body's stockAmount means (recorded the same way).
    for (const [method, path, change, summary, body] of [
      [
        route.patch,
        '/stock/:product_id',
        'set',
        "Set a store's quantity of a product (recorded as a stock change of the difference: 15 API, or 01 correction from the back-office UI)",
        setStockBody,
      ],
      [
        route.post,
        '/stock/:product_id/add',
        'add',
        "Add to a store's quantity of a product (negative: take; a stock change 15 API, or 01 correction from the back-office UI)",
        addStockBody,
      ],
    ] as const) {
      method(path, 'pos.stock:write', { summary, params: stockParams, body, response: answers.found(stockChangeResult) }, ({ auth, contract, params, body }) => {
        const { stock: row, movement } = stock[change](contract.contractId, params.product_id, body, actorOf(auth));
        return presentStockChangeResult(row, movement, contract.timeZone);
      });
    }

    route.post(
      '/stock/add/bulk',
      'pos.stock:write',
      {
        summary: 'Add to quantities in bulk (up to 100 entries), processed after the answer; the result is notified to callbackUrl (pos:stock, bulk-update)',
        body: bulkAddStockBody,
        response: answers.one(bulkAccepted),
      },
      async ({ auth, contract, body }) => {
        // The notice goes out from here: at head office only to public addresses (platform/http/receivers.ts).
        if (body.callbackUrl) await assertReceiver(deps.config, body.callbackUrl, 'callbackUrl');
        // Stored before the answer, so an accepted request is applied even after a stop or crash.
        const requestId = bulk.accept(contract.contractId, body, actorOf(auth));
        return { requestId, callbackUrl: body.callbackUrl };
      },
    );

    route.get(
      '/stock/changes/:product_id/:store_id',
      'pos.stock-changes:read',
      {
        summary: "A store's stock history of a product (the platform's stock changes: stockDivision, amount, stockAmount after it), by id unless sorted",
        params: stockChangesParams,
        querystring: listStockChangesQuery,
        response: answers.listOf(stockChange),
      },
      ({ contract, params, query, page }) =>
        page(stock.changes(contract.contractId, params.product_id, params.store_id, query, contract.timeZone), (m) => presentStockChange(m, contract.timeZone)),
    );
  };
}
