import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { answers, sendNoContent } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { registerMasterRoutes } from '../../platform/http/master-routes.js';
import {
  couponProduct,
  couponProductParams,
  createCouponProductBody,
  listCouponProductsQuery,
  presentCouponProduct,
  updateCouponProductBody,
} from './products-schema.js';
import { CouponRepo } from './repo.js';
import { coupon, couponFields, couponParams, createCouponBody, listCouponsQuery, presentCoupon, updateCouponBody } from './schema.js';

/**
 * Coupons (the platform's /coupons and their items /coupons/{id}/products, issue 26), scope
 * pos.products. The platform's client updates with PUT and only some keys, so PUT is served as
 * PATCH is: only the keys sent change.
 */
export default function couponRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const coupons = new CouponRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['coupons'];

  return async (app) => {
    registerMasterRoutes(app, 'coupon', coupons, {
      tags,
      scope: 'pos.products',
      record: coupon,
      present: presentCoupon,
      fields: couponFields,
      create: createCouponBody,
      list: listCouponsQuery,
      update: updateCouponBody,
      delete: true,
      summaries: { get: 'Get a coupon; `fields` limits the response to top-level fields', delete: 'Delete a coupon and its items (sales keep what they recorded)' },
    });

    const route = apiRoutes(app, tags);
    route.put(
      '/coupons/:coupon_id',
      'pos.products:write',
      { summary: 'Update a coupon (as PATCH: only the keys sent change)', params: couponParams, body: updateCouponBody, response: answers.found(coupon) },
      ({ contract, params, body }) => presentCoupon(coupons.update(contract.contractId, params.coupon_id, body), contract.timeZone),
    );

    route.get(
      '/coupons/:coupon_id/products',
      'pos.products:read',
      { summary: "List a coupon's items (conditions of use and goods granted)", params: couponParams, querystring: listCouponProductsQuery, response: answers.listOf(couponProduct) },
      ({ contract, params, query, page }) => page(coupons.listProducts(contract.contractId, params.coupon_id, query), (r) => presentCouponProduct(r, contract.timeZone)),
    );
    route.post(
      '/coupons/:coupon_id/products',
      'pos.products:write',
      { summary: 'Register an item of a coupon: a condition of use (type 1) or goods granted (type 2, a product at salesPrice)', params: couponParams, body: createCouponProductBody, response: answers.found(couponProduct) },
      ({ contract, params, body }) => presentCouponProduct(coupons.addProduct(contract.contractId, params.coupon_id, body), contract.timeZone),
    );
    const item = '/coupons/:coupon_id/type/:type/division/:division/products/:item_id';
    route.patch(
      item,
      'pos.products:write',
      { summary: 'Update the price of goods a coupon grants (type 2 only)', params: couponProductParams, body: updateCouponProductBody, response: answers.found(couponProduct) },
      ({ contract, params, body }) => presentCouponProduct(coupons.updateProduct(contract.contractId, params, body), contract.timeZone),
    );
    route.delete(item, 'pos.products:write', { summary: 'Delete an item of a coupon', params: couponProductParams, response: answers.noContent() }, ({ contract, params, reply }) => {
      coupons.removeProduct(contract.contractId, params);
      return sendNoContent(reply);
    });
  };
}
