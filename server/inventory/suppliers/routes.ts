import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { answers, sendNoContent } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { registerMasterRoutes } from '../../platform/http/master-routes.js';
import { SupplierRepo } from './repo.js';
import {
  createSupplierBody,
  createSupplierProductBody,
  deleteSupplierProductQuery,
  listSupplierProductsQuery,
  listSuppliersQuery,
  presentSupplier,
  presentSupplierProduct,
  supplier,
  supplierFields,
  supplierParams,
  supplierProduct,
  updateSupplierBody,
} from './schema.js';

/** Suppliers (the platform's /suppliers and /suppliers/{id}/products), scope pos.suppliers. */
export default function supplierRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const suppliers = new SupplierRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['suppliers'];

  return async (app) => {
    registerMasterRoutes(app, 'supplier', suppliers, {
      tags,
      scope: 'pos.suppliers',
      record: supplier,
      present: presentSupplier,
      fields: supplierFields,
      create: createSupplierBody,
      list: listSuppliersQuery,
      update: updateSupplierBody,
      delete: true,
      summaries: { get: 'Get a supplier; `fields` limits the response to top-level fields', delete: 'Delete a supplier and what it handles' },
    });

    // What a supplier handles: a sub-list under the supplier, added to and removed from one entry at a time.
    const route = apiRoutes(app, tags);
    route.get(
      '/suppliers/:supplier_id/products',
      'pos.suppliers:read',
      {
        summary: 'List what a supplier handles: categories (every product of them) and single products',
        params: supplierParams,
        querystring: listSupplierProductsQuery,
        response: answers.listOf(supplierProduct),
      },
      ({ contract, params, query, page }) => page(suppliers.listProducts(contract.contractId, params.supplier_id, query), (r) => presentSupplierProduct(r, contract.timeZone)),
    );
    route.post(
      '/suppliers/:supplier_id/products',
      'pos.suppliers:write',
      {
        summary: 'Register a category or a product the supplier handles (exactly one of categoryId and productId)',
        params: supplierParams,
        body: createSupplierProductBody,
        response: answers.found(supplierProduct),
      },
      ({ contract, params, body }) => presentSupplierProduct(suppliers.addProduct(contract.contractId, params.supplier_id, body), contract.timeZone),
    );
    route.delete(
      '/suppliers/:supplier_id/products',
      'pos.suppliers:write',
      {
        summary: 'Remove a category or a product from what the supplier handles (exactly one of category_id and product_id)',
        params: supplierParams,
        querystring: deleteSupplierProductQuery,
        response: answers.noContent(),
      },
      ({ contract, params, query, reply }) => {
        suppliers.removeProduct(contract.contractId, params.supplier_id, query);
        return sendNoContent(reply);
      },
    );
  };
}
