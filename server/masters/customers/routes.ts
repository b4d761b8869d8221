import { registrationHeaders } from '../../sales/transactions/schema.js';
import { bodyHash } from '../../sales/transactions/request-keys.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { formatDate } from '../../domain/time.js';
import { authOf, type RequestAuth } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { CustomerRepo, type Actor } from './repo.js';
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

  return async (app) => {
    app.post(
      '/customers',
      {
        config: { scope: 'pos.customers:write' },
        schema: {
          tags,
          summary: 'Register a member',
          body: createCustomerBody,
          response: { 200: customer, ...commonErrorResponses },
        },
      },
      async (request) => {
        const auth = authOf(request);
        return presentCustomer(customers.create(auth.contract.contractId, request.body, actorOf(auth)), auth.contract.timeZone);
      },
    );

    app.get(
      '/customers',
      {
        config: { scope: 'pos.customers:read' },
        schema: {
          tags,
          summary: 'List members',
          querystring: listCustomersQuery,
          response: { 200: z.array(customer), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const rows = customers.list(contract.contractId, request.query, request.query);
        return sendPage(request, reply, request.query, rows).map((r) => presentCustomer(r, contract.timeZone));
      },
    );

    // A static segment: Fastify prefers it to /customers/:customer_id.
    app.get(
      '/customers/point',
      {
        config: { scope: 'pos.customers:read' },
        schema: {
          tags,
          summary: "List members' points and miles (points past their expiry date expire first)",
          querystring: listCustomerPointsQuery,
          response: { 200: z.array(customerPoint), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const today = formatDate(deps.clock.now().getTime(), contract.timeZone);
        const rows = customers.listPoints(contract.contractId, request.query, request.query, today);
        return sendPage(request, reply, request.query, rows).map((r) => presentCustomerPoint(r, contract.timeZone));
      },
    );

    app.patch(
      '/customers/:customer_id/point',
      {
        config: { scope: 'pos.customers:write' },
        schema: {
          tags,
          summary: "Set a member's points and miles to the values sent (a recorded point movement)",
          params: customerParams,
          body: setPointBody,
          response: { 200: customerPointUpdate, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const auth = authOf(request);
        const row = customers.setPoints(auth.contract.contractId, request.params.customer_id, request.body, actorOf(auth));
        return presentPointUpdate(row, auth.contract.timeZone);
      },
    );

    app.post(
      '/customers/:customer_id/point/add',
      {
        config: { scope: 'pos.customers:write' },
        schema: {
          tags,
          summary: "Add to (or, negative, take from) a member's points and miles; never below zero",
          description: 'With an Idempotency-Key header a retry adds nothing again; the same key with another body is a 409.',
          headers: registrationHeaders,
          params: customerParams,
          body: addPointBody,
          response: { 200: customerPointUpdate, ...commonErrorResponses, 404: problemSchema, 409: problemSchema },
        },
      },
      async (request) => {
        const auth = authOf(request);
        const { contractId, timeZone } = auth.contract;
        const today = formatDate(deps.clock.now().getTime(), timeZone);
        const key = request.headers['idempotency-key'];
        const retry = key === undefined ? undefined : { key, bodyHash: bodyHash(request.body) };
        const row = customers.addPointsManually(contractId, request.params.customer_id, request.body, actorOf(auth), today, retry);
        return presentPointUpdate(row, timeZone);
      },
    );

    app.get(
      '/customers/:customer_id',
      {
        config: { scope: 'pos.customers:read' },
        schema: {
          tags,
          summary: 'Get a member',
          params: customerParams,
          response: { 200: customer, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentCustomer(customers.get(contract.contractId, request.params.customer_id), contract.timeZone);
      },
    );

    app.patch(
      '/customers/:customer_id',
      {
        config: { scope: 'pos.customers:write' },
        schema: {
          tags,
          summary: 'Update a member (only the keys sent change)',
          params: customerParams,
          body: updateCustomerBody,
          response: { 200: customer, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const auth = authOf(request);
        const row = customers.update(auth.contract.contractId, request.params.customer_id, request.body, actorOf(auth));
        return presentCustomer(row, auth.contract.timeZone);
      },
    );
  };
}
