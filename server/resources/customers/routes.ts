import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../http/auth.js';
import { sendPage } from '../../http/paging.js';
import { commonErrorResponses, problemSchema } from '../../http/problem.js';
import { CustomerRepo } from './repo.js';
import { createCustomerBody, customer, customerParams, listCustomersQuery, presentCustomer, updateCustomerBody } from './schema.js';

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
        const { contract } = authOf(request);
        return presentCustomer(customers.create(contract.contractId, request.body), contract.timeZone);
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
        const { contract } = authOf(request);
        return presentCustomer(customers.update(contract.contractId, request.params.customer_id, request.body), contract.timeZone);
      },
    );
  };
}
