import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import type { AfterAnswerWork } from '../../jobs/after-answer.js';
import { answers } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import type { RequestAuth } from '../../platform/http/auth.js';
import { assertReceiver } from '../../platform/http/receivers.js';
import type { Scope } from '../../platform/http/scopes.js';
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

/** One bulk route: how it is declared, and the work its accepted requests do after the answer. */
interface BulkRoute {
  method: 'post' | 'patch';
  path: string;
  tag: string;
  scope: Scope;
  summary: string;
  body: z.ZodType<{ callbackUrl: string }>;
  work: AfterAnswerWork;
}

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

  // Each bulk route and the work its jobs do: the job's operation is the route's method and path.
  const bulkRoutes: BulkRoute[] = [
    {
      method: 'post',
      path: '/products/bulk',
      tag: 'products',
      scope: 'pos.products:write',
      summary: 'Register products in bulk (up to 100), written after the answer',
      body: bulkCreateProductsBody,
      work: {
        event: PRODUCTS_EVENT,
        idsKey: 'productIds',
        apply: (contractId, body) => applyRows('products', (body as BulkCreateProducts).products, (row) => products.create(contractId, row).row.product_id.toString()),
      },
    },
    {
      method: 'patch',
      path: '/products/bulk',
      tag: 'products',
      scope: 'pos.products:write',
      summary: 'Update products in bulk (up to 100), written after the answer',
      body: bulkUpdateProductsBody,
      work: {
        event: PRODUCTS_EVENT,
        idsKey: 'productIds',
        apply: (contractId, body) =>
          applyRows(
            'products',
            (body as BulkUpdateProducts).products,
            ({ productId, ...patch }) => products.update(contractId, productId, patch).row.product_id.toString(),
            { product_id: 'productId' },
          ),
      },
    },
    {
      method: 'post',
      path: '/customers/bulk',
      tag: 'customers',
      scope: 'pos.customers:write',
      summary: 'Register members in bulk (up to 100), written after the answer',
      body: bulkCreateCustomersBody,
      work: {
        event: CUSTOMERS_EVENT,
        idsKey: 'customerIds',
        apply: (contractId, body, actor) =>
          applyRows('customers', (body as BulkCreateCustomers).customers, (row) => customers.create(contractId, row, memberActor(actor)).customer_id.toString()),
      },
    },
    {
      method: 'patch',
      path: '/customers/bulk',
      tag: 'customers',
      scope: 'pos.customers:write',
      summary: 'Update members in bulk (up to 100), written after the answer',
      body: bulkUpdateCustomersBody,
      work: {
        event: CUSTOMERS_EVENT,
        idsKey: 'customerIds',
        apply: (contractId, body, actor) =>
          applyRows(
            'customers',
            (body as BulkUpdateCustomers).customers,
            ({ customerId, ...patch }) => customers.update(contractId, customerId, patch, memberActor(actor)).customer_id.toString(),
            { customer_id: 'customerId' },
          ),
      },
    },
  ];

  return async (app) => {
    const jobs = makeMasterBulkJobs(deps, app.log);
    // Jobs a stop left stored are applied once the app is ready.
    app.addHook('onReady', async () => jobs.start());
    app.addHook('onClose', async () => jobs.close());

    for (const { method, path, tag, scope, summary, body, work } of bulkRoutes) {
      const operation = `${method.toUpperCase()} ${path}`;
      jobs.register(operation, work);
      apiRoutes(app, [tag])[method](path, scope, { summary, description: AFTER, body, response: answers.one(bulkAccepted) }, async ({ auth, body }) => {
        // The notice goes out from here: at head office only to public addresses (platform/http/receivers.ts).
        await assertReceiver(deps.config, body.callbackUrl, 'callbackUrl');
        return { requestId: jobs.accept(auth.contract.contractId, operation, body, actorOf(auth)), callbackUrl: body.callbackUrl };
      });
    }
  };
}
