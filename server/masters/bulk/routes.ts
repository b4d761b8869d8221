import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { answers } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import type { RequestAuth } from '../../platform/http/auth.js';
import { assertReceiver } from '../../platform/http/receivers.js';
import { CustomerRepo } from '../customers/repo.js';
import { ProductRepo } from '../products/repo.js';
import type { BulkActor } from './job-store.js';
import { applyRows, makeMasterBulkJobs } from './jobs.js';
import {
  bulkAccepted,
  bulkCreateCustomersBody,
  bulkCreateProductsBody,
  bulkUpdateCustomersBody,
  bulkUpdateProductsBody,
  type BulkCreateCustomers,
  type BulkCreateProducts,
  type BulkUpdateCustomers,
  type BulkUpdateProducts,
} from './schema.js';

const PRODUCTS_EVENT = 'pos:products';
const CUSTOMERS_EVENT = 'pos:customers';

const actorOf = (auth: RequestAuth): BulkActor => ({ clientId: auth.clientId, staffId: auth.staffId });
const memberActor = (actor: BulkActor) => ({ clientId: actor.clientId ?? null, staffId: actor.staffId ?? null });

const AFTER =
  'Answers at once (requestId); the rows are written after the answer, all or none, each by the rules of the single ' +
  'operation, and the result goes to callbackUrl as the records\' event with action bulk-update: requestId, status ' +
  '(success or failed), the ids written in row order and errors (each refused row as `[rows[i].field] reason`; nothing ' +
  'is written when any row is refused).';

/**
 * The platform's bulk registrations and updates of products and members (issue 26): up to 100
 * rows, applied after the answer by one job runner (jobs.ts) and reported to the request's
 * callbackUrl. The rows go through the same repos as the single routes, so the rules, the sync
 * outbox and the rights are theirs.
 */
export default function masterBulkRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const products = new ProductRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const customers = new CustomerRepo(deps.db, deps.writer, deps.ids, deps.clock);

  return async (app) => {
    const jobs = makeMasterBulkJobs(deps, app.log);
    jobs.register('POST /products/bulk', {
      event: PRODUCTS_EVENT,
      idsKey: 'productIds',
      apply: (contractId, body) => applyRows('products', (body as BulkCreateProducts).products, (row) => products.create(contractId, row).row.product_id.toString()),
    });
    jobs.register('PATCH /products/bulk', {
      event: PRODUCTS_EVENT,
      idsKey: 'productIds',
      apply: (contractId, body) =>
        applyRows(
          'products',
          (body as BulkUpdateProducts).products,
          ({ productId, ...patch }) => products.update(contractId, productId, patch).row.product_id.toString(),
          { product_id: 'productId' },
        ),
    });
    jobs.register('POST /customers/bulk', {
      event: CUSTOMERS_EVENT,
      idsKey: 'customerIds',
      apply: (contractId, body, actor) =>
        applyRows('customers', (body as BulkCreateCustomers).customers, (row) => customers.create(contractId, row, memberActor(actor)).customer_id.toString()),
    });
    jobs.register('PATCH /customers/bulk', {
      event: CUSTOMERS_EVENT,
      idsKey: 'customerIds',
      apply: (contractId, body, actor) =>
        applyRows(
          'customers',
          (body as BulkUpdateCustomers).customers,
          ({ customerId, ...patch }) => customers.update(contractId, customerId, patch, memberActor(actor)).customer_id.toString(),
          { customer_id: 'customerId' },
        ),
    });
    // Jobs a stop left stored are applied once the app is ready.
    app.addHook('onReady', async () => jobs.start());
    app.addHook('onClose', async () => jobs.close());

    const accept = async (auth: RequestAuth, operation: string, body: { callbackUrl: string }) => {
      // The notice goes out from here: at head office only to public addresses (platform/http/receivers.ts).
      await assertReceiver(deps.config, body.callbackUrl, 'callbackUrl');
      return { requestId: jobs.accept(auth.contract.contractId, operation, body, actorOf(auth)), callbackUrl: body.callbackUrl };
    };

    const productRoutes = apiRoutes(app, ['products']);
    productRoutes.post(
      '/products/bulk',
      'pos.products:write',
      { summary: 'Register products in bulk (up to 100), written after the answer', description: AFTER, body: bulkCreateProductsBody, response: answers.one(bulkAccepted) },
      ({ auth, body }) => accept(auth, 'POST /products/bulk', body),
    );
    productRoutes.patch(
      '/products/bulk',
      'pos.products:write',
      { summary: 'Update products in bulk (up to 100), written after the answer', description: AFTER, body: bulkUpdateProductsBody, response: answers.one(bulkAccepted) },
      ({ auth, body }) => accept(auth, 'PATCH /products/bulk', body),
    );

    const customerRoutes = apiRoutes(app, ['customers']);
    customerRoutes.post(
      '/customers/bulk',
      'pos.customers:write',
      { summary: 'Register members in bulk (up to 100), written after the answer', description: AFTER, body: bulkCreateCustomersBody, response: answers.one(bulkAccepted) },
      ({ auth, body }) => accept(auth, 'POST /customers/bulk', body),
    );
    customerRoutes.patch(
      '/customers/bulk',
      'pos.customers:write',
      { summary: 'Update members in bulk (up to 100), written after the answer', description: AFTER, body: bulkUpdateCustomersBody, response: answers.one(bulkAccepted) },
      ({ auth, body }) => accept(auth, 'PATCH /customers/bulk', body),
    );
  };
}
