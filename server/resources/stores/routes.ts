import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../http/auth.js';
import { sendPage } from '../../http/paging.js';
import { commonErrorResponses, problemSchema } from '../../http/problem.js';
import { StoreRepo } from './repo.js';
import { createStoreBody, listStoresQuery, presentStore, store, storeParams, updateStoreBody } from './schema.js';

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
        return presentStore(stores.create(contract.contractId, request.body), contract.timeZone);
      },
    );

    app.get(
      '/stores',
      {
        config: { scope: 'pos.stores:read' },
        schema: { tags, summary: 'List stores', querystring: listStoresQuery, response: { 200: z.array(store), ...commonErrorResponses } },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const rows = stores.list(contract.contractId, request.query, request.query);
        return sendPage(request, reply, request.query, rows).map((r) => presentStore(r, contract.timeZone));
      },
    );

    app.get(
      '/stores/:store_id',
      {
        config: { scope: 'pos.stores:read' },
        schema: { tags, summary: 'Get a store', params: storeParams, response: { 200: store, ...commonErrorResponses, 404: problemSchema } },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentStore(stores.get(contract.contractId, request.params.store_id), contract.timeZone);
      },
    );

    app.patch(
      '/stores/:store_id',
      {
        config: { scope: 'pos.stores:write' },
        schema: {
          tags,
          summary: 'Update a store (only the keys sent change)',
          params: storeParams,
          body: updateStoreBody,
          response: { 200: store, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentStore(stores.update(contract.contractId, request.params.store_id, request.body), contract.timeZone);
      },
    );
  };
}
