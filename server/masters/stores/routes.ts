import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { StoreRepo } from './repo.js';
import { createStoreBody, getStoreQuery, listStoresQuery, partsOf, presentStore, store, storeParams, updateStoreBody } from './schema.js';

/** POST and PATCH answer the whole store, pointCondition and receiptPrintInfo included. */
const ALL_PARTS = { pointCondition: true, receiptPrintInfo: true };

export default function storeRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const stores = new StoreRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['stores'];

  return async (app) => {
    app.post(
      '/stores',
      {
        config: { scope: 'pos.stores:write' },
        schema: { tags, summary: 'Register a store', body: createStoreBody, response: { 200: store, ...commonErrorResponses } },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentStore(stores.create(contract.contractId, request.body), contract.timeZone, ALL_PARTS);
      },
    );

    app.get(
      '/stores',
      {
        config: { scope: 'pos.stores:read' },
        schema: {
          tags,
          summary: 'List stores (normal stores and warehouses); with_point_condition and with_receipt_print_info add those objects',
          querystring: listStoresQuery,
          response: { 200: z.array(store), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const rows = stores.list(contract.contractId, request.query, request.query);
        const parts = partsOf(request.query);
        return sendPage(request, reply, request.query, rows).map((r) => presentStore(r, contract.timeZone, parts));
      },
    );

    app.get(
      '/stores/:store_id',
      {
        config: { scope: 'pos.stores:read' },
        schema: {
          tags,
          summary: 'Get a store; with_point_condition and with_receipt_print_info add those objects',
          params: storeParams,
          querystring: getStoreQuery,
          response: { 200: store, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentStore(stores.getPos(contract.contractId, request.params.store_id), contract.timeZone, partsOf(request.query));
      },
    );

    app.patch(
      '/stores/:store_id',
      {
        config: { scope: 'pos.stores:write' },
        schema: {
          tags,
          summary: 'Update a store (only the keys sent change; a store read with both with_* is accepted back as read)',
          params: storeParams,
          body: updateStoreBody,
          response: { 200: store, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentStore(stores.update(contract.contractId, request.params.store_id, request.body), contract.timeZone, ALL_PARTS);
      },
    );
  };
}
