import { registrationHeaders } from '../../sales/transactions/schema.js';
import { bodyHash } from '../../sales/transactions/request-keys.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { formatDate } from '../../domain/time.js';
import { answers } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import type { RequestAuth } from '../../platform/http/auth.js';
import { registerMasterRoutes, type MasterRoutesSpec } from '../../platform/http/master-routes.js';
import { CustomerRepo, type Actor, type CustomerRow } from './repo.js';
import {
  addPointBody,
  createCustomerBody,
  customer,
  customerParams,
  customerPoint,
  customerPointUpdate,
  listCustomerPointsQuery,
  listCustomersQuery,
  presentCustomer,
  presentCustomerPoint,
  presentPointUpdate,
  setPointBody,
  updateCustomerBody,
} from './schema.js';

/** Who a change is recorded for: the API client, and the staff member of a user token. */
export const actorOf = (auth: RequestAuth): Actor => ({ clientId: auth.clientId, staffId: auth.staffId });

/** Members (customers): supporting master of member sales, open to every plan. */
export default function customersRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const customers = new CustomerRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['customers'];
  const today = (zone: string) => formatDate(deps.clock.now().getTime(), zone);
  // The member's own routes; every write records who made it.
  const members = {
    noun: ['member', 'members'],
    tags,
    scope: 'pos.customers',
    record: customer,
    present: presentCustomer,
    create: createCustomerBody,
    list: listCustomersQuery,
    update: updateCustomerBody,
    run: {
      create: (auth, body) => customers.create(auth.contract.contractId, body, actorOf(auth)),
      update: (auth, customerId, body) => customers.update(auth.contract.contractId, customerId, body, actorOf(auth)),
    },
  } satisfies MasterRoutesSpec<CustomerRow, typeof createCustomerBody, typeof updateCustomerBody, typeof listCustomersQuery, never>;

  return async (app) => {
    registerMasterRoutes(app, 'customer', customers, { ...members, only: ['create', 'list'] });

    const route = apiRoutes(app, tags);
    // A static segment: Fastify prefers it to /customers/:customer_id.
    route.get(
      '/customers/point',
      'pos.customers:read',
      { summary: "List members' points and miles (points past their expiry date expire first)", querystring: listCustomerPointsQuery, response: answers.list(customerPoint) },
      ({ contract, query, page }) =>
        page(customers.listPoints(contract.contractId, query, query, today(contract.timeZone)), (r) => presentCustomerPoint(r, contract.timeZone)),
    );

    route.patch(
      '/customers/:customer_id/point',
      'pos.customers:write',
      {
        summary: "Set a member's points and miles to the values sent (a recorded point movement)",
        params: customerParams,
        body: setPointBody,
        response: answers.found(customerPointUpdate),
      },
      ({ auth, contract, params, body }) => presentPointUpdate(customers.setPoints(contract.contractId, params.customer_id, body, actorOf(auth)), contract.timeZone),
    );

    route.post(
      '/customers/:customer_id/point/add',
      'pos.customers:write',
      {
        summary: "Add to (or, negative, take from) a member's points and miles; never below zero",
        description: 'With an Idempotency-Key header a retry adds nothing again; the same key with another body is a 409.',
        headers: registrationHeaders,
        params: customerParams,
        body: addPointBody,
        response: answers.conflicting(customerPointUpdate),
      },
      ({ auth, contract, params, body, request }) => {
        const key = request.headers['idempotency-key'] as string | undefined;
        const retry = key === undefined ? undefined : { key, bodyHash: bodyHash(body) };
        const row = customers.addPointsManually(contract.contractId, params.customer_id, body, actorOf(auth), today(contract.timeZone), retry);
        return presentPointUpdate(row, contract.timeZone);
      },
    );

    registerMasterRoutes(app, 'customer', customers, { ...members, only: ['get', 'update'] });
  };
}
