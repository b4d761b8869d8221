import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { answers } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { ProductOrderSettingRepo } from './repo.js';
import { listOrderSettingsQuery, orderSetting, orderSettingParams, orderSettingsParams, presentOrderSetting, updateOrderSettingBody } from './schema.js';

/**
 * A product's ordering settings per store (issue 14 item 1; the platform publishes no route for
 * them, so the paths are ours, under the product like GET /products/{id}/stores).
 */
export default function productOrderSettingRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const settings = new ProductOrderSettingRepo(deps.db, deps.writer, deps.ids, deps.clock);

  return async (app) => {
    const route = apiRoutes(app, ['products']);

    route.get(
      '/products/:product_id/order_settings',
      'pos.products:read',
      {
        summary: "List a product's ordering settings by store (stores keeping the defaults are not listed)",
        params: orderSettingsParams,
        querystring: listOrderSettingsQuery,
        response: answers.listOf(orderSetting),
      },
      ({ contract, params, query, page }) => page(settings.listOf(contract.contractId, params.product_id, query, query), (r) => presentOrderSetting(r, contract.timeZone)),
    );

    route.get(
      '/products/:product_id/order_settings/:store_id',
      'pos.products:read',
      { summary: "Get a product's ordering settings at a store (the defaults when never set)", params: orderSettingParams, response: answers.found(orderSetting) },
      ({ contract, params }) => presentOrderSetting(settings.settingOf(contract.contractId, params.product_id, params.store_id), contract.timeZone),
    );

    route.patch(
      '/products/:product_id/order_settings/:store_id',
      'pos.products:write',
      {
        summary: "Set a product's ordering settings at a store: orderable, hidden from ordering, order limit (only the keys sent change)",
        params: orderSettingParams,
        body: updateOrderSettingBody,
        response: answers.found(orderSetting),
      },
      ({ contract, params, body }) => presentOrderSetting(settings.update(contract.contractId, params.product_id, params.store_id, body), contract.timeZone),
    );
  };
}
