import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from './deps.js';
import { registerBearerAuth } from './platform/http/auth.js';
import { problemServerOptions, registerErrorHandling } from './platform/http/errors.js';
import { registerBusyRetry } from './platform/http/busy.js';
import { registerOpenApi } from './platform/http/openapi.js';
import { BASE_PATH, WAITER_BASE_PATH } from './platform/http/plans.js';
import { registerPlatformLeniency } from './platform/http/leniency.js';
import { problemSchema } from './platform/http/problem.js';
import { registerRateLimits } from './platform/http/rate-limits.js';
import { registerUnservedPaths } from './platform/http/unserved.js';
import { registerUi } from './platform/http/ui.js';
import { registerGracefulClose } from './platform/http/shutdown.js';
import tokenRoutes from './platform/auth/routes.js';
import categoryRoutes from './masters/categories/routes.js';
import customerGroupRoutes from './masters/customer-groups/routes.js';
import storeRoutes from './masters/stores/routes.js';
import staffsRoutes from './masters/staffs/routes.js';
import staffRightsRoutes from './masters/staffs/rights-routes.js';
import staffRanksRoutes from './masters/staff-ranks/routes.js';
// Bulk registrations and updates of products and members (issue 26, pos-rest).
import masterBulkRoutes from './masters/bulk/routes.js';
// Product attributes (issue 26, pos-rest).
import productAttributesRoutes from './masters/product-attributes/routes.js';
// Tax rates, receipt provisos, staff roles (issue 26, masters-tax).
import taxRatesRoutes from './masters/tax-rates/routes.js';
import receiptProvisosRoutes from './masters/receipt-provisos/routes.js';
import rolesRoutes from './masters/roles/routes.js';
import menusRoutes from './restaurant/menus/routes.js';
import toppingGroupsRoutes from './restaurant/topping-groups/routes.js';
import tablesRoutes from './restaurant/tables/routes.js';
import reservationsRoutes from './restaurant/reservations/routes.js';
import ordersRoutes from './restaurant/orders/routes.js';
// waiter operations (issue 26): table uses, toppings, staff calls, the store dashboard
import tableUsesRoutes from './restaurant/table-uses/routes.js';
import toppingsRoutes from './restaurant/toppings/routes.js';
import staffCallsRoutes from './restaurant/staff-calls/routes.js';
import dashboardRoutes from './restaurant/dashboard/routes.js';
import waiterCategoriesRoutes from './restaurant/categories/routes.js';
import terminalsRoutes from './masters/terminals/routes.js';
import cashDrawersRoutes from './masters/cash-drawers/routes.js';
import paymentTerminalsRoutes from './masters/payment-terminals/routes.js';
import productsRoutes from './masters/products/routes.js';
import productLabelsRoutes from './masters/product-labels/routes.js';
import budgetsRoutes from './masters/budgets/routes.js';
import customersRoutes from './masters/customers/routes.js';
import paymentMethodsRoutes from './masters/payment-methods/routes.js';
import paymentMethodGroupsRoutes from './masters/payment-method-groups/routes.js';
import productBundleGroupsRoutes from './masters/product-bundle-groups/routes.js';
import bundlesRoutes from './masters/bundles/routes.js'; // bundle sales (issue 26, bundles)
// Coupons (issue 26)
import couponRoutes from './masters/coupons/routes.js';
// Product option groups (issue 26)
import productOptionGroupsRoutes from './masters/product-option-groups/routes.js';
// Discount divisions and bargains (issue 26, options-sets)
import discountDivisionsRoutes from './masters/discount-divisions/routes.js';
import bargainsRoutes from './masters/bargains/routes.js';
import transactionsRoutes from './sales/transactions/routes.js';
import transactionCustomerRoutes from './sales/transactions/customer-routes.js';
// Transaction cancel (issue 26)
import transactionCancelRoutes from './sales/transactions/cancel-routes.js';
// Layaways (取置き, issue 26)
import layawaysRoutes from './sales/layaways/routes.js';
import adjustmentsRoutes from './sales/closing/settlement-routes.js';
import dailySummariesRoutes from './sales/closing/closing-routes.js';
import orderShipmentRoutes from './sales/order-shipment/routes.js';
import shipmentsRoutes from './inventory/shipments/routes.js';
import purchaseOrdersRoutes from './inventory/purchase-orders/routes.js';
import shippingRoutes from './inventory/shipping/routes.js';
import shippingModificationRequestRoutes from './inventory/shipping/modification-routes.js';
import receivingRoutes from './inventory/shipping/receiving-routes.js';
import transactionExportRoutes, { transactionExportDownloadRoutes } from './sales/exports/routes.js';
import categoryGroupRoutes from './inventory/category-groups/routes.js';
import supplierRoutes from './inventory/suppliers/routes.js';
import productOrderSettingRoutes from './inventory/product-order-settings/routes.js';
import stockRoutes from './inventory/stock/routes.js';
import storageRoutes from './inventory/storage/routes.js'; // storage (入荷, issue 26)
import stocktakingRoutes from './inventory/stocktaking/routes.js'; // stocktaking (issue 26)
// Losses (issue 26).
import lossesRoutes from './inventory/losses/routes.js';
import lossDivisionRoutes from './inventory/loss-divisions/routes.js';
import desktopSettingsRoutes from './platform/desktop-settings/routes.js';
import setupRoutes from './platform/setup/routes.js';
import { NO_HEAD_OFFICE } from './platform/setup/head-office.js';
import type { Routes, ServerModule } from './modules.js';
import { VERSION } from './version.js';

