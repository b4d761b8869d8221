import type { Plan } from '../../domain/plans.js';
import { Forbidden } from './problem.js';

/**
 * Route → plans allowed to call it, one line per endpoint of spec §4 that names plans.
 * Paths are relative to the base path /{contract_id}/pos, written as Fastify registers them.
 * A route with no line here is open to every plan. Later issues only add their routes.
 */
const FIVE: readonly Plan[] = ['standard', 'premium', 'premium_plus', 'food_business', 'retail_business'];

export const PLAN_TABLE: Readonly<Record<string, readonly Plan[]>> = {
  'PATCH /customer_groups/:customer_group_id': FIVE, // 4.1
  'POST /shipping/:shipping_id/modification_request': ['retail_business'], // 4.2
  'POST /shipping_modification_requests/:shipping_id/complete': ['retail_business'], // 4.19 (the platform's path)
  // Store-to-store shipping and its receiving side (2.8): Retail Business, as 4.2.
  'POST /shipping': ['retail_business'],
  'GET /shipping': ['retail_business'],
  'GET /shipping/:shipping_id': ['retail_business'],
  'PATCH /shipping/:shipping_id': ['retail_business'],
  // pos-rest (issue 26): the shipping approval operation, Retail Business as its shipping.
  'PATCH /shipping/:shipping_id/approval': ['retail_business'],
  // pos-rest (issue 26): the members' bulk registration and update name three plans (the products' bulk, all five).
  'POST /customers/bulk': ['premium_plus', 'food_business', 'retail_business'],
  'PATCH /customers/bulk': ['premium_plus', 'food_business', 'retail_business'],
  'GET /receiving': ['retail_business'],
  'GET /receiving/:receiving_id': ['retail_business'],
  'GET /receiving/:receiving_id/details': ['retail_business'],
  'PATCH /receiving/:receiving_id': ['retail_business'],
  'GET /categories/:category_id': FIVE, // 4.3
  'PATCH /staffs/:staff_id': ['standard', 'premium', 'premium_plus', 'enterprise'], // 4.4
  'GET /reservations/:reservation_id': ['food_business'], // 4.5
  'PATCH /reservations/:reservation_id': ['food_business'], // 4.13
  // Reservations are a Food Business feature: their supporting operations follow 4.5/4.13.
  'POST /reservations': ['food_business'],
  'GET /reservations': ['food_business'],
  'DELETE /reservations/:reservation_id': ['food_business'],
  'POST /transactions/:transaction_id/dispose': FIVE, // 4.7
  'POST /transactions/:transaction_id/cancel': FIVE, // issue 26: the platform's 取引取消, as every transaction write
  // Layaways (取置き, issue 26): the five plans of the layaway pages.
  'POST /transactions/layaways': FIVE,
  'GET /transactions/layaways': FIVE,
  // Coupons and their items (issue 26): the five plans of the coupon item pages, the master alike.
  'POST /coupons': FIVE,
  'GET /coupons': FIVE,
  'GET /coupons/:coupon_id': FIVE,
  'PATCH /coupons/:coupon_id': FIVE,
  'PUT /coupons/:coupon_id': FIVE,
  'DELETE /coupons/:coupon_id': FIVE,
  'GET /coupons/:coupon_id/products': FIVE,
  'POST /coupons/:coupon_id/products': FIVE,
  'PATCH /coupons/:coupon_id/type/:type/division/:division/products/:item_id': FIVE,
  'DELETE /coupons/:coupon_id/type/:type/division/:division/products/:item_id': FIVE,
  'PATCH /staff_ranks/:staff_rank': ['premium_plus', 'food_business', 'retail_business'], // 4.8
  'DELETE /budget/:store_id/:year/:month': FIVE, // 4.9
  'POST /transactions/details/out_file_async': FIVE, // 4.11
  'GET /transactions/details/out_file_async/:request_code': FIVE, // 4.11's progress (ours)
  'PATCH /shipments/:shipment_id': ['retail_business'], // 4.12
  'POST /purchase_orders': ['retail_business'], // 4.14
  // Shipments and purchase orders are Retail Business records: their other operations follow 4.12/4.14.
  'POST /shipments': ['retail_business'],
  'GET /shipments': ['retail_business'],
  'GET /shipments/:shipment_id': ['retail_business'],
  'GET /purchase_orders': ['retail_business'],
  'GET /purchase_orders/:purchase_order_id': ['retail_business'],
  // Storage (入荷) and a purchase order's sub-lists (issue 26): Retail Business, as their reference pages say.
  'GET /purchase_orders/:purchase_order_id/products': ['retail_business'],
  'GET /purchase_orders/:purchase_order_id/stores': ['retail_business'],
  'GET /storage': ['retail_business'],
  'POST /storage': ['retail_business'],
  'GET /storage/:storage_id': ['retail_business'],
  'PATCH /storage/:storage_id': ['retail_business'],
  'GET /storage/:storage_id/details': ['retail_business'],
  // Inventory's supporting masters and stock (issue 14 items 1 and 2): Retail Business, as 4.12/4.14.
  'POST /category_groups': ['retail_business'],
  'GET /category_groups': ['retail_business'],
  'GET /category_groups/:category_group_id': ['retail_business'],
  'PATCH /category_groups/:category_group_id': ['retail_business'],
  'DELETE /category_groups/:category_group_id': ['retail_business'],
  'POST /suppliers': ['retail_business'],
  'GET /suppliers': ['retail_business'],
  'GET /suppliers/:supplier_id': ['retail_business'],
  'PATCH /suppliers/:supplier_id': ['retail_business'],
  'DELETE /suppliers/:supplier_id': ['retail_business'],
  'GET /suppliers/:supplier_id/products': ['retail_business'],
  'POST /suppliers/:supplier_id/products': ['retail_business'],
  'DELETE /suppliers/:supplier_id/products': ['retail_business'],
  'GET /products/:product_id/order_settings': ['retail_business'],
  'GET /products/:product_id/order_settings/:store_id': ['retail_business'],
  'PATCH /products/:product_id/order_settings/:store_id': ['retail_business'],
  'GET /stock': ['retail_business'],
  'PATCH /stock/:product_id': ['retail_business'],
  'POST /stock/:product_id/add': ['retail_business'],
  'POST /stock/add/bulk': ['retail_business'],
  'GET /stock/changes/:product_id/:store_id': ['retail_business'],
  // Losses and loss divisions (issue 26): the platform's loss pages name Retail Business.
  'POST /losses': ['retail_business'],
  'GET /losses': ['retail_business'],
  'GET /losses/:loss_id': ['retail_business'],
  'PATCH /losses/:loss_id': ['retail_business'],
  'DELETE /losses/:loss_id': ['retail_business'],
  'POST /loss_divisions': ['retail_business'],
  'GET /loss_divisions': ['retail_business'],
  'GET /loss_divisions/:division_code': ['retail_business'],
  'PATCH /loss_divisions/:division_code': ['retail_business'],
  'DELETE /loss_divisions/:division_code': ['retail_business'],
  'POST /daily_summaries': FIVE, // 4.15
  'POST /terminals': FIVE, // 4.16
  'DELETE /products/reserve_item_labels/:no': FIVE, // 4.18
  // Tax rates, receipt provisos, staff roles (issue 26, masters-tax): the plans their pages name.
  'GET /consumption_tax_rates': FIVE,
  'POST /consumption_tax_rates': FIVE, // ours, as its read
  'GET /reduce_tax_rates': FIVE,
  'POST /reduce_tax_rates': FIVE, // ours, as its read
  'DELETE /consumption_tax_rates/:apply_start_date': FIVE, // ours
  'DELETE /reduce_tax_rates/:term_start': FIVE, // ours
  'GET /receipt_provisoes': FIVE,
  'POST /receipt_provisoes': FIVE,
  'PATCH /receipt_provisoes/:receipt_proviso_code': FIVE,
  'DELETE /receipt_provisoes/:receipt_proviso_code': FIVE,
  'GET /roles': ['premium', 'premium_plus', 'food_business', 'retail_business'],
  'POST /roles': ['premium', 'premium_plus', 'food_business', 'retail_business'],
  'GET /roles/:role_id': FIVE, // Standard may read and update the administrator role's controls
  'PATCH /roles/:role_id': FIVE, // Standard: the administrator role's controls only (roles/rules.ts)
  'DELETE /roles/:role_id': ['premium', 'premium_plus', 'food_business', 'retail_business'],
  // Product option groups (issue 26): the platform's pages name the five plans.
  'POST /product_option_groups': FIVE,
  'GET /product_option_groups': FIVE,
  'GET /product_option_groups/:product_option_group_id': FIVE,
  'PATCH /product_option_groups/:product_option_group_id': FIVE,
  'DELETE /product_option_groups/:product_option_group_id': FIVE,
  'DELETE /product_option_groups/:product_option_group_id/products/:product_id': FIVE,
  // Bundle sales (issue 26, bundles): the platform's pages name the five plans.
  'POST /bundles': FIVE,
  'GET /bundles': FIVE,
  'GET /bundles/:product_bundle_group_id': FIVE,
  'PATCH /bundles/:product_bundle_group_id': FIVE,
  'DELETE /bundles/:product_bundle_group_id': FIVE,
  'DELETE /bundles/:product_bundle_group_id/products/:product_bundle_id': FIVE,
  // Discount divisions and bargains (issue 26): the five plans of the platform's POS masters.
  'POST /discount_divisions': FIVE,
  'GET /discount_divisions': FIVE,
  'GET /discount_divisions/:discount_division': FIVE,
  'PATCH /discount_divisions/:discount_division': FIVE,
  'DELETE /discount_divisions/:discount_division': FIVE,
  'POST /bargains': FIVE,
  'GET /bargains': FIVE,
  'GET /bargains/:bargain_id': FIVE,
  'PATCH /bargains/:bargain_id': FIVE,
  'DELETE /bargains/:bargain_id': FIVE,
  'GET /bargains/:bargain_id/stores': FIVE,
  'POST /bargains/:bargain_id/stores': FIVE,
  'DELETE /bargains/:bargain_id/stores/:bargain_store_id': FIVE,
  'GET /bargains/:bargain_id/products': FIVE,
  'POST /bargains/:bargain_id/products': FIVE,
  'GET /bargains/:bargain_id/products/:bargain_product_id': FIVE,
  'PATCH /bargains/:bargain_id/products/:bargain_product_id': FIVE,
  'DELETE /bargains/:bargain_id/products/:bargain_product_id': FIVE,
  // Stocktaking (issue 26): the platform's pages name Retail Business; our writes follow them.
  'GET /stocktaking': ['retail_business'],
  'GET /stocktaking/:stocktaking_info_id/products': ['retail_business'],
  'GET /stocktaking/:stocktaking_info_id/categories': ['retail_business'],
  'GET /stocktaking/:stocktaking_info_id/details/:base_date': ['retail_business'],
  'POST /stocktaking': ['retail_business'],
  'GET /stocktaking/:stocktaking_info_id': ['retail_business'],
  'PATCH /stocktaking/:stocktaking_info_id': ['retail_business'],
  'DELETE /stocktaking/:stocktaking_info_id': ['retail_business'],
  'PATCH /stocktaking/:stocktaking_info_id/products': ['retail_business'],
  'POST /stocktaking/:stocktaking_info_id/complete': ['retail_business'],
  // 4.6 GET /menu_conditions/stores/:store_id, 4.10 GET /topping_groups and
  // 4.17 GET /orders/:order_id name no plans: open to all.
};

