import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { answers } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { registerMasterRoutes, type MasterRoutesSpec } from '../../platform/http/master-routes.js';
import { ProductRepo, type ProductRecord } from './repo.js';
import {
  createProductBody,
  listProductStoresQuery,
  listProductsQuery,
  presentProduct,
  presentProductStore,
  product,
  productParams,
  productStore,
  updateProductBody,
  type CreateProduct,
  type ListProductsQuery,
  type UpdateProduct,
} from './schema.js';

/** The product master; its free-item labels live in product-labels (static paths win). */
export default function productsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const products = new ProductRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['products'];
  // A product is answered with its free-item values: the repo's records, not its bare rows.
  const records = {
    create: (contractId: string, body: CreateProduct) => products.create(contractId, body),
    list: (contractId: string, query: ListProductsQuery) => products.list(contractId, query, query),
    get: (contractId: string, productId: string) => products.record(contractId, productId),
    update: (contractId: string, productId: string, body: UpdateProduct) => products.update(contractId, productId, body),
    delete: (contractId: string, productId: string) => products.delete(contractId, productId),
  };
  const spec = {
    tags,
    scope: 'pos.products',
    record: product,
    present: (r: ProductRecord, zone: string) => presentProduct(r.row, r.items, zone),
    create: createProductBody,
    list: listProductsQuery,
    update: updateProductBody,
    delete: true,
    summaries: {
      update: 'Update a product (only the keys sent change; reserveItems replaces the whole list)',
      delete: 'Delete a product and its free-item values',
    },
  } satisfies MasterRoutesSpec<ProductRecord, typeof createProductBody, typeof updateProductBody, typeof listProductsQuery, never>;

  return async (app) => {
    registerMasterRoutes(app, 'product', records, { ...spec, only: ['create', 'list', 'get'] });

    apiRoutes(app, tags).get(
      '/products/:product_id/stores',
      'pos.products:read',
      {
        summary: 'How each store handles the product (assignDivision 0 sells, 1 does not); set through `stores` of POST and PATCH /products',
        params: productParams,
        querystring: listProductStoresQuery,
        response: answers.listOf(productStore),
      },
      ({ contract, params, query, page }) => page(products.storesOf(contract.contractId, params.product_id, query), presentProductStore),
    );

    registerMasterRoutes(app, 'product', records, { ...spec, only: ['update', 'delete'] });
  };
}
