import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { answers, sendNoContent } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { registerMasterRoutes } from '../../platform/http/master-routes.js';
import { BargainRepo } from './repo.js';
import {
  bargain,
  bargainFields,
  bargainParams,
  bargainProduct,
  bargainProductParams,
  bargainStore,
  bargainStoreParams,
  createBargainBody,
  createBargainProductBody,
  createBargainStoreBody,
  listBargainProductsQuery,
  listBargainStoresQuery,
  listBargainsQuery,
  presentBargain,
  presentBargainProduct,
  presentBargainStore,
  updateBargainBody,
  updateBargainProductBody,
} from './schema.js';
import { BargainTargets } from './targets.js';

/** Bargains (セール, issue 26): the sale, the stores it runs in and its targets; product settings, so pos.products. */
export default function bargainsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const bargains = new BargainRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const targets = new BargainTargets(deps.db, deps.writer, deps.ids, deps.clock, bargains);
  const tags = ['bargains'];

  return async (app) => {
    registerMasterRoutes(app, 'bargain', bargains, {
      tags,
      scope: 'pos.products',
      params: bargainParams,
      record: bargain,
      present: presentBargain,
      fields: bargainFields,
      create: createBargainBody,
      list: listBargainsQuery,
      update: updateBargainBody,
      delete: true,
      summaries: { delete: 'Delete a bargain with its stores and targets' },
    });

    const route = apiRoutes(app, tags);
    const read = 'pos.products:read';
    const write = 'pos.products:write';

    route.get(
      '/bargains/:bargain_id/stores',
      read,
      { summary: "List a bargain's stores", params: bargainParams, querystring: listBargainStoresQuery, response: answers.listOf(bargainStore) },
      ({ contract, params, query, page }) => page(targets.listStores(contract.contractId, params.bargain_id, query), (r) => presentBargainStore(r, contract.timeZone)),
    );
    route.post(
      '/bargains/:bargain_id/stores',
      write,
      { summary: 'Add a store to a bargain (once per bargain)', params: bargainParams, body: createBargainStoreBody, response: answers.found(bargainStore) },
      ({ contract, params, body }) => presentBargainStore(targets.addStore(contract.contractId, params.bargain_id, body), contract.timeZone),
    );
    route.delete(
      '/bargains/:bargain_id/stores/:bargain_store_id',
      write,
      { summary: 'Remove a store from a bargain', params: bargainStoreParams, response: answers.noContent() },
      ({ contract, params, reply }) => {
        targets.removeStore(contract.contractId, params.bargain_id, params.bargain_store_id);
        return sendNoContent(reply);
      },
    );

    route.get(
      '/bargains/:bargain_id/products',
      read,
      { summary: "List a bargain's targets (categories, products, group codes)", params: bargainParams, querystring: listBargainProductsQuery, response: answers.listOf(bargainProduct) },
      ({ contract, params, query, page }) => page(targets.listProducts(contract.contractId, params.bargain_id, query), (r) => presentBargainProduct(r, contract.timeZone)),
    );
    route.post(
      '/bargains/:bargain_id/products',
      write,
      { summary: 'Add a target to a bargain (once per target)', params: bargainParams, body: createBargainProductBody, response: answers.found(bargainProduct) },
      ({ contract, params, body }) => presentBargainProduct(targets.addProduct(contract.contractId, params.bargain_id, body), contract.timeZone),
    );
    route.get(
      '/bargains/:bargain_id/products/:bargain_product_id',
      read,
      { summary: 'Get a target of a bargain', params: bargainProductParams, response: answers.found(bargainProduct) },
      ({ contract, params }) => presentBargainProduct(targets.getProduct(contract.contractId, params.bargain_id, params.bargain_product_id), contract.timeZone),
    );
    route.patch(
      '/bargains/:bargain_id/products/:bargain_product_id',
      write,
      { summary: 'Update a target of a bargain (only the keys sent change)', params: bargainProductParams, body: updateBargainProductBody, response: answers.found(bargainProduct) },
      ({ contract, params, body }) =>
        presentBargainProduct(targets.updateProduct(contract.contractId, params.bargain_id, params.bargain_product_id, body), contract.timeZone),
    );
    route.delete(
      '/bargains/:bargain_id/products/:bargain_product_id',
      write,
      { summary: 'Remove a target from a bargain', params: bargainProductParams, response: answers.noContent() },
      ({ contract, params, reply }) => {
        targets.removeProduct(contract.contractId, params.bargain_id, params.bargain_product_id);
        return sendNoContent(reply);
      },
    );
  };
}
