import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { SupplierRepo } from './repo.js';
import {
  createSupplierBody,
  createSupplierProductBody,
  deleteSupplierProductQuery,
  getSupplierQuery,
  listSupplierProductsQuery,
  listSuppliersQuery,
  presentSupplier,
  presentSupplierProduct,
  selectSupplierFields,
  supplier,
  supplierParams,
  supplierProduct,
  supplierSubset,
  updateSupplierBody,
} from './schema.js';

/** Suppliers (the platform's /suppliers and /suppliers/{id}/products), scope pos.suppliers. */
export default function supplierRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const suppliers = new SupplierRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['suppliers'];
  const read = { scope: 'pos.suppliers:read' } as const;
  const write = { scope: 'pos.suppliers:write' } as const;

  return async (app) => {
    app.post(
      '/suppliers',
      { config: write, schema: { tags, summary: 'Register a supplier', body: createSupplierBody, response: { 200: supplier, ...commonErrorResponses } } },
      async (request) => {
        const { contract } = authOf(request);
        return presentSupplier(suppliers.create(contract.contractId, request.body), contract.timeZone);
      },
    );

    app.get(
      '/suppliers',
      { config: read, schema: { tags, summary: 'List suppliers', querystring: listSuppliersQuery, response: { 200: z.array(supplierSubset), ...commonErrorResponses } } },
      async (request, reply) => {
        const { contract } = authOf(request);
        const { query } = request;
        const rows = suppliers.list(contract.contractId, query, query);
        return sendPage(request, reply, query, rows).map((r) => selectSupplierFields(presentSupplier(r, contract.timeZone), query.fields));
      },
    );

    app.get(
      '/suppliers/:supplier_id',
      {
        config: read,
        schema: {
          tags,
          summary: 'Get a supplier; `fields` limits the response to top-level fields',
          params: supplierParams,
          querystring: getSupplierQuery,
          response: { 200: supplierSubset, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return selectSupplierFields(presentSupplier(suppliers.get(contract.contractId, request.params.supplier_id), contract.timeZone), request.query.fields);
      },
    );

    app.patch(
      '/suppliers/:supplier_id',
      {
        config: write,
        schema: {
          tags,
          summary: 'Update a supplier (only the keys sent change)',
          params: supplierParams,
          body: updateSupplierBody,
          response: { 200: supplier, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentSupplier(suppliers.update(contract.contractId, request.params.supplier_id, request.body), contract.timeZone);
      },
    );

    app.delete(
      '/suppliers/:supplier_id',
      {
        config: write,
        schema: {
          tags,
          summary: 'Delete a supplier and what it handles',
          params: supplierParams,
          response: { 204: z.null().describe('No Content'), ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        suppliers.delete(contract.contractId, request.params.supplier_id);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/suppliers/:supplier_id/products',
      {
        config: read,
        schema: {
          tags,
          summary: "List what a supplier handles: categories (every product of them) and single products",
          params: supplierParams,
          querystring: listSupplierProductsQuery,
          response: { 200: z.array(supplierProduct), ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const rows = suppliers.listProducts(contract.contractId, request.params.supplier_id, request.query);
        return sendPage(request, reply, request.query, rows).map((r) => presentSupplierProduct(r, contract.timeZone));
      },
    );

    app.post(
      '/suppliers/:supplier_id/products',
      {
        config: write,
        schema: {
          tags,
          summary: 'Register a category or a product the supplier handles (exactly one of categoryId and productId)',
          params: supplierParams,
          body: createSupplierProductBody,
          response: { 200: supplierProduct, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentSupplierProduct(suppliers.addProduct(contract.contractId, request.params.supplier_id, request.body), contract.timeZone);
      },
    );

    app.delete(
      '/suppliers/:supplier_id/products',
      {
        config: write,
        schema: {
          tags,
          summary: 'Remove a category or a product from what the supplier handles (exactly one of category_id and product_id)',
          params: supplierParams,
          querystring: deleteSupplierProductQuery,
          response: { 204: z.null().describe('No Content'), ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        suppliers.removeProduct(contract.contractId, request.params.supplier_id, request.query);
        return reply.code(204).send(null);
      },
    );
  };
}
