import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { answers } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { memoryPage } from '../../platform/http/paging.js';
import { StorageOperations } from './operations.js';
import {
  createStorageBody,
  getStorageQuery,
  listStorageDetailsQuery,
  listStorageQuery,
  presentStorage,
  presentStorageDetail,
  storage,
  storageDetail,
  storageParams,
  updateStorageBody,
} from './schema.js';

const DESCRIPTION =
  'Storage (入荷): goods from a supplier arriving at a store. A purchase order registered as ordered makes one per delivery ' +
  'store (storageInfoId: the order; storageDate null until set); POST /storage registers one on its own. Status 0 not stored, ' +
  '1 inspecting, 2 complete: the write after which every detail is inspected (counted plus missing cover the scheduled ' +
  'quantity, or compulsoryCompleteFlag 1) completes it, and the counted quantities enter the store\'s stock (stockDivision 03).';

/** The platform's storage operations (Retail Business): list, register, get, update, and the details. */
export default function storageRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const operations = new StorageOperations(deps.db, deps.writer, deps.ids, deps.clock);
  const { repo } = operations;

  return async (app) => {
    const route = apiRoutes(app, ['storage']);

    route.get(
      '/storage',
      'pos.orders:read',
      { summary: 'List storages', description: DESCRIPTION, querystring: listStorageQuery, response: answers.list(storage) },
      ({ contract, query: q, page }) => {
        const filters = {
          storage_info_id: q.storage_info_id,
          supplier_id: q.supplier_id,
          storage_store_id: q.storage_store_id,
          storage_date: q.storage_date,
          status: q.status,
          identification_no: q.identification_no,
        };
        const rows = page(repo.list(contract.contractId, filters, q));
        const details = q.with_details === 'all' ? repo.detailsOfPage(contract.contractId, rows.map((r) => r.storage_id)) : undefined;
        return rows.map((r) => presentStorage(r, contract.timeZone, details?.get(r.storage_id)));
      },
    );

    route.post(
      '/storage',
      'pos.orders:write',
      { summary: 'Register a storage (up to 1,000 details)', description: DESCRIPTION, body: createStorageBody, response: answers.one(storage) },
      ({ auth, contract, body }) => {
        const { row, details } = operations.create(contract, body, { clientId: auth.clientId, staffId: auth.staffId });
        return presentStorage(row, contract.timeZone, details);
      },
    );

    route.get(
      '/storage/:storage_id',
      'pos.orders:read',
      { summary: 'Get a storage', description: DESCRIPTION, params: storageParams, querystring: getStorageQuery, response: answers.found(storage) },
      ({ contract, params, query }) => {
        const row = operations.get(contract.contractId, params.storage_id);
        return presentStorage(row, contract.timeZone, query.with_details === 'all' ? repo.details(contract.contractId, row.storage_id) : undefined);
      },
    );

    route.get(
      '/storage/:storage_id/details',
      'pos.orders:read',
      { summary: 'List the details of a storage', params: storageParams, querystring: listStorageDetailsQuery, response: answers.listOf(storageDetail) },
      ({ contract, params, query: q, page }) => {
        const row = operations.get(contract.contractId, params.storage_id);
        const details = repo.details(contract.contractId, row.storage_id).map((d) => presentStorageDetail(d, contract.timeZone))
          .filter((d) => q.product_id === undefined || d.productId === String(Number(q.product_id)))
          .filter((d) => q.status === undefined || d.status === q.status);
        return page(memoryPage(details, q, 'storageDetailId', (d, field) => d[field], (field) => field !== 'updDateTime'));
      },
    );

    route.patch(
      '/storage/:storage_id',
      'pos.orders:write',
      {
        summary: 'Update a storage: its date, identification number and the inspection of its details',
        description: `${DESCRIPTION} Details are updated by storageDetailId (none can be added); a complete storage refuses updates (400).`,
        params: storageParams,
        body: updateStorageBody,
        response: answers.found(storage),
      },
      ({ auth, contract, params, body }) => {
        const { row, details } = operations.update(contract, params.storage_id, body, { clientId: auth.clientId, staffId: auth.staffId });
        return presentStorage(row, contract.timeZone, details);
      },
    );
  };
}
