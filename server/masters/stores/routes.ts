import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { masterRoutes } from '../../platform/http/master-routes.js';
import { StoreRepo, type StoreRow } from './repo.js';
import { ALL_PARTS, createStoreBody, getStoreQuery, listStoresQuery, partsOf, presentStore, store, updateStoreBody, type GetStoreQuery } from './schema.js';

export default function storeRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const stores = new StoreRepo(deps.db, deps.writer, deps.ids, deps.clock);
  return masterRoutes('store', stores, {
    tags: ['stores'],
    scope: 'pos.stores',
    record: store,
    // Reads carry the objects with_* names; writes answer the whole store.
    present: (row: StoreRow, zone: string, query?: GetStoreQuery) => presentStore(row, zone, query ? partsOf(query) : ALL_PARTS),
    create: createStoreBody,
    list: listStoresQuery,
    get: getStoreQuery,
    update: updateStoreBody,
    run: { get: (auth, storeId) => stores.getPos(auth.contract.contractId, storeId) },
    summaries: {
      list: 'List stores (normal stores and warehouses); with_point_condition and with_receipt_print_info add those objects',
      get: 'Get a store; with_point_condition and with_receipt_print_info add those objects',
      update: 'Update a store (only the keys sent change; a store read with both with_* is accepted back as read)',
    },
  });
}
