import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { ProductLabelRepo } from './repo.js';
import { createLabelBody, labelParams, presentLabel, reserveItemLabel, updateLabelBody } from './schema.js';

/**
 * Free-item labels of products (spec 4.18). The static segment `reserve_item_labels` wins
 * over `/products/:product_id` in Fastify's router, so these paths never reach the products.
 */
export default function productLabelsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const labels = new ProductLabelRepo(deps.db, deps.writer, deps.clock);
  const tags = ['product free-item labels'];

  return async (app) => {
    app.post(
      '/products/reserve_item_labels',
      {
        config: { scope: 'pos.products:write' },
        schema: {
          tags,
          summary: 'Register free-item label 1 to 50 (400 when the number is taken)',
          body: createLabelBody,
          response: { 200: reserveItemLabel, ...commonErrorResponses },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentLabel(labels.create(contract.contractId, request.body), contract.timeZone);
      },
    );

    // At most fifty rows, so no paging: the whole list in number order.
    app.get(
      '/products/reserve_item_labels',
      {
        config: { scope: 'pos.products:read' },
        schema: {
          tags,
          summary: 'List the free-item labels',
          response: { 200: z.array(reserveItemLabel), ...commonErrorResponses },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return labels.list(contract.contractId).map((r) => presentLabel(r, contract.timeZone));
      },
    );

    app.get(
      '/products/reserve_item_labels/:no',
      {
        config: { scope: 'pos.products:read' },
        schema: {
          tags,
          summary: 'Get a free-item label',
          params: labelParams,
          response: { 200: reserveItemLabel, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentLabel(labels.get(contract.contractId, Number(request.params.no)), contract.timeZone);
      },
    );

    app.patch(
      '/products/reserve_item_labels/:no',
      {
        config: { scope: 'pos.products:write' },
        schema: {
          tags,
          summary: 'Rename a free-item label',
          params: labelParams,
          body: updateLabelBody,
          response: { 200: reserveItemLabel, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentLabel(labels.update(contract.contractId, Number(request.params.no), request.body), contract.timeZone);
      },
    );

    app.delete(
      '/products/reserve_item_labels/:no',
      {
        config: { scope: 'pos.products:write' },
        schema: {
          tags,
          summary: 'Delete a free-item label (spec 4.18): 400 while a product uses it',
          params: labelParams,
          response: { 204: z.null().describe('No Content'), ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        labels.delete(contract.contractId, Number(request.params.no));
        return reply.code(204).send(null);
      },
    );
  };
}
