import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { answers } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { ProductAttributeRepo } from './repo.js';
import { attributeParams, presentAttribute, productAttribute, putAttributeBody } from './schema.js';

/**
 * The product attributes (商品属性, issue 26). The static segment `attributes` wins over
 * `/products/:product_id` in Fastify's router, so these paths never reach the products.
 */
export default function productAttributesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const attributes = new ProductAttributeRepo(deps.db, deps.writer, deps.clock);
  return async (app) => {
    const route = apiRoutes(app, ['product attributes']);
    route.put(
      '/products/attributes/:no',
      'pos.products:write',
      {
        summary: 'Register or rename product attribute 1 to 3 (商品属性更新)',
        description: 'Registers the attribute when the number has none yet, renames it otherwise; the answer is the number and the name.',
        params: attributeParams,
        body: putAttributeBody,
        response: answers.one(productAttribute),
      },
      ({ contract, params, body }) => presentAttribute(attributes.put(contract.contractId, Number(params.no), body.name)),
    );
    // At most three rows, so no paging: the whole list in number order.
    route.get(
      '/products/attributes',
      'pos.products:read',
      { summary: 'List the product attributes', response: answers.list(productAttribute) },
      ({ contract }) => attributes.list(contract.contractId).map(presentAttribute),
    );
  };
}
