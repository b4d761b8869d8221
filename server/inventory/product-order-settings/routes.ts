import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { ProductOrderSettingRepo } from './repo.js';
import { listOrderSettingsQuery, orderSetting, orderSettingParams, orderSettingsParams, presentOrderSetting, updateOrderSettingBody } from './schema.js';

/**
 * A product's ordering settings per store (issue 14 item 1; the platform publishes no route for
 * them, so the paths are ours, under the product like GET /products/{id}/stores).
 */
export default function productOrderSettingRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const settings = new ProductOrderSettingRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['products'];

  return async (app) => {
    app.get(
      '/products/:product_id/order_settings',
      {
        config: { scope: 'pos.products:read' },
        schema: {
          tags,
          summary: "List a product's ordering settings by store (stores keeping the defaults are not listed)",
          params: orderSettingsParams,
          querystring: listOrderSettingsQuery,
          response: { 200: z.array(orderSetting), ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const rows = settings.listOf(contract.contractId, request.params.product_id, request.query, request.query);
        return sendPage(request, reply, request.query, rows).map((r) => presentOrderSetting(r, contract.timeZone));
      },
    );

    app.get(
      '/products/:product_id/order_settings/:store_id',
      {
        config: { scope: 'pos.products:read' },
        schema: {
          tags,
          summary: "Get a product's ordering settings at a store (the defaults when never set)",
          params: orderSettingParams,
          response: { 200: orderSetting, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentOrderSetting(settings.settingOf(contract.contractId, request.params.product_id, request.params.store_id), contract.timeZone);
      },
    );

    app.patch(
      '/products/:product_id/order_settings/:store_id',
      {
        config: { scope: 'pos.products:write' },
        schema: {
          tags,
          summary: "Set a product's ordering settings at a store: orderable, hidden from ordering, order limit (only the keys sent change)",
          params: orderSettingParams,
          body: updateOrderSettingBody,
          response: { 200: orderSetting, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        const { product_id, store_id } = request.params;
        return presentOrderSetting(settings.update(contract.contractId, product_id, store_id, request.body), contract.timeZone);
      },
    );
  };
}
