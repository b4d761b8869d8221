import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
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
} from './schema.js';

/** The product master; its free-item labels live in product-labels (static paths win). */
export default function productsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const products = new ProductRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['products'];
  const present = (r: ProductRecord, zone: string) => presentProduct(r.row, r.items, zone);

  return async (app) => {
    app.post(
      '/products',
      {
        config: { scope: 'pos.products:write' },
        schema: {
          tags,
          summary: 'Register a product',
          body: createProductBody,
          response: { 200: product, ...commonErrorResponses },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return present(products.create(contract.contractId, request.body), contract.timeZone);
      },
    );

    app.get(
      '/products',
      {
        config: { scope: 'pos.products:read' },
        schema: {
          tags,
          summary: 'List products',
          querystring: listProductsQuery,
          response: { 200: z.array(product), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const rows = products.list(contract.contractId, request.query, request.query);
        return sendPage(request, reply, request.query, rows).map((r) => present(r, contract.timeZone));
      },
    );

    app.get(
      '/products/:product_id',
      {
        config: { scope: 'pos.products:read' },
        schema: {
          tags,
          summary: 'Get a product',
          params: productParams,
          response: { 200: product, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return present(products.record(contract.contractId, request.params.product_id), contract.timeZone);
      },
    );

    app.get(
      '/products/:product_id/stores',
      {
        config: { scope: 'pos.products:read' },
        schema: {
          tags,
          summary: 'How each store handles the product (assignDivision 0 sells, 1 does not); set through `stores` of POST and PATCH /products',
          params: productParams,
          querystring: listProductStoresQuery,
          response: { 200: z.array(productStore), ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const rows = products.storesOf(contract.contractId, request.params.product_id, request.query);
        return sendPage(request, reply, request.query, rows).map(presentProductStore);
      },
    );

    app.patch(
      '/products/:product_id',
      {
        config: { scope: 'pos.products:write' },
        schema: {
          tags,
          summary: 'Update a product (only the keys sent change; reserveItems replaces the whole list)',
          params: productParams,
          body: updateProductBody,
          response: { 200: product, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return present(products.update(contract.contractId, request.params.product_id, request.body), contract.timeZone);
      },
    );

    app.delete(
      '/products/:product_id',
      {
        config: { scope: 'pos.products:write' },
        schema: {
          tags,
          summary: 'Delete a product and its free-item values',
          params: productParams,
          response: { 204: z.null().describe('No Content'), ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        products.delete(contract.contractId, request.params.product_id);
        return reply.code(204).send(null);
      },
    );
  };
}