export const BODY_LIMIT = 1024 * 1024;
const NO_QUERY = z.strictObject({});

/** The resources served under /{contract_id}/pos; later issues add theirs here. */
const API_ROUTES: Routes[] = [
  storeRoutes,
  categoryRoutes,
  customerGroupRoutes,
  staffsRoutes,
  staffRightsRoutes,
  staffRanksRoutes,
  // Tax rates, receipt provisos, staff roles (issue 26, masters-tax).
  taxRatesRoutes,
  receiptProvisosRoutes,
  rolesRoutes,
  tablesRoutes,
  terminalsRoutes,
  cashDrawersRoutes,
  paymentTerminalsRoutes,
  productsRoutes,
  productLabelsRoutes,
  budgetsRoutes,
  customersRoutes,
  masterBulkRoutes, // bulk products and members (issue 26, pos-rest)
  productAttributesRoutes, // product attributes (issue 26, pos-rest)
  paymentMethodsRoutes,
  paymentMethodGroupsRoutes,
  productBundleGroupsRoutes,
  bundlesRoutes, // bundle sales (issue 26, bundles): the same records as product bundle groups
  couponRoutes, // issue 26
  productOptionGroupsRoutes, // issue 26
  discountDivisionsRoutes, // issue 26
  bargainsRoutes, // issue 26
  transactionsRoutes,
  transactionCustomerRoutes,
  transactionCancelRoutes, // issue 26
  layawaysRoutes, // layaways (取置き, issue 26)
  transactionExportRoutes,
  adjustmentsRoutes,
  dailySummariesRoutes,
  shipmentsRoutes,
  purchaseOrdersRoutes,
  shippingRoutes,
  shippingModificationRequestRoutes,
  receivingRoutes,
  categoryGroupRoutes,
  supplierRoutes,
  productOrderSettingRoutes,
  stockRoutes,
  storageRoutes, // storage (入荷, issue 26)
  stocktakingRoutes, // stocktaking (issue 26)
  // Losses (issue 26).
  lossesRoutes,
  lossDivisionRoutes,
];

/** The desktop app's settings screen (issue 21): after the modules' resources, where /openapi.json has always listed it. */
const LAST_API_ROUTES: Routes[] = [desktopSettingsRoutes];

/**
 * The restaurant resources: served under /{contract_id}/waiter as the platform serves them
 * (the canonical path in OpenAPI), and still under /{contract_id}/pos for earlier clients.
 */
const WAITER_ROUTES = [menusRoutes, toppingGroupsRoutes, reservationsRoutes, ordersRoutes, tableUsesRoutes, toppingsRoutes, staffCallsRoutes, dashboardRoutes];
/** Waiter operations whose path is a different POS resource under /pos (waiter operations, issue 26): /waiter only. */
const WAITER_ONLY_ROUTES = [waiterCategoriesRoutes];

/**
 * The server with the modules plugged in from outside (server/modules.ts: sync's routes, write
 * hooks and head-office link): the CLI's serve and the tests build it through here.
 */