export const BASE_PATH = '/:contract_id/pos';
/** The restaurant (waiter) API's base path; its routes share the plan lines of their /pos twins. */
export const WAITER_BASE_PATH = '/:contract_id/waiter';

/** A route's url relative to its base path (`/:contract_id/pos` or `/:contract_id/waiter` removed). */
export const relativeUrl = (routeUrl: string): string => routeUrl.replace(/^\/:contract_id\/(pos|waiter)(?=\/)/, '');

/** Plans allowed for a route as Fastify names it (`/:contract_id/pos/...`); undefined = all. */
export function plansFor(method: string, routeUrl: string): readonly Plan[] | undefined {
  const relative = relativeUrl(routeUrl);
  // Fastify answers HEAD with the GET handler, so HEAD is bound by the GET line.
  return PLAN_TABLE[`${method === 'HEAD' ? 'GET' : method} ${relative}`];
}

export function assertPlanAllows(plan: Plan, method: string, routeUrl: string): void {
  const allowed = plansFor(method, routeUrl);
  if (allowed && !allowed.includes(plan)) {
    const relative = relativeUrl(routeUrl).replace(/:(\w+)/g, '{$1}');
    throw new Forbidden(`the contract's plan ${plan} cannot use ${method} ${relative} (plans: ${allowed.join(', ')})`);
  }
}