export async function buildApp(deps: AppDeps, modules: readonly ServerModule[]): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger,
    bodyLimit: BODY_LIMIT,
    requestIdHeader: 'x-request-id',
    // Router and HTTP parser errors are problem+json like every other error.
    ...problemServerOptions,
    // SDKs write `/pos/stores/` and `/pos/products/?limit=10` (the platform's own example).
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(deps.config.checkResponses ? serializerCompiler : () => (data) => JSON.stringify(data));
  registerErrorHandling(app);
  registerGracefulClose(app);
  // A write blocked by another process's lock is retried without holding the event loop.
  registerBusyRetry(app, deps.writer, () => deps.config.busyRetryMs);
  acceptEmptyJsonBodies(app);
  // The API speaks JSON only (forms on the token endpoint); anything else is a 415.
  app.removeContentTypeParser('text/plain');
  app.decorateRequest('auth', null);

  await registerOpenApi(app, VERSION);
  app.get('/health', { schema: { hide: true } }, async () => ({ status: 'ok', role: deps.config.role, version: VERSION }));
  // The back-office web UI (issue 12) at /ui/.
  await registerUi(app, deps);
  await app.register(tokenRoutes(deps));
  // The signed, token-less download of CSV exports (issue 13): GET /downloads/{file}.
  await app.register(transactionExportDownloadRoutes(deps));
  // Sync (issue 11): outbox / change-log rows in every write's transaction.
  for (const m of modules) m.installWriteHooks?.(deps);
  // Per-contract API limits and per-node sync limits (issue 25; none on a store PC by default).
  const limits = await registerRateLimits(app, deps);
  // Routes with their own auth: sync's push and pull endpoints at central.
  for (const m of modules) await m.registerRoutes?.(app, deps, limits);
  // A store's first run (issue 21): the setup screen's API, linking through the sync module.
  if (deps.config.role === 'store') {
    const headOffice = modules.find((m) => m.headOfficeLink)?.headOfficeLink?.(deps) ?? NO_HEAD_OFFICE;
    await app.register(setupRoutes(deps, headOffice));
  }
  registerUnservedPaths(app);

  const apiBase = (routes: typeof API_ROUTES, waiter: 'canonical' | 'hidden' | 'none') => async (api: FastifyInstance) => {
    api.addHook('onRoute', (route) => {
      // Every API path starts with /{contract_id}; declare it so validation and OpenAPI know it.
      const params = (route.schema?.params as z.ZodObject | undefined) ?? z.object({});
      // A route without query parameters still refuses unknown ones (a typo is a 400, not ignored).
      const querystring = route.schema?.querystring ?? NO_QUERY;
      // Any API request may meet its contract's rate limit (platform/http/rate-limits.ts).
      const response = { ...(route.schema?.response as object), 429: problemSchema };
      route.schema = { ...route.schema, params: params.extend({ contract_id: z.string() }), querystring, response };
    });
    registerBearerAuth(api, deps);
    // After the token is checked: only a contract's own requests count against its limits.
    api.addHook('onRequest', limits.api);
    registerPlatformLeniency(api);
    for (const plugin of routes) await api.register(plugin(deps));
    if (waiter === 'none') return;
    await api.register(async (restaurant) => {
      // The /pos copies of the restaurant routes work but are not documented twice.
      if (waiter === 'hidden') restaurant.addHook('onRoute', (route) => void (route.schema = { ...route.schema, hide: true }));
      for (const routes of WAITER_ROUTES) await restaurant.register(routes(deps));
    });
  };
  const resources = [...API_ROUTES, ...modules.flatMap((m) => m.apiRoutes ?? []), ...LAST_API_ROUTES];
  await app.register(apiBase(resources, 'hidden'), { prefix: BASE_PATH });
  await app.register(apiBase(WAITER_ONLY_ROUTES, 'canonical'), { prefix: WAITER_BASE_PATH });
  // The order-shipment API (issue 11 item 7: the orders that raise 6.1).
  await app.register(apiBase([orderShipmentRoutes], 'none'), { prefix: '/:contract_id/order-shipment' });
  return app;
}

/**
 * Terminals often send DELETE or PATCH with Content-Type: application/json and no body;
 * treat that as no body rather than a parse error. Everything else uses Fastify's parser.
 */
function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    parse(request, text, done);
  });
}
